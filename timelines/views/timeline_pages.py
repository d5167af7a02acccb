"""Rendering a page of a timeline: the whole page, or for htmx's "Load more" only the next statuses."""

from __future__ import annotations

from collections.abc import Sequence

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from timelines import limits
from timelines.records import Status
from timelines.views.params import wants_fragment

PAGE_SIZE = limits.DEFAULT_PAGE_SIZE


def timeline_context(statuses: Sequence[Status]) -> dict[str, object]:
    return {"statuses": statuses, "next_max_id": statuses[-1]["id"] if len(statuses) >= PAGE_SIZE else None}


def timeline_response(request: HttpRequest, template: str, context: dict[str, object]) -> HttpResponse:
    """The whole page, or for htmx's "Load more" only the next statuses and the next pager."""
    if wants_fragment(request) and request.GET.get("max_id"):
        response = render(request, "timelines/_timeline_page.html", context)
    else:
        response = render(request, template, context)
    # The same URL answers with a fragment or a page: caches must keep them apart.
    patch_vary_headers(response, ("HX-Request",))
    return response
