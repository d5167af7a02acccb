"""Domain blocks: the moderators' decisions about whole servers (Mastodon's), applied at once and audited.

A block covers a domain and its subdomains (``example.com`` covers ``social.example.com``). Its severity:

- ``suspend``: nothing in, nothing out. The inboxes refuse the server's signed activities (403, nothing
  queued, ``federation.views.inbox``), a job queued before the block drops its activity, no document of the
  server is fetched (``federation.services.actors``), no delivery goes to it (``federation.services.outbound``),
  and each of its accounts here is suspended (``timelines.services.moderation``), so the per-recipient policy
  hides everything of theirs from everyone. Every follow between them and people here is removed, both ways,
  and each person who lost some is told how many (``federation.services.severance``, a job; as Mastodon 4.3).
  Lifting the block restores none.
- ``silence``: each of its accounts here is limited: their posts reach only the people here who follow them, and
  stay out of search, tag timelines and the public streams, as the policy does for any limited account.
- ``noop``: neither; with ``reject_media`` alone.

``reject_media`` (with any severity): none of the server's pictures is shown here: none is fetched from then on,
and a job deletes what was cached; lifting it brings them back (``remote_profiles.apply_media_policy``).

The accounts of the server are flagged when the block is made (and accounts found later when they are first
recorded, ``apply_to_actor``); each remembers the flag the block set (``RemoteActor.domain_flag``), so lifting
the block lifts exactly that. The flags are what the policy reads: no rule of visibility lives here. Each change
writes one audit entry (Django's ``LogEntry``, the admin's audit log) with the moderator and the reason.
"""

from __future__ import annotations

import contextlib

from django.contrib.admin.models import ADDITION, CHANGE, DELETION, LogEntry
from django.db import transaction
from django.db.models import Q

from accounts.exceptions import NOT_ALLOWED, ModerationError
from accounts.models import User
from accounts.moderation import clean_reason
from federation import queue
from federation.models import DomainBlock, RelationshipSeveranceEvent, RemoteActor
from timelines import exceptions
from timelines.services import moderation

SUSPEND = DomainBlock.Severity.SUSPEND.value
SILENCE = DomainBlock.Severity.SILENCE.value
NOOP = DomainBlock.Severity.NOOP.value
SEVERITIES = (SUSPEND, SILENCE, NOOP)

SUSPENDED, LIMITED = "suspended", "limited"
_FLAG = {SUSPEND: SUSPENDED, SILENCE: LIMITED, NOOP: ""}

INVALID_DOMAIN = "Give a domain name, such as social.example."
INVALID_SEVERITY = "Choose suspend, silence or none."

ADDED = "Blocked domain {domain} ({severity}{media}): {reason}"
CHANGED = "Changed the block of {domain} to {severity}{media}: {reason}"
LIFTED = "Lifted the block of {domain}: {reason}"


def clean_domain(domain: object) -> str:
    """``domain`` as blocks keep it: lower case, no scheme, path or leading ``@``/dots; a port is kept (servers
    on loopback in tests have one). Raises ``ModerationError`` (``INVALID_DOMAIN``)."""
    if not isinstance(domain, str):
        raise ModerationError(INVALID_DOMAIN)
    cleaned = domain.strip().lower().removeprefix("https://").removeprefix("http://").lstrip("@.")
    cleaned = cleaned.split("/", 1)[0].rstrip(".")
    host = cleaned.rsplit(":", 1)[0] if cleaned.count(":") == 1 else cleaned
    if not host or len(cleaned) > 253 or not all(part.replace("-", "").isalnum() for part in host.split(".")):
        raise ModerationError(INVALID_DOMAIN)
    return cleaned


def _candidates(domain: str) -> list[str]:
    """``domain`` and each domain above it (``a.b.example`` -> itself, ``b.example``, ``example``); a host with
    a port is also covered by the host's own block (``127.0.0.1:8001`` by ``127.0.0.1``)."""
    domain = domain.lower()
    host = domain.partition(":")[0]
    names = [domain] + ([host] if host != domain else [])
    parts = host.split(".")
    if not host.replace(".", "").isdigit():  # an IP address has no parent domain
        names += [".".join(parts[index:]) for index in range(1, len(parts))]
    return names


def block_for(domain: str) -> DomainBlock | None:
    """The block covering ``domain`` (its own, else the nearest parent domain's), or None. One SQL query."""
    candidates = _candidates(domain)
    found = {block.domain: block for block in DomainBlock.objects.filter(domain__in=candidates)}
    return next((found[candidate] for candidate in candidates if candidate in found), None)


def blocks_for(domains: list[str]) -> dict[str, DomainBlock]:
    """The block covering each of ``domains`` that has one (``block_for``), in one SQL query."""
    candidates = {domain: _candidates(domain) for domain in domains}
    every = {name for names in candidates.values() for name in names}
    found = {block.domain: block for block in DomainBlock.objects.filter(domain__in=every)}
    covering = {}
    for domain, names in candidates.items():
        block = next((found[name] for name in names if name in found), None)
        if block is not None:
            covering[domain] = block
    return covering


def is_suspended(domain: str) -> bool:
    """Whether ``domain`` is under a suspending block: nothing goes to it or comes from it."""
    block = block_for(domain)
    return block is not None and block.severity == SUSPEND


def rejects_media(domain: str) -> bool:
    """Whether ``domain``'s pictures are not to be shown here."""
    block = block_for(domain)
    return block is not None and block.reject_media


def suspended_domains(domains: list[str]) -> set[str]:
    """Which of ``domains`` are under a suspending block. One SQL query whatever their number."""
    candidates = {domain: _candidates(domain) for domain in domains}
    every = {name for names in candidates.values() for name in names}
    blocked = set(DomainBlock.objects.filter(domain__in=every, severity=SUSPEND).values_list("domain", flat=True))
    return {domain for domain, names in candidates.items() if blocked.intersection(names)}


