"""The moderators' actions on one account of another server: Suspend, Unsuspend, Limit, Unlimit, each with a
reason, through the same flags as a local account's (``timelines.services.moderation``), which the policy reads;
so a suspended remote account's posts disappear for everyone here and a limited one's reach only its followers.

The permissions are the local actions' (``accounts.suspend_account``, ``accounts.limit_account``), and each change
writes one audit entry on the remote account (Django's ``LogEntry``, "Suspended: <reason>"). An action on the flag
a domain block set makes it the moderators' own: lifting the block later leaves it.
"""

from __future__ import annotations

from django.contrib.admin.models import CHANGE, LogEntry

from accounts import audit, permissions
from accounts.exceptions import NOT_ALLOWED, UNKNOWN_ACCOUNT, ModerationError
from accounts.models import User
from accounts.moderation import clean_reason
from federation.models import RemoteActor
from timelines import exceptions
from timelines.services import moderation

_ACTIONS = {
    "suspend": (permissions.SUSPEND, moderation.suspend_user, audit.SUSPENDED, "suspended"),
    "unsuspend": (permissions.SUSPEND, moderation.unsuspend_user, audit.UNSUSPENDED, "suspended"),
    "limit": (permissions.LIMIT, moderation.limit_user, audit.LIMITED, "limited"),
    "unlimit": (permissions.LIMIT, moderation.unlimit_user, audit.UNLIMITED, "limited"),
}
ACTIONS = tuple(_ACTIONS)


def act(*, moderator: User, actor: RemoteActor, action: str, reason: str) -> bool:
    """Take ``action`` (one of ``ACTIONS``) on remote account ``actor`` for ``reason``; True if it changed
    anything (False writes no audit entry). Raises ``ModerationError``."""
    permission, service, message, flag = _ACTIONS[action]
    if not moderator.is_active or not moderator.has_perm(permission):
        raise ModerationError(NOT_ALLOWED)
    cleaned = clean_reason(reason)
    try:
        changed = service(uid=actor.uid)
    except exceptions.UnknownUser:
        raise ModerationError(UNKNOWN_ACCOUNT) from None
    if actor.domain_flag == flag:
        # The moderators decide this flag now: lifting the domain's block will not undo it.
        RemoteActor.objects.filter(pk=actor.pk).update(domain_flag="")
        actor.domain_flag = ""
    if changed:
        LogEntry.objects.log_actions(
            user_id=moderator.pk,
            queryset=[actor],
            action_flag=CHANGE,
            change_message=message.format(reason=cleaned),
            single_object=True,
        )
    return changed
