"""Hybrid fan-out (issue 23): the posts of accounts with more followers than ``settings.FANOUT_PULL_THRESHOLD``
are not written into every follower's home; they are recorded once (``store.pulled``) and merged into a home when
it is read (``selectors.timelines``, ``store.pages``). Twitter's timeline service did the same for its celebrity
accounts: fan-out on write for nearly everyone, fan-out on read for the few whose writes would take too long.

The decision is made per post, when it is delivered: a post pushed stays pushed, a post pulled stays pulled. So an
account crossing the threshold either way needs nothing done: its older posts are in the homes, its newer ones
merged (or the reverse), none in both (a follow's copy can add a pulled post to a home too; the merge keeps one).
An account whose posts were ever pulled stays in the registry, ranked by its newest pulled post, so the posts it
made while over the threshold keep being merged after it falls below.

A home read merges at most ``limits.MAX_MERGED_PER_READ`` such accounts (those the reader follows that pulled a
post most recently), in the page read's own script on one server; past the cap the least recently active ones
are left out of that read, which bounds a read's work whatever the reader follows. Every merged post goes
through the per-recipient policy as the page reads it, like every pushed one.

The default threshold, 100,000 followers: the deferred fan-out measured 208,000 followers/s with the two
workers ``serve`` starts (README, Benchmarks), so a post past it would hold both workers for half a second and
more, delaying every other post's delivery, while a merged account costs each home read one ZREVRANGEBYSCORE
(``python -m bench --only pulled``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings

from timelines import keys, limits, store


def sizes_to_count(*, uid: int) -> dict[str, int]:
    """For ``store.statuses.write_to_profile``'s read of a new post's first followers: past the threshold, only
    their number is wanted (a pulled post reaches no home), not 1,000 of them."""
    return {keys.followers(uid): settings.FANOUT_PULL_THRESHOLD}


def pull_instead(*, uid: int, status_id: int, posted: float, followers: Sequence[object] | int) -> bool:
    """Whether ``uid``'s new post ``status_id`` is merged into its followers' homes when read instead of pushed
    (``uid`` has more than ``FANOUT_PULL_THRESHOLD`` followers); if so it is recorded for the merge. ``followers``:
    the first ``POSTS_PER_PASS`` followers read with the post, or their number when that read found more than
    the threshold (``sizes_to_count``); the number is read only when neither tells."""
    threshold = settings.FANOUT_PULL_THRESHOLD
    count = followers if isinstance(followers, int) else len(followers)
    if count >= limits.POSTS_PER_PASS and threshold >= count:
        count = store.pulled.follower_count(uid)
    if count <= threshold:
        return False
    store.pulled.add(uid, status_id, posted)
    return True


def withdraw_pulled(*, uid: int, status_id: int) -> bool:
    """Take a deleted post out of the pulled posts of ``uid``; True when it was one (it reached no home, so
    there is nothing to withdraw from them)."""
    return store.pulled.remove(uid, status_id)
