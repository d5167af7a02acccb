"""Direct messages' pages: ``/messages`` (the viewer's conversations), ``/messages/<id>`` (one conversation, newest
first, with its box "Your message" and Send), ``/messages/<id>/read`` (marking it read) and ``/@login/message``
(a profile's Message button: a new conversation with that person).

Opening a conversation marks it read the way the notifications page does: the GET writes nothing, the page asks
for ``POST /messages/<id>/read`` as it loads (htmx), and without JavaScript sending a message there reads it too.
A conversation someone is not part of answers 404, as one that does not exist. Sending counts against the posts
rate limit.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from socialsite import ratelimits
from timelines import exceptions, limits, selectors, services
from timelines.forms import MessageForm
from timelines.views.params import query_float, user_or_404, wants_fragment


@login_required
@require_safe
def inbox(request: HttpRequest) -> HttpResponse:
    before = query_float(request, "before")
    found = selectors.get_conversations(uid=request.user.uid, before=before)
    context = {
        "conversations": found,
        "next_before": found[-1].time if len(found) >= selectors.direct_messages.PAGE_SIZE else None,
    }
    return render(request, "timelines/messages.html", context)


def _conversation_or_404(request: HttpRequest, conversation_id: int) -> selectors.Conversation:
    try:
        return selectors.get_conversation(
            uid=request.user.uid, conversation_id=conversation_id, before=query_float(request, "before")
        )
    except exceptions.ConversationNotFound:
        raise Http404(exceptions.CONVERSATION_NOT_FOUND) from None


def _refused(request: HttpRequest, message: str, conversation_id: int) -> HttpResponse:
    """The rate limit's answer: the conversation, the box keeping its text, and why."""
    form = MessageForm(request.POST)
    form.is_valid()
    form.add_error("message", message)
    return _render_conversation(request, _conversation_or_404(request, conversation_id), form, status=429)


def _render_conversation(
    request: HttpRequest, conversation: selectors.Conversation, form: MessageForm, status: int = 200
) -> HttpResponse:
    context = {
        "conversation": conversation,
        "form": form,
        "max_message_length": limits.MAX_MESSAGE_LENGTH,
        "live_url": f"/{settings.LIVE_ME_PATH}?conversation={conversation.id}",
    }
    return render(request, "timelines/conversation.html", context, status=status)


def _send(request: HttpRequest, form: MessageForm, **target: object) -> int | None:
    """Send the form's message; the conversation it went to, or None with the form's error set."""
    if not form.is_valid():
        return None
    try:
        _, conversation_id = services.send_message(
            uid=request.user.uid,
            message=form.cleaned_data["message"],
            **target,  # type: ignore[arg-type]
        )
    except (exceptions.InvalidMessage, exceptions.InvalidStatusData, exceptions.InvalidVisibility) as error:
        form.add_error("message", error.message)
    except (exceptions.CannotMessage, exceptions.TooManyRecipients, exceptions.UnknownUser) as error:
        # UnknownUser: the person was erased meanwhile.
        form.add_error("message", error.message)
    except exceptions.StatusNotFound:
        form.add_error("message", exceptions.STATUS_NOT_FOUND)  # deleted at once, from another page
    else:
        return conversation_id
    return None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit("posts", page=_refused)
def conversation(request: HttpRequest, conversation_id: int) -> HttpResponse:
    found = _conversation_or_404(request, conversation_id)
    if request.method != "POST":
        return _render_conversation(request, found, MessageForm())
    form = MessageForm(request.POST)
    sent = _send(request, form, conversation_id=conversation_id)
    if sent is None:
        return _render_conversation(request, found, form, status=400)
    # Sending reads the conversation (the delivery takes it out of the sender's unread ones).
    messages.success(request, "Message sent.")
    return redirect("timelines:conversation", conversation_id=sent)


@login_required
@require_POST
def mark_read(request: HttpRequest, conversation_id: int) -> HttpResponse:
    try:
        services.mark_conversation_read(uid=request.user.uid, conversation_id=conversation_id)
    except exceptions.ConversationNotFound:
        raise Http404(exceptions.CONVERSATION_NOT_FOUND) from None
    if wants_fragment(request):
        unread = selectors.get_unread_conversations(uid=request.user.uid)
        return render(request, "timelines/_messages_link.html", {"unread_conversations": unread})
    return redirect("timelines:conversation", conversation_id=conversation_id)


def _refused_new(request: HttpRequest, message: str, login: str) -> HttpResponse:
    form = MessageForm(request.POST)
    form.is_valid()
    form.add_error("message", message)
    context = {"form": form, "person": user_or_404(login), "max_message_length": limits.MAX_MESSAGE_LENGTH}
    return render(request, "timelines/message_new.html", context, status=429)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit("posts", page=_refused_new)
def new(request: HttpRequest, login: str) -> HttpResponse:
    """A profile's Message button: the box for a message to that person. Sending opens (or continues) the
    conversation of the two of them."""
    person = user_or_404(login)
    if person.id == request.user.uid:
        return redirect(reverse("timelines:messages"))
    form = MessageForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        sent = _send(request, form, to=(person.id,))
        if sent is not None:
            messages.success(request, "Message sent.")
            return redirect("timelines:conversation", conversation_id=sent)
        status = 400
    context = {"form": form, "person": person, "max_message_length": limits.MAX_MESSAGE_LENGTH}
    return render(request, "timelines/message_new.html", context, status=status)
