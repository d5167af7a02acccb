"""Editing a status's text (issue 19, Mastodon's edits): the author rewrites it, every earlier version is kept,
and everything that follows the text follows the new one.

An edit is one script on the status's slot (``store.edits``): the owner check, a compare-and-set on the status's
``edits`` counter, the old version pushed onto ``status:versions:{id}`` and the hash's text, mentions, tags,
``edited_at`` and ``edits`` rewritten, so no reader ever sees half an edit, on one server or a cluster. What hangs
on the text then follows in idempotent single-slot steps, as after a new post: the word index, the tag timelines
(of a public post), the notifications (the people it mentions for the first time: "mentioned you"; everyone who
reposted it: "edited a post you reposted"), and the ``status.updated`` event that open pages and streams follow
(``message.updated`` to its conversation's participants for a direct message).
An edit may change the images and alt texts too (issue 21; ``services.pictures``).
Counters, replies, reposts, likes and the visibility stay as they were; a repost cannot be edited (it has no
text of its own). A direct message keeps its participants: the people it reaches are its conversation's, so
naming someone new in an edit does not add them.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from timelines import events, exceptions, hooks, keys, limits, store, text
from timelines import visibility as visibilities
from timelines.records import media_of, mention_pairs, stored_media
from timelines.services.cleanup import typed
from timelines.services.direct_messages import message_edited
from timelines.services.discovery import is_public
from timelines.services.notifications import MENTION, UPDATE, notify
from timelines.services.pictures import media_claimed, plan_edit_media
from timelines.services.publishing import publish
from timelines.services.statuses import mentions_of
from timelines.services.tag_delivery import deliver_to_tag_followers
from timelines.validation import clean_message

logger = logging.getLogger(__name__)

# Two racing edits of one post: the loser reads again and retries (its text wins, as the later one).
_ATTEMPTS = 5


class _Refused(Exception):
    """The edit's script refused (its outcome): the SQL side of the edit is rolled back."""


def edit_status(
    *,
    uid: int,
    status_id: int,
    message: str,
    media_ids: Sequence[object] | None = None,
    descriptions: Mapping[object, str] | None = None,
    max_length: int = limits.MAX_MESSAGE_LENGTH,
) -> bool:
    """Replace the text of status ``status_id``, written by ``uid``, with ``message``, keeping the text it
    replaces as an earlier version. Returns True, or False when ``message`` is the text it already has and
    the images are unchanged (nothing is written: not a new version).

    The rules of a new post hold: at most ``MAX_MESSAGE_LENGTH`` characters (``max_length``: the federation's
    limit for an Update of another server's post, which was stored under it), not empty unless it has images
    (``InvalidMessage``);
    the caller's view applies the posts rate limit. At most ``MAX_STATUS_VERSIONS`` versions
    (``TooManyVersions``). Raises ``StatusNotFound`` (no such status, or a repost) and ``NotOwner`` (someone
    else's post), before anything is written. Costs: the read, the script, then the index, tag and
    notification steps, O(reposters) for the notifications.

    Images (issue 21): ``media_ids`` (None: the ones it has) become the post's images, each one it has, one an
    earlier version had, or one of ``uid``'s unposted uploads, at most four; ``descriptions`` (id -> alt text)
    rewrites alt texts. Anything else is ``InvalidMedia`` with nothing written. The version replaced keeps its
    images (``keys.status_versions``), so an image dropped stays attached to the post (its files go when the
    post does). New uploads are claimed and alt texts stored in one SQL transaction around the script, rolled
    back if the script refuses. The text may be empty while the post has images."""
    message = clean_message(message, allow_empty=True, max_length=max_length)
    if not isinstance(status_id, int) or not 0 < status_id < limits.MAX_ID:
        raise exceptions.StatusNotFound()
    for _ in range(_ATTEMPTS):
        old = store.statuses.get_status(status_id)
        if not old or old.get("repost_of"):
            raise exceptions.StatusNotFound()
        if int(old["uid"]) != uid:
            raise exceptions.NotOwner(exceptions.NOT_EDIT_OWNER)
        new = _edited_fields(old, message)
        claim: list[int] = []
        texts: dict[int, str] = {}
        if media_ids is not None or descriptions:
            items, claim, texts = plan_edit_media(
                uid=uid,
                status_id=status_id,
                current=media_of(old.get("media")),
                media_ids=media_ids,
                descriptions=descriptions,
            )
            new["media"] = stored_media(items) if items else ""
        if not message and not (new["media"] if "media" in new else old.get("media")):
            raise exceptions.InvalidMessage()
        if old.get("message") == message and new.get("media", old.get("media") or "") == (old.get("media") or ""):
            return False
        edited_at = repr(time.time())
        try:
            with media_claimed(uid=uid, status_id=status_id, new=claim, descriptions=texts):
                outcome, edits = store.edits.edit_status(
                    status_id,
                    uid,
                    expected_edits=int(old.get("edits") or 0),
                    fields=new,
                    replaced_version=version_of(old),
                    edited_at=edited_at,
                )
                if outcome != store.edits.EDITED:
                    raise _Refused(outcome)
        except _Refused:
            pass  # the uploads claimed and alt texts stored are rolled back; the outcome says why
        if outcome == store.edits.CONFLICT:
            continue
        if outcome == store.edits.MISSING:
            raise exceptions.StatusNotFound()
        if outcome == store.edits.NOT_OWNER:
            raise exceptions.NotOwner(exceptions.NOT_EDIT_OWNER)
        if outcome == store.edits.FULL:
            raise exceptions.TooManyVersions()
        current = {name: value for name, value in {**old, **new}.items() if value != ""}
        current.update(message=message, edited_at=edited_at, edits=str(edits))
        _follow_text(old, current)
        hooks.status_edited(current)
        return True
    raise exceptions.StatusNotFound()  # edited by others on every attempt: vanishingly rare; nothing written


