"""The followed-tags audience of the delivery pipeline (issue 20): a public post reaches the homes of the people
who follow one of its tags, as Mastodon's ``FanOutOnWriteService#deliver_to_hashtag_followers!`` does.

``deliver_to_tag_followers`` is called by ``delivery.deliver_status`` for every new original (not a repost) that
the public may see listed (``discovery.is_public``: a ``public`` post of an author who is not limited; unlisted,
private and direct posts never travel by a tag). For each of the post's tags in turn, a pass reads the next
``POSTS_PER_PASS`` of the tag's followers (``tag:followers:{tag}``) after a cursor and leaves out those the post
reaches some other way: its author, the author's followers (their home gets it from the ``followers`` audience,
pushed or pulled) and the followers of an earlier tag of the same post. The per-recipient policy
(``policy.allowed_recipients``, context ``FEED``) then decides for each of the others, exactly as for a follower
(blocks, mutes, suspensions, a limited author), and the pass writes the post to their homes with the same trimmed
push, and publishes one ``timeline.delivery`` event naming them, so open homes and the API's ``user`` stream
show it. A longer audience goes on in jobs (``queue.enqueue_tag_delivery``) from the cursor.

``withdraw_from_tag_followers`` takes a deleted post back out of those homes, the same way, with a ``delete``
event. Every pass is idempotent (ZADD of the same score and the trim; ZREM).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from timelines import events, keys, limits, policy, queue, store, text
from timelines import visibility as visibilities
from timelines.services.discovery import is_public
from timelines.services.publishing import publish
from timelines.services.typed import typed

Cursor = tuple[float, str]
DELIVER, WITHDRAW = "deliver", "withdraw"


def deliver_to_tag_followers(status: Mapping[str, Any], *, only: Sequence[str] | None = None) -> None:
    """Run the first pass of every tag of a new ``status`` (the rest is queued), or of the tags in ``only`` (those
    an edit added: Mastodon's ``UpdateStatusService`` fans the edited post out again, so a new tag's followers get
    it at its first place in time). Nothing for a repost, a post without tags or one the public may not see
    listed. One round trip for the tags' first followers, then, when anyone follows them, the policy's read and a
    few round trips per tag."""
    if status.get("repost_of") or visibilities.of_status(status) != visibilities.PUBLIC:
        return
    tags = text.tags(str(status.get("message") or ""))
    if not tags:
        return
    chosen = [index for index, tag in enumerate(tags) if only is None or tag in only]
    if not chosen:
        return
    firsts = store.graph.members_after_many(
        [(keys.tag_followers(tags[index]), None, limits.POSTS_PER_PASS) for index in chosen]
    )
    if not any(firsts) or not is_public(status):
        return
    for index, targets in zip(chosen, firsts, strict=True):
        if targets:
            _deliver_pass(status, tags=tags, index=index, targets=targets, count=limits.POSTS_PER_PASS)


def tag_pass(*, kind: str, status_id: int, uid: int, tag: str, cursor: Cursor) -> int:
    """One deferred pass (a job, ``DELIVERY_JOB_SIZE`` followers) of ``kind`` (``DELIVER`` or ``WITHDRAW``) of
    ``status_id`` by ``uid`` to the followers of ``tag`` after ``cursor``. A delivery judges the status as stored and
    stops when it is gone. Returns the number of followers read."""
    count = limits.DELIVERY_JOB_SIZE
    targets = store.graph.members_after(keys.tag_followers(tag), cursor, count)
    if kind == WITHDRAW:
        return _withdraw_pass(status_id=status_id, uid=uid, tag=tag, targets=targets, count=count)
    stored = store.statuses.get_status(status_id)
    if not stored:
        return 0
    status = typed(dict(stored))
    if status.get("repost_of") or visibilities.of_status(status) != visibilities.PUBLIC:
        return 0  # judged as stored, never by what the job carries
    tags = text.tags(str(status.get("message") or ""))
    if tag not in tags or not targets:
        return len(targets)
    return _deliver_pass(status, tags=tags, index=tags.index(tag), targets=targets, count=count)


def _deliver_pass(
    status: Mapping[str, Any], *, tags: Sequence[str], index: int, targets: list[tuple[str, float]], count: int
) -> int:
    tag = tags[index]
    author, status_id, posted = int(status["uid"]), int(status["id"]), float(status["posted"])
    if len(targets) >= count:
        last_member, last_score = targets[-1]
        queue.enqueue_tag_pass(kind=DELIVER, status_id=status_id, uid=author, tag=tag, cursor=(last_score, last_member))
    members = [member for member, _ in targets]
    elsewhere = store.followed_tags.reached_otherwise(members, author=author, earlier_tags=tags[:index])
    candidates = [int(member) for member, other in zip(members, elsewhere, strict=True) if not other]
    # Not ``followers_of``: these people need not follow the author, so the policy reads whether they do (a
    # limited author reaches only their followers).
    allowed = policy.allowed_recipients(item=policy.Item.of_status(status), recipients=candidates)
    if not allowed:
        return len(targets)
    if not store.fanout.push_to_home_timelines(allowed, status_id, posted):
        # Deleted meanwhile: its clean-up may have passed these homes already.
        store.fanout.remove_from_timelines([keys.home_timeline(uid) for uid in allowed], status_id)
        return len(targets)
    publish(events.delivered(events.POST, homes=allowed, status=status))
    return len(targets)


def withdraw_from_tag_followers(fields: Mapping[str, Any]) -> None:
    """Take a deleted original out of the homes of its tags' followers: the first pass of each tag (the rest is
    queued). ``fields``: the status as it was stored."""
    if fields.get("repost_of") or visibilities.of_status(fields) != visibilities.PUBLIC:
        return
    tags = text.tags(str(fields.get("message") or ""))
    if not tags:
        return
    firsts = store.graph.members_after_many([(keys.tag_followers(tag), None, limits.POSTS_PER_PASS) for tag in tags])
    for tag, targets in zip(tags, firsts, strict=True):
        if targets:
            _withdraw_pass(
                status_id=int(fields["id"]),
                uid=int(fields["uid"]),
                tag=tag,
                targets=targets,
                count=limits.POSTS_PER_PASS,
            )


def _withdraw_pass(*, status_id: int, uid: int, tag: str, targets: list[tuple[str, float]], count: int) -> int:
    if len(targets) >= count:
        last_member, last_score = targets[-1]
        queue.enqueue_tag_pass(kind=WITHDRAW, status_id=status_id, uid=uid, tag=tag, cursor=(last_score, last_member))
    members = [member for member, _ in targets if int(member) != uid]
    held = store.fanout.remove_from_timelines([keys.home_timeline(int(member)) for member in members], status_id)
    homes = [member for member, was in zip(members, held, strict=True) if was]
    if homes:
        publish(events.delivered(events.DELETE, homes=homes, status={"id": status_id, "uid": uid}))
    return len(targets)
