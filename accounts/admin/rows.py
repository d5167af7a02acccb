"""Changelists whose rows also show what Redis holds about them (an account's posts and followers, a report's
posts): the model admin reads it for the whole page at once, after the page's rows are known, and hangs it on
each row, so a page costs one Redis round trip or two whatever its length, never one per row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from django.contrib.admin.views.main import ChangeList
from django.db.models import Model
from django.http import HttpRequest


class ReadsRedisRows(Protocol):
    def attach_redis_rows(self, rows: Sequence[Model]) -> None: ...


class RedisRowsChangeList(ChangeList):
    def get_results(self, request: HttpRequest) -> None:
        super().get_results(request)
        model_admin: ReadsRedisRows = self.model_admin  # type: ignore[assignment]
        model_admin.attach_redis_rows(self.result_list)
