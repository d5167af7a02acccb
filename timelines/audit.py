"""Consistency checks of the social graph in Redis, and their repairs (``manage.py audit_timelines``).

Every cross-slot change of the site is a sequence of idempotent single-slot steps, so a crash or a hand edit
can leave one of a few well-defined kinds of damage. Each check below finds one kind and knows which side is
the truth, because the services always write that side first:

- ``following:{uid}`` over ``followers:{uid}`` (follow and unfollow change following first), and
  ``list:in:{id}`` over ``list:out:{uid}`` (list adds and removals change the list first);
- ``list:{id}`` over ``lists:{uid}`` (a list's hash names its owner; ids never move between owners);
- a deleted list's leftovers (``list:in:{id}``, ``list:statuses:{id}``) are finished off as its deletion would;
- timelines are trimmed to ``HOME_TIMELINE_SIZE``, and ids whose status hash is gone ("zombies") are removed;
- a home or list timeline dropped while its owner is away (``services.idle``: the owner's hash holds ``idle``) is
  missing on purpose and must stay empty (a fan-out racing the drop on a cluster can leave a few entries, which
  are deleted); the count of dropped homes the dashboard shows is set from the marks;
- direct messages (``audit_messages``): in no feed or index, each in its conversation, conversations and unread
  marks without leftovers;
- edited statuses: each one's ``edits`` counter equal to the length of its ``status:versions:{id}`` (the list is
  the truth: it holds the versions kept; at most ``MAX_STATUS_VERSIONS`` - 1), and no versions left of a status
  that is gone;
- every counter is set from the size of the set it counts, last, once the sets are repaired.

Without ``fix`` nothing is written. Only ``store`` is used, and each repair is one of the single-slot steps
the services themselves use. Cost: O(users + lists + follow edges + timeline entries), pipelined in chunks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from timelines import audit_messages, keys, limits, store

CHUNK = 200
MAX_EXAMPLES = 5

T = TypeVar("T")

# Counter field in user:{uid} -> the set it counts.
USER_COUNTERS: dict[str, Callable[[int], str]] = {
    "followers": keys.followers,
    "following": keys.following,
    "posts": keys.profile_timeline,
    "lists": keys.lists_of,
    "listed": keys.listed_in,
}


@dataclass
class Finding:
    """The outcome of one check: how many things it looked at, how many were wrong, how many it repaired."""

    name: str
    checked: int = 0
    problems: int = 0
    fixed: int = 0
    examples: list[str] = field(default_factory=list)

    def problem(self, example: str) -> None:
        self.problems += 1
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(example)


@dataclass
class Report:
    fix: bool
    findings: list[Finding]

    @property
    def problems(self) -> int:
        return sum(finding.problems for finding in self.findings)


def _chunks(ids: Sequence[T]) -> Iterator[Sequence[T]]:
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


def _existing(counter: str, owner_key: Callable[[int], str]) -> list[int]:
    """Ids from 1 to the counter's last value whose hash exists (ids are never reused)."""
    ids = list(range(1, store.users.last_id(counter) + 1))
    found: list[int] = []
    for chunk in _chunks(ids):
        found.extend(
            i for i, exists in zip(chunk, store.graph.keys_exist([owner_key(i) for i in chunk]), strict=True) if exists
        )
    return found


class _StatusCache:
    """Whether status hashes exist, asked of Redis once per id for the whole audit."""

    def __init__(self) -> None:
        self._known: dict[int, bool] = {}

    def missing(self, ids: Sequence[int]) -> list[int]:
        unknown = [status_id for status_id in dict.fromkeys(ids) if status_id not in self._known]
        for chunk in _chunks(unknown):
            self._known.update(zip(chunk, store.statuses.statuses_exist(chunk), strict=True))
        return [status_id for status_id in ids if not self._known[status_id]]


