"""The home page: the compose box, the viewer's home timeline (live on its newest page), suggestions; and
posting from it. Anonymous visitors get the landing page."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from media import limits as media_limits
from media import services as media_services
from media.processing import InvalidImage
from socialsite import ratelimits
from timelines import exceptions, limits, selectors, services
from timelines.forms import PostForm
from timelines.views.params import announce, query_int, wants_fragment
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
        "live_url": f"/{settings.LIVE_HOME_PATH}?since_id={newest}" if first_page else "",
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


def _images(request: HttpRequest) -> list[tuple[bytes, str]]:
    """The post box's files with their descriptions (``description-N`` goes with the Nth file), checked for
    count and size before any is read. Raises ``InvalidMedia`` or ``InvalidImage``."""
    files = request.FILES.getlist("images")
    if len(files) > media_limits.MAX_PER_POST:
        raise media_services.InvalidMedia(f"A post may carry at most {media_limits.MAX_PER_POST} images.")
    items = []
    for number, upload in enumerate(files, start=1):
        if upload.size > media_limits.max_upload_bytes():
            raise InvalidImage(media_limits.too_large_message())
        description = request.POST.get(f"description-{number}", "")
        items.append((upload.read(), description))
    return items


def _post(request: HttpRequest, form: PostForm) -> int | None:
    """Store the post box's images and post; None with the form's errors set when something was refused, in
    which case no image is left stored."""
    uid = request.user.uid
    try:
        uploaded = media_services.upload_many(owner=uid, items=_images(request))
    except (InvalidImage, media_services.InvalidMedia) as error:
        form.add_error(None, error.message)
        return None
    media_ids = [picture.pk for picture in uploaded]
    try:
        return services.post_status(
            uid=uid,
            message=form.cleaned_data["message"],
            visibility=form.cleaned_data["visibility"] or None,
            media_ids=media_ids,
            sensitive=form.cleaned_data["sensitive"],
        )
    except (exceptions.InvalidMessage, exceptions.InvalidStatusData) as error:
        form.add_error("message", error.message)
    except exceptions.InvalidMedia as error:
        form.add_error(None, error.message)
    except exceptions.InvalidVisibility as error:
        # A direct post with no one to reach is about what was written; the rest is about the menu.
        form.add_error("message" if error.message == exceptions.NO_RECIPIENT else "visibility", error.message)
    finally:
        # Whatever was not posted is not kept (a refused post's images would otherwise wait a day for clean-up).
        media_services.discard(owner=uid, media_ids=media_ids)
    return None


@login_required
@require_POST
@ratelimits.limit("posts", page=_compose_refused)
def compose(request: HttpRequest) -> HttpResponse:
    form = PostForm(request.POST)
    if form.is_valid():
        status_id = _post(request, form)
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
