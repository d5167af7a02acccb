"""An unfollow with what it takes out of the follower's home (book listing 8.5, fixed): both sides of the
graph, every status of the former followee that can still be in that home (all those posted since its
oldest entry, not only the latest 1,000), and the number of the refill run that fills the home back in.

On one server that is one script (``scripts/unfollow.lua``): the followee's ids never travel to the client.
On a Redis Cluster the keys span slots, so it is ``graph.remove_follow`` (which reads the followee's newest
ids with it), then the removal and the run's number (``refill.remove_and_start_refill``), and one more read
of the profile when the home reaches further back than those ids.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from socialsite.redis_client import is_cluster
from timelines import keys, limits
from timelines.store.graph import remove_follow
from timelines.store.lua import script as _script
from timelines.store.refill import remove_and_start_refill
from timelines.store.timelines import timeline_ids_since


@dataclass(frozen=True, slots=True)
class Unfollowed:
    """Whether there was a follow, and the refill run numbered for the follower's home (None when the home
    held nothing the followee could have posted, so nothing needs to fill it back in), and whether the followee's
    and the follower's profiles have a domain (another server's account; None when not read: a cluster)."""

    removed: bool
    refill_run: int | None
    has_domain: bool | None = field(default=None, compare=False)
    follower_has_domain: bool | None = field(default=None, compare=False)
    published: bool = field(default=False, compare=False)  # the caller's event went out with the removal


def unfollow(uid: int, other_uid: int, *, event: tuple[str, str] | None = None) -> Unfollowed | None:
    """``uid`` stops following ``other_uid``; None when either user does not exist. Idempotent. ``event``
    (channel, message): published by the script once a follow was removed, on one server (``published``); on a
    cluster the caller publishes it."""
    home = keys.home_timeline(uid)
    if is_cluster():
        return _in_round_trips(uid, other_uid, home)
    reply = _script("unfollow")(
        keys=[
            keys.following(uid),
            keys.user(uid),
            home,
            keys.refill_run(home),
            keys.followers(other_uid),
            keys.user(other_uid),
            keys.profile_timeline(other_uid),
        ],
        args=[other_uid, uid, limits.REFILL_RUN_TTL_SECONDS, *(event or ())],
    )
    if int(reply[0]) < 0:
        return None
    removed = bool(int(reply[0]))
    return Unfollowed(
        removed,
        int(reply[1]) or None,
        bool(int(reply[2])),
        bool(int(reply[3])),
        published=removed and event is not None,
    )


def _in_round_trips(uid: int, other_uid: int, home: str) -> Unfollowed | None:
    # The followee's newest statuses are read with the removal: nearly always all that can be in the home.
    unfollow = remove_follow(uid, other_uid, recent=limits.HOME_TIMELINE_SIZE)
    if unfollow is None:
        return None
    if not unfollow.removed or unfollow.oldest is None:
        return Unfollowed(unfollow.removed, None)
    # What is newer than the oldest entry is a prefix of the profile, whole when the first status left out
    # is older than that entry.
    complete = unfollow.recent_floor is None or unfollow.recent_floor < unfollow.oldest
    theirs = unfollow.recent if complete else timeline_ids_since(keys.profile_timeline(other_uid), unfollow.oldest)
    if not theirs:
        return Unfollowed(True, None)
    _, run = remove_and_start_refill(home, theirs)
    return Unfollowed(True, run)
