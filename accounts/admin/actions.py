"""The reason step of the moderators' changelist actions (Accounts, Reports): choosing an action and Go shows
a page asking why; sending it applies the action to each selected row through ``accounts.moderation`` and
says what was done. An action that must be confirmed (Delete account) asks once more, showing what will go.

The page posts back to the changelist as Django's own "delete selected" confirmation does (``action`` and the
selected ids, no ``index``), so the admin's filters, permissions and selection stay in force.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from accounts.admin.forms import ReasonForm
from accounts.moderation import ModerationError

REASON_TEMPLATE = "admin/moderation/action_reason.html"


@dataclass(frozen=True, slots=True)
class Step:
    """What the reason page says for one action."""

    action: str  # the action's name in the changelist
    title: str  # "Suspend accounts"
    button: str  # "Suspend"
    done: str  # "Suspended {count} account(s)."
    label: str = "Reason"
    help_text: str | None = None
    confirm: str | None = None  # with it, a second page asks "Are you sure?" with this warning
    unchanged: str = "{count} already so, left as they were."


def reason_step(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet,
    step: Step,
    apply: Callable[[Model, str], bool | object],
    *,
    describe: Callable[[Model], str] = str,
) -> TemplateResponse | None:
    """Run one action: the reason page until a valid reason comes back (and the confirmation, if asked), then
    ``apply(obj, reason)`` to each object. ``apply`` returning False counts the object as unchanged; a
    ``ModerationError`` is shown with the object it concerns and the rest go on. None: back to the list."""
    sent = request.method == "POST" and ("apply" in request.POST or "confirm" in request.POST)
    form = ReasonForm(request.POST if sent else None, label=step.label, help_text=step.help_text)
    objects = list(queryset)
    if not form.is_valid():
        return _page(model_admin, request, step, form, objects, describe, confirming=False)
    if step.confirm and "confirm" not in request.POST:
        return _page(model_admin, request, step, form, objects, describe, confirming=True)
    reason = form.cleaned_data["reason"]
    changed = unchanged = 0
    for obj in objects:
        try:
            result = apply(obj, reason)
        except ModerationError as error:
            model_admin.message_user(request, f"{describe(obj)}: {error.message}", messages.ERROR)
            continue
        if result is False:
            unchanged += 1
        else:
            changed += 1
    if changed:
        model_admin.message_user(request, step.done.format(count=changed), messages.SUCCESS)
    if unchanged:
        model_admin.message_user(request, step.unchanged.format(count=unchanged), messages.WARNING)
    return None


def _page(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    step: Step,
    form: ReasonForm,
    objects: Iterable[Model],
    describe: Callable[[Model], str],
    *,
    confirming: bool,
) -> TemplateResponse:
    opts = model_admin.model._meta
    context = {
        **model_admin.admin_site.each_context(request),
        "title": step.title,
        "opts": opts,
        "step": step,
        "form": form,
        "objects": [(obj.pk, describe(obj)) for obj in objects],
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "confirming": confirming,
        "reason": form.cleaned_data["reason"] if confirming else "",
    }
    return TemplateResponse(request, REASON_TEMPLATE, context)
