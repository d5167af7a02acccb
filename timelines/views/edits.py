"""Editing a post (issue 19): ``/@login/<id>/edit`` (the form in place with htmx, a page without JavaScript, then
Save) and ``/@login/<id>/history`` (every version, newest first, for whoever may see the post)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import reswap, retarget

from socialsite import ratelimits
from socialsite.redirects import next_url, redirect_next
from timelines import exceptions, limits, selectors, services
from timelines.forms import EditForm
from timelines.records import Status
from timelines.templatetags.timeline_format import status_url
from timelines.views.params import announce, viewer_uid, wants_fragment


def _post_of(login: str, status_id: int | str, viewer: int | None) -> Status:
    """The post ``status_id`` of ``login`` as ``viewer`` may see it; a repost, someone else's login, a post the
    policy hides from the viewer or a missing one is 404 alike."""
    try:
        status = selectors.get_status(status_id=int(status_id), viewer_uid=viewer)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    if status.login.lower() != login.lower() or status.repost_of is not None:
        raise Http404(exceptions.STATUS_NOT_FOUND)
    return status


def _context(status: Status, form: EditForm, next_path: str, *, inline: bool = False) -> dict[str, object]:
    """The edit box's context: ``inline`` in place of the post's text (htmx), else on the edit page, where it is a
    plain form (the post it would swap back into is not on that page)."""
    return {
        "status": status,
        "form": form,
        "next": next_path,
        "inline": inline,
        "autofocus": True,
        "max_message_length": limits.MAX_MESSAGE_LENGTH,
    }


def _the_post(request: HttpRequest, status_id: int, next_path: str) -> HttpResponse:
    """The post as its author sees it now, to swap in for the form (htmx)."""
    try:
        entry = selectors.get_entry(status_id=status_id, viewer_uid=request.user.uid)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    context = {"entry": entry, "viewer_uid": request.user.uid, "current_path": next_path}
    response = render(request, "timelines/_status_swap.html", context)
    return reswap(retarget(response, f"#status-{entry.entry_id}"), "outerHTML")


def _refused_page(request: HttpRequest, message: str, login: str, status_id: int) -> HttpResponse:
    """The posts rate limit's answer without JavaScript: the edit page keeping what was typed, and why."""
    status = _post_of(login, status_id, request.user.uid)
    form = EditForm(request.POST)
    form.is_valid()
    form.add_error("message", message)
    fallback = status_url(status.login, status.id)
    return render(request, "timelines/edit_status.html", _context(status, form, next_url(request, fallback)))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit("posts", page=_refused_page)
def edit(request: HttpRequest, login: str, status_id: str) -> HttpResponse:
    """GET: the edit form (in place of the post's text with htmx, else a page); ``?cancel=1`` gives the post
    back. POST: Save."""
    uid = request.user.uid
    status = _post_of(login, status_id, uid)
    if status.uid != uid:
        return render(request, "error.html", {"message": exceptions.NOT_EDIT_OWNER}, status=403)
    fallback = status_url(status.login, status.id)
    target = next_url(request, fallback)
    if request.method != "POST":
        if wants_fragment(request) and "cancel" in request.GET:
            return _the_post(request, status.id, target)
        form = EditForm(initial={"message": status.message})
        if wants_fragment(request):
            return render(request, "timelines/_edit_form.html", _context(status, form, target, inline=True))
        return render(request, "timelines/edit_status.html", _context(status, form, target))
    form = EditForm(request.POST)
    if form.is_valid():
        try:
            services.edit_status(uid=uid, status_id=status.id, message=form.cleaned_data["message"])
        except (exceptions.InvalidMessage, exceptions.TooManyVersions) as error:
            form.add_error("message", error.message)
        except exceptions.StatusNotFound:
            raise Http404(exceptions.STATUS_NOT_FOUND) from None
        except exceptions.NotOwner:
            return render(request, "error.html", {"message": exceptions.NOT_EDIT_OWNER}, status=403)
        else:
            if wants_fragment(request):
                return announce(_the_post(request, status.id, target), "Post edited.")
            messages.success(request, "Post edited.")
            return redirect_next(request, fallback)
    if wants_fragment(request):
        return render(request, "timelines/_edit_form.html", _context(status, form, target, inline=True), status=400)
    return render(request, "timelines/edit_status.html", _context(status, form, target), status=400)


@require_safe
def history(request: HttpRequest, login: str, status_id: str) -> HttpResponse:
    """Every version of a post, newest first; 404 for a post the viewer may not see, as its page."""
    status = _post_of(login, status_id, viewer_uid(request))
    try:
        versions = selectors.get_status_history(status_id=status.id, viewer_uid=viewer_uid(request))
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    return render(request, "timelines/status_history.html", {"status": status, "versions": versions})
