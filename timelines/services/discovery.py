"""The discovery indexes of statuses and people (issue 10): tag timelines, trending counts, the word index of
search (book chapter 7) and the people index. The services that change what these index call in here:
``post_status`` and ``delete_status`` (``index_status`` / ``unindex_status``), ``create_user`` and
``update_profile`` (``index_user`` / ``rename_user``).

Layout (``keys.tags``, ``keys.search``) and why:

- ``tag:{name}``: a capped timeline per tag, only of posts the public may see listed (the policy decides, with
  the public as recipient and context ``LISTING``, when the post is indexed: public posts only; pages ask it
  again for their viewer).
- ``timeline:{local}``: the same for every public post (no reposts), the client API's public timeline.
- ``trending:{tags}:<hour>``: uses per tag per hour, 25 hours to live; one hash tag for every bucket, so the
  24-hour ranking is one ZUNION on one slot.
- ``search:{sN}:<word>``: one ZSET per word and shard, N = status id % ``SEARCH_SHARDS``. The book keeps one
  SET per word and intersects them; on Redis Cluster that would be a cross-slot command. Sharding by status
  keeps every status's words in one slot, so indexing a status is one single-slot pipeline and a query is one
  single-slot script per shard (intersect into a scratch key of that shard, read the newest below the cursor,
  delete it), all sixteen pipelined and merged newest first. Scores are the ids, so the cursor is a score
  range. Every status is indexed whatever its audience: reads pass ``policy.visible_to`` for their viewer.
- ``search:users:`` and ``search:tags:``: lexicographic ZSETs for prefix lookups (ZRANGEBYLEX): per user the
  login, the display name and each later word of it; each tag once it is first used on a public post.

Deleting a post takes it out of the word sets and tag timelines, and back out of the trending bucket of its
hour when it was counted; readers also drop ids whose status hash is gone, which covers a deletion that was
interrupted half-way. A tag stays known to prefix search once used, as on Mastodon.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from timelines import keys, policy, store, text


def is_public(status: Mapping[str, Any], *, author: Mapping[str, str] | None = None) -> bool:
    """Whether the policy lets the public receive ``status`` in a listing (tag timelines, trending tags, the
    public streams): an unlisted post may be read by anyone yet is never listed. ``author``: the author's hash,
    when the caller has just read it (a new post): a policy that can judge from its flags (``page_state``)
    then reads nothing."""
    chosen = policy.get_policy()
    uid = int(status["uid"])
    state = None
    if author is not None:
        # The flags as store.privacy.relations reads them (HMGET of the same hash), and no relations: the
        # public is nobody's follower, blocker or muter.
        flags = frozenset(flag for flag in store.privacy.FLAGS if author.get(flag))
        empty: frozenset[tuple[int, int]] = frozenset()
        state = chosen.page_state(store.privacy.Relations({uid: flags}, empty, empty, empty), statuses=[status])
    if state is None:
        state = chosen.load(recipients=(policy.PUBLIC,), authors=(uid,))
    return chosen.allows(state, recipient=policy.PUBLIC, item=policy.Item.of_status(status, context=policy.LISTING))


def index_status(status: Mapping[str, Any], *, pipe: Any = None, author: Mapping[str, str] | None = None) -> None:
    """Index a new status for search and, when the public may see it, add it to the local timeline and its tags'
    timelines and count its tags in the trending bucket of the hour it was posted.

    ``status`` is the status as stored (``id``, ``uid``, ``message``, ``posted``). Its words and its place on the
    local timeline go on ``pipe`` (a ``store.batch``) when given, else in round trips of their own; tags cost
    one more (two scripts' round trip and the tag names'). Whether the public may see it is judged from
    ``author`` (its hash as the caller read it) when given, else from the policy's ``load``. Indexing again
    changes nothing but the trending count.
    """
    status_id = int(status["id"])
    message = str(status.get("message") or "")
    store.search.index_words(status_id, text.search_words(message), pipe=pipe)
    tags = text.tags(message)
    if not is_public(status, author=author):
        return
    posted = float(status["posted"])
    store.tags.index_local(status_id, posted, pipe=pipe)
    if tags:
        store.tags.index_tags(tags, status_id, posted, keys.trending_hour(posted))


def unindex_status(fields: Mapping[str, Any]) -> None:
    """Take a deleted status out of the word index and its tags' timelines, and take its tags' use back from
    the trending bucket of its hour if it was counted there (it was if a tag timeline still held it).

    ``fields`` is the status hash as it was stored (``delete_status`` gets it from the delete). Three
    pipelined round trips at most; idempotent.
    """
    status_id = int(fields["id"])
    message = str(fields.get("message") or "")
    store.search.unindex_words(status_id, text.search_words(message))
    store.tags.remove_from_local(status_id)
    removed = store.tags.remove_from_tag_timelines(text.tags(message), status_id)
    if removed:
        store.tags.uncount_uses(removed, keys.trending_hour(float(fields["posted"])))


def _name_entries(uid: int, login: str, name: str) -> set[str]:
    """The people index's entries of a user: the login, the display name, and each later word of the name, so
    "lid" finds "Alice Liddell" as Twitter would."""
    names = {login, name, *name.split()[1:]}
    return {store.search.name_entry(found, uid) for found in names}


def index_user(*, uid: int, login: str, name: str) -> None:
    """Make a new user findable by login and display-name prefix. One round trip; idempotent."""
    store.search.update_names(add=_name_entries(uid, login, name))


def rename_user(*, uid: int, login: str, old_name: str | None, new_name: str) -> None:
    """Replace a user's display name in the people index (entries the new name shares with the old one or
    with the login stay). One round trip; idempotent. An entry left stale by racing renames only costs a
    lookup: readers check the current login and name."""
    new = _name_entries(uid, login, new_name)
    old = _name_entries(uid, login, old_name) if old_name is not None else set()
    store.search.update_names(remove=old - new, add=new)


def forget_user(*, uid: int, login: str, name: str) -> None:
    """Take a user out of the people index (their account is being deleted). Idempotent."""
    store.search.update_names(remove=_name_entries(uid, login, name))