def _edited_fields(old: Mapping[str, str], message: str) -> dict[str, str]:
    """The fields an edit rewrites (``store.edits.EDITED_FIELDS``; "" removes one): the text, its mentions
    (a direct message keeps its participants) and its tags."""
    direct = visibilities.of_status(old) == visibilities.DIRECT
    return {
        "message": message,
        "mentions": str(old.get("mentions") or "") if direct else mentions_of(message),
        "tags": ",".join(text.tags(message)),
    }


def version_of(old: Mapping[str, str]) -> str:
    """The JSON of the version an edit replaces, as ``keys.status_versions`` keeps it."""
    since = old.get("edited_at") or old["posted"]
    logins = [login for _, login in mention_pairs(old.get("mentions"))]
    version: dict[str, Any] = {"message": old.get("message", ""), "time": float(since), "mentions": logins}
    media = media_of(old.get("media"))
    if media:
        version["media"] = [item.as_stored() for item in media]
    return json.dumps(
        version,
        separators=(",", ":"),
        ensure_ascii=False,
    )


def _follow_text(old: dict[str, str], new: dict[str, str]) -> None:
    """What follows the text once the edit is written (each step idempotent): the word index and tag timelines,
    the notifications, then the event."""
    status_id, author = int(new["id"]), int(new["uid"])
    direct = visibilities.of_status(new) == visibilities.DIRECT
    if not direct:
        _reindex(old, new)
    before = {uid for uid, _ in mention_pairs(old.get("mentions"))}
    newly = [uid for uid, _ in mention_pairs(new.get("mentions")) if uid not in before and uid != author]
    notify(recipients=newly, kind=MENTION, actor=author, status_id=status_id, cause=new)
    reposters = [uid for uid, _ in store.reposts.reposters(status_id) if uid not in newly]
    notify(recipients=reposters, kind=UPDATE, actor=author, status_id=status_id, cause=new)
    published: dict[str, Any] = typed(new)
    published["edited_at"] = float(new["edited_at"])
    published["edits"] = int(new["edits"])
    if direct:
        # A message's audience is its conversation: the participants' pages, never a timeline or a public stream.
        message_edited(published)
    else:
        publish(events.status_updated(published))


def _reindex(old: Mapping[str, str], new: Mapping[str, str]) -> None:
    """The word index and, for a public post, the tag timelines and trending counts, moved from the old text to
    the new one."""
    status_id = int(new["id"])
    old_words, new_words = text.search_words(old.get("message", "")), text.search_words(new["message"])
    store.search.unindex_words(status_id, old_words - new_words)
    store.search.index_words(status_id, new_words - old_words)
    old_tags, new_tags = text.tags(old.get("message", "")), text.tags(new["message"])
    if old_tags == new_tags or not is_public(new):
        return
    posted = float(new["posted"])
    hour = keys.trending_hour(posted)
    removed = store.tags.remove_from_tag_timelines([tag for tag in old_tags if tag not in new_tags], status_id)
    if removed:
        store.tags.uncount_uses(removed, hour)
    added = [tag for tag in new_tags if tag not in old_tags]
    if added:
        store.tags.index_tags(added, status_id, posted, hour)
        # Mastodon fans an edited post out again (DistributionWorker 'update'): a new tag's followers get it.
        deliver_to_tag_followers(typed(dict(new)), only=added)
