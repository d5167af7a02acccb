"""``/notifications``: what happened to the viewer, newest first and grouped, and marking them read.

Opening the page marks everything read: the GET itself writes nothing (pages never write), and the page asks
for ``POST /notifications/read`` as soon as it loads (htmx); without JavaScript the page has a button for it.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from timelines import selectors, services
from timelines.views.params import query_int, wants_fragment

PAGE_SIZE = 40


@login_required
@require_safe
def notifications(request: HttpRequest) -> HttpResponse:
    uid = request.user.uid
    max_id = query_int(request, "max_id")
    found = selectors.get_notifications(uid=uid, count=PAGE_SIZE, max_id=max_id)
    context = {
        "groups": selectors.group_notifications(found),
        "next_max_id": found[-1].id if len(found) >= PAGE_SIZE else None,
        "has_unread": any(notification.unread for notification in found),
    }
    return render(request, "timelines/notifications.html", context)


@login_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    services.mark_notifications_read(uid=request.user.uid)
    if wants_fragment(request):
        return render(request, "timelines/_notifications_link.html", {"unread_notifications": 0})
    return redirect("timelines:notifications")
