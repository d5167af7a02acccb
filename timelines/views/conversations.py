"""A post's own page (``/@login/<id>``): its ancestors, the post, its replies as a tree with Load more, and
the reply form; and posting a reply, from that page or in place under a post (htmx)."""

from __future__ import annotations

import time

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from socialsite import ratelimits
from timelines import exceptions, hooks, limits, selectors, uris, visibility
from timelines.forms import ReplyForm
from timelines.records import Status
from timelines.templatetags.timeline_format import status_url
from timelines.views.params import announce, query_int, viewer_uid, wants_fragment
from timelines.views.post_box import WAITING, WAITING_MESSAGE, post_with_images
from timelines.views.visibility_menu import menu

THREAD_PAGE_SIZE = limits.DEFAULT_PAGE_SIZE
# A page waiting for another server's replies asks again (every 2 s) for at most this long, then stops.
MAX_REPLY_WAIT_SECONDS = 120


def _status_of(login: str, status_id: int | str, *, actor: int | None = None) -> Status:
    """The post ``status_id`` if ``login`` wrote it (case-insensitively), and with ``actor`` if the policy lets
    that person see it; a repost, a post hidden from the actor or anything else is 404. (The post's page asks
    no actor: its thread read applies the policy to the viewer in the same round trip.)"""
    try:
        if actor is None:
            status = selectors.get_status(status_id=int(status_id))
        else:
            status = selectors.get_status(status_id=int(status_id), viewer_uid=actor)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    if status.login.lower() != login.lower() or status.repost_of is not None:
        raise Http404(exceptions.STATUS_NOT_FOUND)
    return status


def _prefill(status: Status, viewer: int | None) -> str:
    """The reply box's first words: the author answered, and for a post to mentioned people only everyone else
    it mentions, since the reply reaches only the people it names."""
    logins = [] if viewer == status.uid else [status.login]
    if status.visibility == visibility.DIRECT:
        for uid, login in zip(status.mentions, status.mention_logins, strict=True):
            if uid not in (viewer, status.uid) and login not in logins:
                logins.append(login)
    return "".join(f"@{login} " for login in logins)


@require_safe
def status_page(request: HttpRequest, login: str, status_id: int) -> HttpResponse:
    status = _status_of(login, status_id)
    viewer = viewer_uid(request)
    cursor = query_int(request, "max_id")
    try:
        thread = selectors.get_thread(status_id=status.id, viewer_uid=viewer, max_id=cursor, count=THREAD_PAGE_SIZE)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    # Another server's post: its replies missing here are fetched from there (a job, within limits); while the
    # job runs, the page asks again (``?replies=1``, every 2 s: 204 until it is done, then the replies section).
    # ``?replies=<when the page opened>`` (epoch seconds): the page's question.
    opened = query_int(request, "replies")
    polled = opened is not None and wants_fragment(request)
    if not polled:
        hooks.remote_thread_opened(thread.status.status)
    waited = time.time() - opened if opened is not None else 0
    pending = not cursor and waited < MAX_REPLY_WAIT_SECONDS and hooks.remote_replies_pending(thread.status.status)
    if polled and pending:
        return HttpResponse(status=204)
    context = {
        "thread": thread,
        "status": thread.status,
        "canonical_url": uris.status_uri(status.login, status.id),
        "form": ReplyForm(initial={"message": _prefill(status, viewer)}),
        "reply_to": status,
        "max_depth": limits.MAX_REPLY_DEPTH,
        "focus_reply": bool(request.GET.get("reply")),
        "replies_pending": pending,
        "opened": opened or int(time.time()),
        **menu(me=selectors.get_user(uid=viewer) if viewer else None, replying_to=status),
    }
    if wants_fragment(request) and cursor:
        return render(request, "timelines/_thread_page.html", context)
    if polled:
        return render(request, "timelines/_replies_section.html", context)
    return render(request, "timelines/status_page.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit("posts")
def reply(request: HttpRequest, login: str, status_id: int) -> HttpResponse:
    """GET: the reply form on its own, swapped in under a post by its Reply button (htmx). POST: the reply."""
    status = _status_of(login, status_id, actor=request.user.uid)
    me = selectors.get_user(uid=request.user.uid)
    if request.method != "POST":
        form = ReplyForm(initial={"message": _prefill(status, request.user.uid)})
        context = {"form": form, "reply_to": status, "autofocus": True, **menu(me=me, replying_to=status)}
        return render(request, "timelines/_reply_form.html", context)
    form = ReplyForm(request.POST)
    if form.is_valid():
        try:
            reply_id = post_with_images(request, form, in_reply_to=status.id)
        except exceptions.StatusNotFound:
            raise Http404(exceptions.STATUS_NOT_FOUND) from None
        if reply_id == WAITING:
            if wants_fragment(request):
                context = {"form": ReplyForm(), "reply_to": status, **menu(me=me, replying_to=status)}
                return announce(render(request, "timelines/_reply_form.html", context), WAITING_MESSAGE)
            messages.info(request, WAITING_MESSAGE)
            return redirect(status_url(status.login, status.id))
        if reply_id is not None:
            if wants_fragment(request):
                posted = selectors.get_status(status_id=reply_id)
                response = render(request, "timelines/_reply_result.html", {"reply_to": status, "posted": posted})
                return announce(response, "Reply posted.")
            messages.success(request, "Reply posted.")
            return redirect(f"{status_url(status.login, status.id)}#status-{reply_id}")
    context = {"form": form, "reply_to": status, "autofocus": True, **menu(me=me, form=form, replying_to=status)}
    if wants_fragment(request):
        return render(request, "timelines/_reply_form.html", context, status=400)
    try:
        thread = selectors.get_thread(status_id=status.id, viewer_uid=request.user.uid, count=THREAD_PAGE_SIZE)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    context.update(thread=thread, status=thread.status, max_depth=limits.MAX_REPLY_DEPTH)
    return render(request, "timelines/status_page.html", context, status=400)
