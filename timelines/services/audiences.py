"""The audiences of the delivery pipeline (``services.delivery``, ``services.withdrawal``): who a status of an
author reaches, where it is written for each, and the one event each pass publishes of what it wrote to whom."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from timelines import events, keys, store
from timelines.services.publishing import publish

__all__ = ["AUDIENCES", "FOLLOWERS", "LISTS", "Audience", "Cursor", "announce", "audience_keys", "take_back"]

Cursor = tuple[float, str]


@dataclass(frozen=True, slots=True)
class Audience:
    """Who a status of an author reaches, and where it is written for each of them."""

    name: str
    targets: Callable[[int], str]  # author uid -> ZSET of targets (followers:{uid}, list:out:{uid})
    timeline: Callable[[int], str]  # target -> the timeline written (home:{uid}, list:statuses:{id})
    shows: Callable[[int], str]  # target -> the set of people whose posts it shows (following:{uid}, list:in:{id})


FOLLOWERS = Audience("followers", keys.followers, keys.home_timeline, keys.following)
LISTS = Audience("lists", keys.listed_in, keys.list_timeline, keys.list_members)
AUDIENCES: dict[str, Audience] = {audience.name: audience for audience in (FOLLOWERS, LISTS)}


def audience_keys(uid: int) -> list[str]:
    """The ZSETs of the targets of ``uid``'s statuses, one per audience, in ``AUDIENCES`` order."""
    return [chosen.targets(uid) for chosen in AUDIENCES.values()]


def announce(
    kind: str,
    audience: Audience,
    targets: Sequence[str],
    status: Mapping[str, Any] | None,
    *,
    own_home: int | None = None,
    announced: list[str] | None = None,
    pulled: bool = False,
) -> None:
    """Publish what a pass did (``kind``) to the timelines of ``targets`` of ``audience`` (and its author's
    home, ``own_home``): one event for the pass, after its writes (added to ``announced`` instead, when given,
    for the caller's own round trip)."""
    homes: Sequence[int | str] = targets if audience is FOLLOWERS else []
    if own_home is not None:
        homes = [own_home, *homes]
    lists = targets if audience is LISTS else []
    if not homes and not lists and not pulled:
        return
    followers_of = int(status["uid"]) if pulled and status is not None else None
    message = events.delivered(kind, homes=homes, lists=lists, status=status, followers_of=followers_of)
    if announced is not None:
        announced.append(message)
    else:
        publish(message)


def take_back(audience: Audience, targets: list[str], status_id: int, repost_of: int | None) -> list[str]:
    """Remove a status (or a repost) from the timelines of ``targets``; returns the targets that held it."""
    if repost_of:
        held = store.reposts.remove_repost(audience.name, targets, repost_of, status_id)
        return [target for target, was in zip(targets, held, strict=True) if was]
    held = store.fanout.remove_from_timelines([audience.timeline(int(target)) for target in targets], status_id)
    return [target for target, was in zip(targets, held, strict=True) if was]
