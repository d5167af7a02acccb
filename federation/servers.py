"""The other servers this one knows (read only): each with its accounts here, how they and the people here
follow one another, whether deliveries to it succeed, and its domain block. What the admin's **Federation**
page lists (``federation.admin.servers``).

A server is known when one of its accounts was recorded (``RemoteActor``) or when it is blocked. Its state
comes from the delivery retries (``federation.store``): ``available``, ``failing`` (deliveries fail since a
moment, retried), ``unavailable`` (every delivery failed for ``UNAVAILABLE_AFTER_SECONDS``: none is sent until
it is heard from again), or ``suspended`` by a block (nothing is sent).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import Count

from federation import keys, store
from federation.models import DomainBlock, RemoteActor
from federation.services import domain_blocks
from timelines import selectors

AVAILABLE, FAILING, UNAVAILABLE, SUSPENDED = "available", "failing", "unavailable", "suspended"
PAGE_SIZE = 50


@dataclass(frozen=True, slots=True)
class Server:
    domain: str
    accounts: int  # its accounts known here
    followed_here: int  # follows of its accounts by people here
    following_here: int  # follows of people here by its accounts
    state: str
    failures: int  # deliveries failed since the last success
    failing_since: datetime | None
    last_success: datetime | None
    block: DomainBlock | None


def _when(value: float | None) -> datetime | None:
    return datetime.fromtimestamp(value, UTC) if value is not None else None


def _state(block: DomainBlock | None, failing: float | None) -> str:
    if block is not None and block.severity == domain_blocks.SUSPEND:
        return SUSPENDED
    if failing is None:
        return AVAILABLE
    return UNAVAILABLE if failing <= time.time() - keys.UNAVAILABLE_AFTER_SECONDS else FAILING


def count_servers(*, query: str = "") -> int:
    return len(_domains(query))


def _domains(query: str) -> list[str]:
    known = set(RemoteActor.objects.values_list("domain", flat=True).distinct())
    known |= set(DomainBlock.objects.values_list("domain", flat=True))
    query = query.strip().lower()
    return sorted(domain for domain in known if query in domain)


def get_servers(*, query: str = "", page: int = 1) -> list[Server]:
    """The known servers whose domain contains ``query``, by domain, ``PAGE_SIZE`` a page. Cost: four SQL
    queries, one Redis round trip for the servers' states, one for the profiles of their accounts (their
    follow counts): O(accounts of the page's servers)."""
    domains = _domains(query)[(max(page, 1) - 1) * PAGE_SIZE : max(page, 1) * PAGE_SIZE]
    if not domains:
        return []
    known = RemoteActor.objects.filter(domain__in=domains)
    counts = dict(known.values("domain").annotate(n=Count("id")).values_list("domain", "n"))
    uids_by_domain: dict[str, list[int]] = {}
    for domain, uid in known.values_list("domain", "uid"):
        uids_by_domain.setdefault(domain, []).append(uid)
    every = [uid for uids in uids_by_domain.values() for uid in uids]
    profiles = {user.id: user for user in selectors.get_users(uids=every)}
    states = dict(zip(domains, store.server_states(domains), strict=True))
    blocks = domain_blocks.blocks_for(domains)
    servers = []
    for domain in domains:
        failing, failures, succeeded = states[domain]
        block = blocks.get(domain)
        people = [profiles[uid] for uid in uids_by_domain.get(domain, []) if uid in profiles]
        servers.append(
            Server(
                domain=domain,
                accounts=counts.get(domain, 0),
                followed_here=sum(person.followers for person in people),
                following_here=sum(person.following for person in people),
                state=_state(block, failing),
                failures=failures,
                failing_since=_when(failing),
                last_success=_when(succeeded),
                block=block,
            )
        )
    return servers
