"""The clean-up of a deleted status or repost (the book's exercise "Cleaning out deleted IDs"): the counterpart
of ``services.delivery``, over the same audiences, cursors and batches. It asks no policy, since taking a status
out of a timeline that never held it changes nothing; a repost that stood for its original is replaced by another
repost of it that the timeline shows, as Mastodon does."""

from __future__ import annotations

from timelines import events, limits, queue, store
from timelines.services.audiences import AUDIENCES, FOLLOWERS, LISTS, Audience, Cursor, announce, take_back
from timelines.services.pulled import withdraw_pulled

__all__ = ["clean_timelines", "withdraw", "withdraw_status"]


def withdraw_status(*, uid: int, status_id: int, repost_of: int | None = None) -> None:
    """Run the first clean-up pass of every audience of a deleted status or repost (the rest is queued). The
    caller took it out of its author's home: the first pass's event names that home too."""
    for audience in AUDIENCES:
        if audience == FOLLOWERS.name and withdraw_pulled(uid=uid, status_id=status_id):
            # Merged into homes when read, never written to them (services.pulled): only its author's home held it.
            announce(events.DELETE, FOLLOWERS, [], {"id": status_id, "uid": uid}, own_home=uid)
            continue
        withdraw(
            audience=audience, uid=uid, status_id=status_id, repost_of=repost_of, own_home=audience == FOLLOWERS.name
        )


def withdraw(
    *,
    audience: str,
    uid: int,
    status_id: int,
    cursor: Cursor | None = None,
    repost_of: int | None = None,
    own_home: bool = False,
) -> int:
    """Remove deleted status ``status_id`` of ``uid`` from the timelines of the next ``POSTS_PER_PASS``
    targets of ``audience`` after ``cursor``, and queue the pass after it.

    Followers who came later never got the status (it had left the profile), those who left had it removed
    on unfollow. For a repost (``repost_of``), a timeline where it stood for its original gets the earliest
    other repost of that original by someone it shows instead, as Mastodon does: they still get the post
    some other way. Idempotent. Returns the number of targets in this pass. Publishes a ``delete`` event naming
    the timelines it was withdrawn from (and ``reset`` for those that got a stand-in repost).
    """
    chosen = AUDIENCES[audience]
    targets = store.graph.members_after(chosen.targets(uid), cursor, limits.POSTS_PER_PASS)
    held = take_back(chosen, [member for member, _ in targets], status_id, repost_of)
    announce(events.DELETE, chosen, held, {"id": status_id, "uid": uid}, own_home=uid if own_home else None)
    if repost_of and held:
        announce(events.RESET, chosen, _stand_in(chosen, held, repost_of, gone=uid), None)
    if len(targets) >= limits.POSTS_PER_PASS:
        last_member, last_score = targets[-1]
        queue.enqueue_withdrawal(
            audience=audience, uid=uid, status_id=status_id, cursor=(last_score, last_member), repost_of=repost_of
        )
    return len(targets)


def _stand_in(audience: Audience, targets: list[str], original_id: int, *, gone: int) -> list[str]:
    """For each target whose timeline just lost the repost standing for ``original_id``, add the earliest
    other repost of it by someone that timeline shows (or by its owner). Two round trips, plus one push per
    distinct stand-in. Returns the targets that got one."""
    others = [(uid, posted) for uid, posted in store.reposts.reposters(original_id) if uid != gone]
    if not others:
        return []
    uids = [uid for uid, _ in others]
    repost_ids = store.reposts.reposts_of(uids, original_id)
    shown = store.graph.memberships_in_each([audience.shows(int(target)) for target in targets], uids)
    chosen: dict[int, list[str]] = {}
    for target, flags in zip(targets, shown, strict=True):
        for index, (uid, _) in enumerate(others):
            is_owner = audience is FOLLOWERS and uid == int(target)
            if (flags[index] or is_owner) and repost_ids[index] is not None:
                chosen.setdefault(index, []).append(target)
                break
    reached: list[str] = []
    for index, chosen_targets in chosen.items():
        added = store.reposts.push_repost(
            audience.name, chosen_targets, original_id, int(repost_ids[index]), others[index][1]
        )
        reached.extend(target for target, was in zip(chosen_targets, added, strict=True) if was)
    return reached


# The book's name, kept for scripts written against it.


def clean_timelines(*, uid: int, status_id: int, cursor: Cursor | None = None, on_lists: bool = False) -> int:
    """One clean-up pass of a deleted status (the book's exercise "Cleaning out deleted IDs"). See
    ``withdraw``."""
    return withdraw(audience=LISTS.name if on_lists else FOLLOWERS.name, uid=uid, status_id=status_id, cursor=cursor)
