"""What a deletion leaves to clean up, after the status hash itself is gone (atomically, in ``statuses``).

``finish_deletion`` takes a deleted status out of its author's timelines and every audience (``delivery``),
then cleans what hangs on it:

- its place among its parent's replies (the parent's ``reply_count`` stays exact);
- the notifications about it, in the feeds of its author and of the people it answered or mentioned;
- its reposts: each is deleted as its author's undo would (Mastodon and Twitter remove boosts of a deleted
  post), so the original leaves every home it reached through them;
- its likes, in each liker's likes;
- its place in its conversation, when it is a direct message (``direct_messages``);
- its place in the tag timelines, the trending counts and the search index (``discovery``);
- its replies stay, each marked as answering a deleted post.

The sets that list reposters, likers and replies can be long, so each is worked through in passes after a
cursor (``REPOSTS_PER_PASS`` reposters, ``POSTS_PER_PASS`` others), the first inline and the rest as jobs
(``queue.enqueue_cleanup``); the last pass deletes the set. Every pass is idempotent.
"""

from __future__ import annotations

from timelines import events, hooks, keys, limits, queue, store
from timelines.records import mention_pairs
from timelines.services.delivery import typed
from timelines.services.direct_messages import forget_message
from timelines.services.discovery import unindex_status
from timelines.services.notifications import forget_status
from timelines.services.pictures import delete_media
from timelines.services.publishing import publish
from timelines.services.tag_delivery import withdraw_from_tag_followers
from timelines.services.withdrawal import withdraw_status

__all__ = ["clean", "clean_up_after", "finish_deletion", "typed"]

Cursor = tuple[float, str]

# Deleting a repost withdraws it from its author's followers (1,000 inline), so a pass takes fewer of them.
REPOSTS_PER_PASS = 100

REPOSTS, LIKES, REPLIES = "reposts", "likes", "replies"
_SETS = {REPOSTS: keys.reposters, LIKES: keys.likers, REPLIES: keys.replies}


def finish_deletion(*, fields: dict[str, str]) -> None:
    """Everything that follows the atomic delete of a status hash whose stored ``fields`` are given: the
    author's timelines, every audience, what hangs on it, and the deletion event. Idempotent."""
    uid, status_id = int(fields["uid"]), int(fields["id"])
    repost_of = int(fields["repost_of"]) if fields.get("repost_of") else None
    store.statuses.remove_from_author(uid, status_id)
    if repost_of is not None:
        store.reposts.remove_repost("followers", [uid], repost_of, status_id)
        store.reposts.remove_reposter(repost_of, uid)
        store.reposts.release_repost(uid, repost_of, status_id)
    withdraw_status(uid=uid, status_id=status_id, repost_of=repost_of)
    if repost_of is None:
        clean_up_after(fields=fields)
    if fields.get("media"):
        delete_media(status_id=status_id)  # a few files: inline, so its images stop at once
    publish(events.status_deleted(typed(fields)))
    hooks.status_deleted(fields)


def clean_up_after(*, fields: dict[str, str]) -> None:
    """Clean what hangs on a deleted post (see the module docstring): the first pass of each set now."""
    status_id = int(fields["id"])
    parent = int(fields["in_reply_to"]) if fields.get("in_reply_to") else None
    if parent is not None:
        store.conversations.remove_reply(parent, status_id)
    concerned = [int(fields["uid"]), *(uid for uid, _ in mention_pairs(fields.get("mentions")))]
    if fields.get("in_reply_to_uid"):
        concerned.append(int(fields["in_reply_to_uid"]))
    forget_status(uids=concerned, status_id=status_id)
    forget_message(fields)
    unindex_status(fields)
    withdraw_from_tag_followers(fields)
    for kind in (REPOSTS, LIKES, REPLIES):
        clean(kind=kind, status_id=status_id)


def clean(*, kind: str, status_id: int, cursor: Cursor | None = None) -> int:
    """One pass over the ``kind`` set (reposters, likers or replies) of deleted ``status_id`` after
    ``cursor``; queues the next pass, or deletes the set after the last one. Returns the pass's size."""
    size = REPOSTS_PER_PASS if kind == REPOSTS else limits.POSTS_PER_PASS
    key = _SETS[kind](status_id)
    members = store.graph.members_after(key, cursor, size)
    ids = [int(member) for member, _ in members]
    if kind == REPOSTS:
        _delete_reposts(ids, status_id)
    elif kind == LIKES:
        store.likes.remove_likes(ids, status_id)
    else:
        store.conversations.mark_parent_deleted(ids)
    if len(members) >= size:
        last_member, last_score = members[-1]
        queue.enqueue_cleanup(kind=kind, status_id=status_id, cursor=(last_score, last_member))
    else:
        store.graph.delete_keys(key)
    return len(members)


def _delete_reposts(reposters: list[int], original_id: int) -> None:
    """Delete each reposter's repost of a deleted original, as their own undo would."""
    for reposter, repost_id in zip(reposters, store.reposts.reposts_of(reposters, original_id), strict=True):
        if repost_id is None:
            continue
        outcome, fields = store.statuses.delete_status_if_owner(repost_id, reposter)
        if outcome == "deleted":
            finish_deletion(fields=fields)
        else:
            store.reposts.release_repost(reposter, original_id, repost_id)
