"""Who may moderate: the moderators' permissions and the "Moderators" group that holds them.

Each action has its own permission on the ``User`` model (``accounts.suspend_account``, ...), checked by
``accounts.moderation`` for every caller (the admin, the ``moderate`` command); a superuser has them all. The
"Moderators" group can view accounts, reports and the audit log, take every action and manage other servers'
domain blocks, but cannot add, change or delete accounts in the admin. The data migration
``0004_moderators_group`` creates the group; ``manage.py setup_moderators`` puts it back as defined here and adds
people to it.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.db import transaction

from accounts.models import User

MODERATORS_GROUP = "Moderators"

SUSPEND = "accounts.suspend_account"
LIMIT = "accounts.limit_account"
REMOVE_POST = "accounts.remove_post"
DELETE_ACCOUNT = "accounts.delete_account"
RESOLVE_REPORT = "accounts.resolve_report"
ACTIONS = (SUSPEND, LIMIT, REMOVE_POST, DELETE_ACCOUNT, RESOLVE_REPORT)

# Other servers' blocks (federation's ``DomainBlock``, its migration 0002 grants them to the group).
DOMAIN_BLOCKS = (
    "federation.view_domainblock",
    "federation.add_domainblock",
    "federation.change_domainblock",
    "federation.delete_domainblock",
)

# Everything the group holds: view accounts, reports and the audit log, and act. Never add/change/delete_user.
MODERATOR_PERMISSIONS = (
    "accounts.view_user",
    "accounts.view_report",
    "admin.view_logentry",
    *ACTIONS,
    *DOMAIN_BLOCKS,
)


def _permission(dotted: str) -> Permission:
    app_label, codename = dotted.split(".", 1)
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)


@transaction.atomic
def setup_moderators_group() -> Group:
    """Create the "Moderators" group, or set its permissions back to exactly ``MODERATOR_PERMISSIONS``.
    Idempotent."""
    group, _ = Group.objects.get_or_create(name=MODERATORS_GROUP)
    group.permissions.set([_permission(dotted) for dotted in MODERATOR_PERMISSIONS])
    return group


def make_moderator(*, user: User) -> bool:
    """Put ``user`` in the "Moderators" group and make them staff (the admin lets staff in only). True if
    anything changed."""
    group = setup_moderators_group()
    changed = not user.groups.filter(pk=group.pk).exists() or not user.is_staff
    user.groups.add(group)
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    return changed
