"""``/bookmarks``: the posts the person saved, newest bookmark first, paged by the bookmark's cursor. Only its
owner sees it (there is no page of someone else's bookmarks)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from timelines import selectors
from timelines.views.params import query_int
from timelines.views.timeline_pages import PAGE_SIZE


@login_required
@require_safe
def bookmarks(request: HttpRequest) -> HttpResponse:
    page = selectors.get_bookmarks(uid=request.user.uid, count=PAGE_SIZE, before=query_int(request, "before"))
    context = {"statuses": page.entries, "next_before": page.next_before}
    return render(request, "timelines/bookmarks.html", context)
