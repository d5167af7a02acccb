"""What the post box and the reply box share: their images (files with their descriptions, stored all or
none) and the post itself, with every refusal turned into a form error and no image left stored."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest

from media import limits as media_limits
from media import services as media_services
from media.processing import InvalidImage
from timelines import exceptions, services
from timelines.services import media_jobs

# What ``post_with_images`` returns for a post that waits for its images' processing (no status id yet).
WAITING = 0
WAITING_MESSAGE = "Your post will appear as soon as its images are processed."


def images_of(request: HttpRequest) -> list[tuple[bytes, str]]:
    """The box's files with their descriptions (``description-N`` goes with the Nth file), checked for count and
    size before any is read. Raises ``InvalidMedia`` or ``InvalidImage``."""
    files = request.FILES.getlist("images")
    if len(files) > media_limits.MAX_PER_POST:
        raise media_services.InvalidMedia(f"A post may carry at most {media_limits.MAX_PER_POST} images.")
    items = []
    for number, upload in enumerate(files, start=1):
        if upload.size > media_limits.max_upload_bytes():
            raise InvalidImage(media_limits.too_large_message())
        items.append((upload.read(), request.POST.get(f"description-{number}", "")))
    return items


def post_with_images(request: HttpRequest, form: forms.Form, **post: Any) -> int | None:
    """Store the box's images and post (``services.post_status`` with ``post``); None with the form's errors set
    when something was refused, in which case no image is left stored. ``StatusNotFound`` (the post a reply
    answers is gone or hidden) is the caller's to answer. ``WAITING`` when an image is large: it is checked now and
    processed by a job, and the post is published once its images are ready (``services.media_jobs``)."""
    uid = request.user.uid
    try:
        uploaded = media_services.upload_many(owner=uid, items=images_of(request), defer=True)
    except (InvalidImage, media_services.InvalidMedia) as error:
        form.add_error(None, error.message)
        return None
    media_ids = [picture.pk for picture in uploaded]
    if any(not picture.ready for picture in uploaded):
        fields = {
            "message": form.cleaned_data["message"],
            "visibility": form.cleaned_data["visibility"] or None,
            "sensitive": form.cleaned_data["sensitive"],
            **post,
        }
        kept = False
        try:
            media_jobs.post_when_ready(uid=uid, media_ids=media_ids, fields=fields)
            kept = True
        except (exceptions.InvalidMessage, exceptions.InvalidStatusData) as error:
            form.add_error("message", error.message)
        except exceptions.InvalidVisibility as error:
            form.add_error("visibility", error.message)
        finally:
            if not kept:
                media_services.discard(owner=uid, media_ids=media_ids)
        return WAITING if kept else None
    try:
        return services.post_status(
            uid=uid,
            message=form.cleaned_data["message"],
            visibility=form.cleaned_data["visibility"] or None,
            media_ids=media_ids,
            sensitive=form.cleaned_data["sensitive"],
            **post,
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