def audit(*, fix: bool = False, on_progress: Callable[[str], object] | None = None) -> Report:
    """Run every check; with ``fix``, repair what they find. Returns the report (see ``Finding``)."""

    def progress(stage: str) -> None:
        if on_progress is not None:
            on_progress(stage)

    uids = _existing(keys.USER_ID_COUNTER, keys.user)
    progress("users")
    list_ids = list(range(1, store.users.last_id(keys.LIST_ID_COUNTER) + 1))
    live_lists = _existing(keys.LIST_ID_COUNTER, keys.user_list)
    findings = [
        _deleted_list_leftovers(list_ids, set(live_lists), fix),
        _list_ownership(uids, live_lists, fix),
        _follow_symmetry(uids, fix),
        _list_symmetry(uids, live_lists, fix),
    ]
    progress("graph")
    statuses = _StatusCache()
    findings.append(_timeline_sizes(uids, live_lists, fix))
    findings.append(_zombies(uids, live_lists, statuses, fix))
    findings.append(_idle_timelines(uids, live_lists, fix))
    progress("timelines")
    findings.extend(_direct_messages(uids, live_lists, statuses, fix))
    progress("messages")
    findings.append(_status_versions(fix))
    progress("edits")
    findings.append(_counters(uids, live_lists, fix))
    progress("counters")
    return Report(fix=fix, findings=findings)


def _deleted_list_leftovers(list_ids: list[int], live: set[int], fix: bool) -> Finding:
    """Member sets and timelines of lists whose hash is gone: a deletion that stopped before forgetting the
    list in its members' list:out:{uid}."""
    finding = Finding("deleted-list leftovers")
    dead = [list_id for list_id in list_ids if list_id not in live]
    finding.checked = len(dead)
    for chunk in _chunks(dead):
        members_exist = store.graph.keys_exist([keys.list_members(list_id) for list_id in chunk])
        timelines_exist = store.graph.keys_exist([keys.list_timeline(list_id) for list_id in chunk])
        for list_id, has_members, has_timeline in zip(chunk, members_exist, timelines_exist, strict=True):
            if not (has_members or has_timeline):
                continue
            finding.problem(f"list {list_id} is deleted but its members or timeline remain")
            if fix:
                members = [uid for uid, _ in store.graph.set_entries(keys.list_members(list_id))]
                store.graph.graph_remove_many(
                    [(keys.listed_in(uid), keys.user(uid)) for uid in members], list_id, "listed"
                )
                store.graph.delete_keys(keys.list_members(list_id), keys.list_timeline(list_id))
                finding.fixed += 1
    return finding


def _list_ownership(uids: list[int], live_lists: list[int], fix: bool) -> Finding:
    """Each list in its owner's lists:{uid}, and nothing else there."""
    finding = Finding("list ownership")
    owners: dict[int, int] = {}
    for chunk in _chunks(live_lists):
        for list_id, fields in zip(chunk, store.lists.get_lists(chunk), strict=True):
            if fields:
                owners[list_id] = int(fields["uid"])
    indexed: dict[int, dict[int, float]] = {uid: dict(store.graph.set_entries(keys.lists_of(uid))) for uid in uids}
    for uid, entries in indexed.items():
        for list_id in entries:
            finding.checked += 1
            if owners.get(list_id) != uid:
                finding.problem(f"{keys.lists_of(uid)} holds list {list_id}, which it does not own")
                if fix:
                    store.graph.graph_remove(keys.lists_of(uid), keys.user(uid), list_id, "lists")
                    finding.fixed += 1
    for list_id, owner in owners.items():
        finding.checked += 1
        if list_id not in indexed.get(owner, {}):
            finding.problem(f"list {list_id} is missing from {keys.lists_of(owner)}")
            if fix:
                created = float(store.lists.get_list(list_id).get("created") or 0)
                store.graph.graph_add(keys.lists_of(owner), keys.user(owner), list_id, created, "lists")
                finding.fixed += 1
    return finding


def _follow_symmetry(uids: list[int], fix: bool) -> Finding:
    """Every follow recorded on both sides; following:{uid} is the truth."""
    finding = Finding("follower/following symmetry")
    for uid in uids:
        following = store.graph.set_entries(keys.following(uid))
        for (other, score), mirrored in zip(
            following, _mirrored(keys.followers, [other for other, _ in following], uid), strict=True
        ):
            finding.checked += 1
            if not mirrored:
                finding.problem(f"{uid} follows {other} but is missing from {keys.followers(other)}")
                if fix:
                    store.graph.graph_add(keys.followers(other), keys.user(other), uid, score, "followers")
                    finding.fixed += 1
        followers = [other for other, _ in store.graph.set_entries(keys.followers(uid))]
        for other, mirrored in zip(followers, _mirrored(keys.following, followers, uid), strict=True):
            finding.checked += 1
            if not mirrored:
                finding.problem(f"{keys.followers(uid)} holds {other}, who does not follow {uid}")
                if fix:
                    store.graph.graph_remove(keys.followers(uid), keys.user(uid), other, "followers")
                    finding.fixed += 1
    return finding