def _set_flag(uid: int, flag: str, on: bool) -> None:
    service = {
        (SUSPENDED, True): moderation.suspend_user,
        (SUSPENDED, False): moderation.unsuspend_user,
        (LIMITED, True): moderation.limit_user,
        (LIMITED, False): moderation.unlimit_user,
    }[(flag, on)]
    with contextlib.suppress(exceptions.UnknownUser):  # its profile is gone: nothing to flag
        service(uid=uid)


def _flag_actor(actor: RemoteActor, flag: str) -> None:
    """Make ``flag`` (or none) the one a domain block set on ``actor``: lift the old one, set the new."""
    if actor.domain_flag == flag:
        return
    if actor.domain_flag:
        _set_flag(actor.uid, actor.domain_flag, False)
    if flag:
        _set_flag(actor.uid, flag, True)
    RemoteActor.objects.filter(pk=actor.pk).update(domain_flag=flag)
    actor.domain_flag = flag


def actors_of(domain: str):
    """The remote accounts of ``domain``, its subdomains and, for a bare host, its ports."""
    return RemoteActor.objects.filter(
        Q(domain=domain) | Q(domain__endswith=f".{domain}") | Q(domain__startswith=f"{domain}:")
    )


def _apply(domain: str) -> int:
    """Flag every account of ``domain`` (and its subdomains) as the block now covering each says. Returns how
    many changed. O(accounts of the domain): one flag write and one event each."""
    changed = 0
    for actor in actors_of(domain).iterator():
        block = block_for(actor.domain)
        flag = _FLAG[block.severity] if block is not None else ""
        if actor.domain_flag != flag:
            _flag_actor(actor, flag)
            changed += 1
    return changed


def apply_to_actor(actor: RemoteActor) -> None:
    """Flag a newly recorded remote account as the block of its domain says (nothing without a block)."""
    block = block_for(actor.domain)
    flag = _FLAG[block.severity] if block is not None else ""
    if flag != actor.domain_flag:
        _flag_actor(actor, flag)


def _require(moderator: User, permission: str) -> None:
    if not moderator.is_active or not moderator.has_perm(permission):
        raise ModerationError(NOT_ALLOWED)


def _log(moderator: User, block: DomainBlock, flag: int, message: str) -> None:
    LogEntry.objects.log_actions(
        user_id=moderator.pk, queryset=[block], action_flag=flag, change_message=message, single_object=True
    )


def _media(reject_media: bool) -> str:
    return ", media rejected" if reject_media else ""


def block_domain(
    *, moderator: User, domain: str, severity: str, reject_media: bool = False, reason: str
) -> DomainBlock:
    """Block ``domain`` (or change its block) for ``reason`` and apply it at once to its accounts here. Returns
    the block. Requires ``federation.add_domainblock`` (``change_domainblock`` to change one). Raises
    ``ModerationError``; a call that changes nothing writes no audit entry."""
    cleaned_domain = clean_domain(domain)
    cleaned_reason = clean_reason(reason)
    if severity not in SEVERITIES:
        raise ModerationError(INVALID_SEVERITY)
    existing = DomainBlock.objects.filter(domain=cleaned_domain).first()
    _require(moderator, "federation.change_domainblock" if existing else "federation.add_domainblock")
    was_rejecting = bool(existing and existing.reject_media)
    was_suspending = bool(existing and existing.severity == SUSPEND)
    with transaction.atomic():
        block, created = DomainBlock.objects.select_for_update().get_or_create(
            domain=cleaned_domain,
            defaults={"severity": severity, "reject_media": reject_media, "reason": cleaned_reason},
        )
        if not created and (block.severity, block.reject_media, block.reason) == (
            severity,
            reject_media,
            cleaned_reason,
        ):
            return block
        if not created:
            block.severity, block.reject_media, block.reason = severity, reject_media, cleaned_reason
            block.save(update_fields=["severity", "reject_media", "reason", "updated"])
        template = ADDED if created else CHANGED
        message = template.format(
            domain=cleaned_domain, severity=severity, media=_media(reject_media), reason=cleaned_reason
        )
        _log(moderator, block, ADDITION if created else CHANGE, message)
    _apply(cleaned_domain)
    if reject_media != was_rejecting:
        # What was cached of its pictures goes, or comes back, in a job (O(accounts of the domain)).
        queue.enqueue_media_policy(domain=cleaned_domain)
    if severity == SUSPEND and not was_suspending:
        # The follows with its accounts go, both ways, in a job (O(their follows here)); lifting restores none.
        event = RelationshipSeveranceEvent.objects.create(target_name=cleaned_domain)
        queue.enqueue_severance(event_id=event.pk)
    return block


def unblock_domain(*, moderator: User, domain: str, reason: str) -> bool:
    """Lift the block of ``domain`` for ``reason``: its accounts get back as they were before it (a block of a
    parent domain, if any, then applies). True if there was one. Requires ``federation.delete_domainblock``."""
    _require(moderator, "federation.delete_domainblock")
    cleaned_domain = clean_domain(domain)
    cleaned_reason = clean_reason(reason)
    with transaction.atomic():
        block = DomainBlock.objects.select_for_update().filter(domain=cleaned_domain).first()
        if block is None:
            return False
        _log(moderator, block, DELETION, LIFTED.format(domain=cleaned_domain, reason=cleaned_reason))
        block.delete()
    _apply(cleaned_domain)
    if block.reject_media:
        queue.enqueue_media_policy(domain=cleaned_domain)
    return True
