"""The home page: the compose box, the viewer's home timeline (live on its newest page), suggestions; and
posting from it. Anonymous visitors get the landing page."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from socialsite import ratelimits
from timelines import limits, selectors
from timelines.forms import PostForm
from timelines.views.live_marks import rendered_mark
from timelines.views.params import announce, query_int, wants_fragment
from timelines.views.post_box import WAITING, WAITING_MESSAGE, post_with_images
from timelines.views.timeline_pages import PAGE_SIZE, timeline_context, timeline_response
from timelines.views.visibility_menu import menu

SUGGESTIONS = 5


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "timelines/landing.html")
    return _render_home(request, PostForm())


def _render_home(request: HttpRequest, form: PostForm, status: int = 200) -> HttpResponse:
    uid = request.user.uid
    max_id = query_int(request, "max_id")
    statuses = selectors.get_status_messages(uid=uid, timeline="home", max_id=max_id, count=PAGE_SIZE)
    if wants_fragment(request) and max_id:
        return timeline_response(request, "timelines/home.html", timeline_context(statuses))
    me = selectors.get_user(uid=uid)
    first_page = max_id is None
    newest = statuses[0]["id"] if statuses else 0
    context = {
        "me": me,
        "form": form,
        "max_message_length": limits.MAX_MESSAGE_LENGTH,
        # Only the newest page follows the stream; older pages stay as they were when read.
        "live_url": (
            f"/{settings.LIVE_HOME_PATH}?since_id={newest}&rendered={rendered_mark(statuses)}" if first_page else ""
        ),
        "suggestions": (
            selectors.get_suggested_users(uid=uid, count=SUGGESTIONS)
            if first_page and (me.following == 0 or not statuses)
            else []
        ),
        "trending": selectors.get_trending_tags() if first_page else [],
        **menu(me=me, form=form),
        **timeline_context(statuses),
    }
    response = timeline_response(request, "timelines/home.html", context)
    response.status_code = status
    return response


def _compose_fragment(request: HttpRequest, form: PostForm, *, status: int = 200, **extra: object) -> HttpResponse:
    me = selectors.get_user(uid=request.user.uid)
    context = {"form": form, "max_message_length": limits.MAX_MESSAGE_LENGTH, **menu(me=me, form=form), **extra}
    return render(request, "timelines/_compose_result.html", context, status=status)


def _compose_refused(request: HttpRequest, message: str) -> HttpResponse:
    """The rate limit's answer without JavaScript: the home page, the post box keeping its text, and why."""
    form = PostForm(request.POST)
    form.is_valid()
    form.add_error("message", message)
    return _render_home(request, form)


@login_required
@require_POST
@ratelimits.limit("posts", page=_compose_refused)
def compose(request: HttpRequest) -> HttpResponse:
    form = PostForm(request.POST)
    if form.is_valid():
        status_id = post_with_images(request, form)
        if status_id == WAITING:
            if wants_fragment(request):
                return announce(_compose_fragment(request, PostForm(), focus=True), WAITING_MESSAGE)
            messages.info(request, WAITING_MESSAGE)
            return redirect("timelines:home")
        if status_id is not None:
            if wants_fragment(request):
                response = _compose_fragment(
                    request, PostForm(), posted=selectors.get_status(status_id=status_id), focus=True
                )
                return announce(response, "Posted.")
            messages.success(request, "Posted.")
            return redirect("timelines:home")
    if wants_fragment(request):
        return _compose_fragment(request, form, status=400)
    return _render_home(request, form, status=400)