def _mirrored(key: Callable[[int], str], others: list[int], uid: int) -> list[bool]:
    """For each of ``others``, whether ``uid`` is in ``key(other)``. One round trip per chunk."""
    found: list[bool] = []
    for chunk in _chunks(others):
        found.extend(store.graph.member_in_each([key(other) for other in chunk], uid))
    return found


def _list_symmetry(uids: list[int], live_lists: list[int], fix: bool) -> Finding:
    """Every list membership recorded on both sides; list:in:{id} is the truth."""
    finding = Finding("list member symmetry")
    for list_id in live_lists:
        members = store.graph.set_entries(keys.list_members(list_id))
        for (member, score), mirrored in zip(
            members, _mirrored(keys.listed_in, [member for member, _ in members], list_id), strict=True
        ):
            finding.checked += 1
            if not mirrored:
                finding.problem(f"list {list_id} holds {member}, whose list:out is missing it")
                if fix:
                    store.graph.graph_add(keys.listed_in(member), keys.user(member), list_id, score, "listed")
                    finding.fixed += 1
    for uid in uids:
        listed = [list_id for list_id, _ in store.graph.set_entries(keys.listed_in(uid))]
        for list_id, mirrored in zip(listed, _mirrored(keys.list_members, listed, uid), strict=True):
            finding.checked += 1
            if not mirrored:
                finding.problem(f"{keys.listed_in(uid)} holds list {list_id}, which does not have {uid}")
                if fix:
                    store.graph.graph_remove(keys.listed_in(uid), keys.user(uid), list_id, "listed")
                    finding.fixed += 1
    return finding


def _timelines(uids: list[int], live_lists: list[int]) -> list[str]:
    return [keys.home_timeline(uid) for uid in uids] + [keys.list_timeline(list_id) for list_id in live_lists]


def _timeline_sizes(uids: list[int], live_lists: list[int], fix: bool) -> Finding:
    """Home and list timelines at most ``HOME_TIMELINE_SIZE`` long."""
    finding = Finding("timeline sizes")
    timelines = _timelines(uids, live_lists)
    for chunk in _chunks(timelines):
        for key, size in zip(chunk, store.graph.set_sizes(chunk), strict=True):
            finding.checked += 1
            if size > limits.HOME_TIMELINE_SIZE:
                finding.problem(f"{key} holds {size} statuses")
                if fix:
                    store.timelines.trim_timeline(key, limits.HOME_TIMELINE_SIZE)
                    finding.fixed += 1
    return finding


def _zombies(uids: list[int], live_lists: list[int], statuses: _StatusCache, fix: bool) -> Finding:
    """Ids of deleted statuses left in home, list or profile timelines (the book leaves them behind), or among an
    account's pulled posts (hybrid fan-out)."""
    finding = Finding("zombie ids")
    timelines = _timelines(uids, live_lists) + [keys.profile_timeline(uid) for uid in uids]
    timelines += [keys.pulled_posts(uid) for uid in uids]
    for key in timelines:
        ids = store.timelines.timeline_ids(key)
        finding.checked += len(ids)
        zombies = statuses.missing(ids)
        for status_id in zombies:
            finding.problem(f"{key} holds deleted status {status_id}")
        if fix and zombies:
            store.timelines.remove_from_timeline(key, zombies)
            finding.fixed += len(zombies)
    return finding


