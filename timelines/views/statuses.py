"""Deleting a post: a confirmation (a page, or inline with htmx), then the delete."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from socialsite.redirects import next_url, redirect_next
from timelines import exceptions, selectors, services
from timelines.views.params import announce, wants_fragment


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete(request: HttpRequest, status_id: int) -> HttpResponse:
    uid = request.user.uid
    try:
        status = selectors.get_status(status_id=status_id, viewer_uid=uid)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    if status["uid"] != uid:
        return render(request, "error.html", {"message": exceptions.NOT_OWNER}, status=403)
    fallback = reverse("timelines:profile", args=[request.user.username])
    if request.method != "POST":
        target = next_url(request, fallback)
        if wants_fragment(request):
            template = "timelines/_delete_button.html" if "cancel" in request.GET else "timelines/_delete_inline.html"
            return render(request, template, {"status": status, "next": target, "autofocus": True})
        return render(request, "timelines/delete_confirm.html", {"status": status, "next": target})
    try:
        services.delete_status(uid=uid, status_id=status_id)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    except exceptions.NotOwner:
        return render(request, "error.html", {"message": exceptions.NOT_OWNER}, status=403)
    if wants_fragment(request):
        # The confirmation form swaps its whole post out of the page ("delete"); nothing to send back.
        return announce(HttpResponse(""), "Post deleted.")
    messages.success(request, "Post deleted.")
    return redirect_next(request, fallback)
