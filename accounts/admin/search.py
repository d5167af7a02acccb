"""The admin's search box, bounded: a changelist search becomes one SQL ``LIKE`` per word and search field, and
SQLite refuses a pattern over 50,000 bytes ("LIKE or GLOB pattern too complex", a 500). A search longer than
``MAX_SEARCH_LENGTH`` finds nothing and says why, before any query is built.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import QuerySet
from django.http import HttpRequest

MAX_SEARCH_LENGTH = 200
SEARCH_TOO_LONG = f"Search for at most {MAX_SEARCH_LENGTH} characters."


class BoundedSearch:
    """Mixed into a ``ModelAdmin`` before it: its ``search_fields`` search, refusing an overlong term."""

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str) -> tuple[QuerySet, bool]:
        if len(search_term) > MAX_SEARCH_LENGTH:
            messages.error(request, SEARCH_TOO_LONG)
            return queryset.none(), False
        parent: Any = super()
        return parent.get_search_results(request, queryset, search_term)