def _idle_timelines(uids: list[int], live_lists: list[int], fix: bool) -> Finding:
    """Idle-dropped homes and list timelines empty, and the dropped homes' count equal to their marks."""
    finding = Finding("idle-dropped timelines")
    # (owner, timeline, whether it is a home): the owner's hash holds the mark of a dropped timeline.
    owners = [(keys.user(uid), keys.home_timeline(uid), True) for uid in uids]
    owners += [(keys.user_list(list_id), keys.list_timeline(list_id), False) for list_id in live_lists]
    homes = 0
    for chunk in _chunks(owners):
        dropped = store.idle.dropped_among([owner for owner, _, _ in chunk])
        held = store.graph.set_sizes([timeline for _, timeline, _ in chunk])
        for (_, timeline, is_home), is_dropped, size in zip(chunk, dropped, held, strict=True):
            if not is_dropped:
                continue
            finding.checked += 1
            homes += is_home
            if size:
                finding.problem(f"{timeline} was dropped while its owner is away but holds {size} statuses")
                if fix:
                    store.graph.delete_keys(timeline)
                    finding.fixed += 1
    counted = store.idle.dropped_count()
    if counted != homes:
        finding.problem(f"{keys.IDLE_HOMES_COUNTER} is {counted}, {homes} homes are marked idle")
        if fix:
            store.idle.set_dropped_count(homes)
            finding.fixed += 1
    return finding


def _direct_messages(uids: list[int], live_lists: list[int], statuses: _StatusCache, fix: bool) -> list[Finding]:
    """The checks of ``audit_messages``: direct messages out of every feed and index, each in its
    conversation, conversations without deleted messages, unread marks on listed conversations."""
    messages = audit_messages.direct_messages(last_status_id=store.users.last_ids()[0])
    feeds, conversations = Finding("direct messages out of feeds"), Finding("direct messages in conversations")
    zombies, marks = Finding("conversation zombies"), Finding("conversation lists and unread marks")
    timelines = _timelines(uids, live_lists) + [keys.profile_timeline(uid) for uid in uids]
    audit_messages.out_of_feeds(feeds, messages, timelines, fix)
    audit_messages.in_conversations(conversations, messages, fix)
    audit_messages.conversation_zombies(zombies, statuses.missing, fix)
    audit_messages.unread_marks(marks, uids, fix)
    return [feeds, conversations, zombies, marks]


def _status_versions(fix: bool) -> Finding:
    """Each status's ``edits`` counter equal to the number of earlier versions its list keeps (within the cap),
    and no versions list left of a deleted status."""
    finding = Finding("status versions")
    ids = list(range(1, store.users.last_ids()[0] + 1))
    for chunk in _chunks(ids):
        for status_id, (edits, kept, exists) in zip(chunk, store.edits.version_counts(chunk), strict=True):
            if not exists and not kept:
                continue
            finding.checked += 1
            if not exists:
                finding.problem(f"{keys.status_versions(status_id)} holds {kept} versions of a deleted status")
            elif edits != kept or kept > limits.MAX_STATUS_VERSIONS - 1:
                finding.problem(f"{keys.status(status_id)} edits is {edits}, its versions list holds {kept}")
            else:
                continue
            if fix:
                store.edits.repair_versions(status_id)
                finding.fixed += 1
    return finding


def _counters(uids: list[int], live_lists: list[int], fix: bool) -> Finding:
    """Every counter equal to the size of the set it counts."""
    finding = Finding("counters")
    for chunk in _chunks(uids):
        for uid, fields in zip(chunk, store.users.get_users(chunk), strict=True):
            if not fields:
                continue
            names = list(USER_COUNTERS)
            sizes = store.graph.set_sizes([USER_COUNTERS[name](uid) for name in names])
            for name, size in zip(names, sizes, strict=True):
                finding.checked += 1
                if int(fields.get(name, 0)) != size:
                    finding.problem(f"{keys.user(uid)} {name} is {fields.get(name, 0)}, the set holds {size}")
                    if fix:
                        store.graph.recount(USER_COUNTERS[name](uid), keys.user(uid), name)
                        finding.fixed += 1
    for chunk in _chunks(live_lists):
        sizes = store.graph.set_sizes([keys.list_members(list_id) for list_id in chunk])
        for list_id, fields, size in zip(chunk, store.lists.get_lists(chunk), sizes, strict=True):
            if not fields:
                continue
            finding.checked += 1
            if int(fields.get("members", 0)) != size:
                counted = fields.get("members", 0)
                finding.problem(f"{keys.user_list(list_id)} members is {counted}, the set holds {size}")
                if fix:
                    store.graph.recount(keys.list_members(list_id), keys.user_list(list_id), "members")
                    finding.fixed += 1
    return finding
