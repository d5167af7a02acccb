"""Reposts (Mastodon's reblogs, Twitter's retweets): a repost is a status of its own that points at the
original, appears in its author's profile and reaches their followers, once per home.

``repost_status`` is a sequence of idempotent single-slot steps: the reposter's claim (``user:reposts:{U}``,
so a user reposts an original once, whatever the races), the repost's hash, the original's side
(``reposts:{O}`` with an exact ``repost_count``; refused once the original is gone), the reposter's profile,
then delivery with deduplication (``store.reposts.push_repost``) and a notification for the original's
author. ``undo_repost`` deletes the repost the same way ``delete_status`` deletes a post.
"""

from __future__ import annotations

from timelines import events, exceptions, policy, store, uris
from timelines import visibility as visibilities
from timelines.services.cleanup import finish_deletion, typed
from timelines.services.delivery import deliver_status
from timelines.services.notifications import REPOST, notify
from timelines.services.publishing import publish
from timelines.services.users import require_user
from timelines.services.visibility import status_to_act_on


def repost_status(*, uid: int, status_id: int) -> bool:
    """Repost ``status_id`` (or the original it reposts) as ``uid``; True if that made a new repost, False if
    ``uid`` had already reposted it. Raises ``UnknownUser``, ``StatusNotFound`` (missing or deleted) or
    ``CannotRepost``: only public and unlisted posts can be reposted (Mastodon), and only when the policy
    would let the public see them were they public (not a limited author's). A post ``uid`` may not see is
    ``StatusNotFound``, as if it did not exist.

    The repost is unlisted when the original is (it carries the original's text, which must stay out of the
    public listings), and for followers only when the reposter's account is private."""
    original = status_to_act_on(uid=uid, status_id=status_id)
    original_id, author_uid = int(original["id"]), int(original["uid"])
    reposter = require_user(uid)
    original_level = visibilities.of_status(original)
    if original_level not in visibilities.REPOSTABLE:
        raise exceptions.CannotRepost(exceptions.CANNOT_REPOST_VISIBILITY)
    if not _public({**original, "visibility": visibilities.PUBLIC}):
        raise exceptions.CannotRepost()
    existing = store.reposts.repost_of_user(uid, original_id)
    if existing is not None and store.statuses.status_exists(existing):
        return False
    repost_id, posted_micros = store.statuses.next_status_id()
    posted = posted_micros / 1_000_000
    if store.reposts.claim_repost(uid, original_id, repost_id) != repost_id:
        return False  # a racing request of the same user reposted it first
    fields = {
        "message": "",
        "posted": repr(posted),
        "id": repost_id,
        "uid": uid,
        # login@domain for another server's account (federation's reposts), as its own posts are named.
        "login": uris.acct(reposter["login"], reposter.get("domain")),
        "name": reposter.get("name") or reposter["login"],
        "repost_of": original_id,
        # Kept with the repost so its deletion reaches the streams that showed it (follow=<original author>).
        "repost_of_uid": author_uid,
        "repost_of_login": original["login"],
    }
    if reposter.get("private"):
        # A private account's repost is one of its posts: for its approved followers only, like the posts it
        # writes, whatever the account does later (the policy reads this field, as for any status).
        fields["visibility"] = visibilities.PRIVATE
    elif original_level != visibilities.PUBLIC:
        fields["visibility"] = original_level
    store.statuses.write_status(repost_id, fields)
    if store.reposts.add_reposter(original_id, uid, posted) < 0:
        # The original was deleted meanwhile: take the repost back; nothing else was written.
        store.statuses.delete_status_if_owner(repost_id, uid)
        store.reposts.release_repost(uid, original_id, repost_id)
        raise exceptions.StatusNotFound()
    store.statuses.add_to_profile(uid, repost_id, posted, home=False, held=True)
    [own_home] = store.reposts.push_repost("followers", [uid], original_id, repost_id, posted)
    shown = {**fields, "posted": posted, "repost_of": typed(original)}
    deliver_status(status={**fields, "posted": posted}, shown=shown, own_home=own_home)
    notify(recipients=[author_uid], kind=REPOST, actor=uid, status_id=original_id, cause=fields)
    publish(events.status_created(shown))
    return True


def undo_repost(*, uid: int, status_id: int) -> bool:
    """Undo ``uid``'s repost of ``status_id`` (the original, or the repost itself); True if there was one.
    The repost leaves every home it reached, unless they get the post some other way. Raises ``StatusNotFound``
    when the post is missing (its deletion removes the reposts anyway) or ``uid`` may not see it, as
    ``repost_status`` does, so both answer alike for a hidden post."""
    original_id = int(status_to_act_on(uid=uid, status_id=status_id)["id"])
    repost_id = store.reposts.repost_of_user(uid, original_id)
    if repost_id is None:
        return False
    outcome, fields = store.statuses.delete_status_if_owner(repost_id, uid)
    if outcome != "deleted":
        store.reposts.release_repost(uid, original_id, repost_id)
        return False
    finish_deletion(fields=fields)
    return True


def _public(original: dict[str, str]) -> bool:
    """Whether the public may see ``original`` in a listing (a limited author's post may not)."""
    chooser = policy.get_policy()
    item = policy.Item.of_status(original, context=policy.LISTING)
    state = chooser.load(recipients=(policy.PUBLIC,), authors=(item.author_uid,), items=(item,))
    return chooser.allows_all(state) or chooser.allows(state, recipient=policy.PUBLIC, item=item)
