"""Other servers' posts, stored in the same keys as local ones (``status:{id}``, the author's ``profile:{uid}``)
and delivered to local followers through the same pipeline (``timelines.services.delivery``), with the same
policy. A remote post costs the same to read as a local one.

A remote status keeps its ``uri`` (and ``url``) and ``login`` is its author's ``login@domain``, which is what
pages show. Its text is the Note's HTML reduced to plain text (paragraphs and line breaks kept), at most
``MAX_MESSAGE`` characters. It is timed by its arrival, so it lands at the top of the homes it reaches; its
``published`` is kept. ``ap:object:{...}`` maps its URI to its id, so a Create delivered twice stores it once.
"""

from __future__ import annotations

import logging
from html.parser import HTMLParser
from typing import Any

from federation import client, contexts, identities, queue, store
from federation.models import RemoteActor
from federation.services import remote_media
from timelines import events, exceptions, text
from timelines import store as timelines_store
from timelines import visibility as visibilities
from timelines.records import mention_pairs, stored_media
from timelines.services.activity import record_post
from timelines.services.audiences import audience_keys
from timelines.services.delivery import deliver_status
from timelines.services.direct_messages import check_recipients
from timelines.services.discovery import index_status
from timelines.services.pictures import delete_media
from timelines.services.publishing import publish
from timelines.services.statuses import delete_status

logger = logging.getLogger(__name__)

MAX_MESSAGE = 5000


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "br":
            self.parts.append("\n")
        elif tag == "p" and self.parts:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(content: str) -> str:
    """The text of a Note's HTML ``content``: tags dropped, paragraphs as blank lines, entities decoded."""
    parser = _Text()
    parser.feed(content or "")
    parser.close()
    message = "".join(parser.parts).strip()
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 1] + "…"
    return message


def _addresses(note: dict[str, Any], key: str) -> list[str]:
    value = note.get(key)
    if isinstance(value, str):
        return [value]
    return [item for item in value or [] if isinstance(item, str)] if isinstance(value, list) else []


def visibility_of(note: dict[str, Any], author: RemoteActor) -> str:
    """The visibility of a Note by its addressing (Mastodon's rules, ``federation.documents``)."""
    to, cc = _addresses(note, "to"), _addresses(note, "cc")
    if any(address in contexts.PUBLIC_FORMS for address in to):
        return visibilities.PUBLIC
    if any(address in contexts.PUBLIC_FORMS for address in cc):
        return visibilities.UNLISTED
    if author.followers_url and author.followers_url in to + cc:
        return visibilities.PRIVATE
    return visibilities.DIRECT


def local_status_id(uri: str) -> int | None:
    """The id of a status named by ``uri``: a local one by its canonical URI, a remote one by its mapping."""
    if identities.is_local(uri):
        tail = uri.rstrip("/").rsplit("/", 1)[-1]
        return int(tail) if tail.isdigit() and len(tail) <= 16 else None
    return store.object_status(uri)


def _mentions(note: dict[str, Any], author: RemoteActor) -> str:
    """``uid:login`` pairs of the accounts the Note mentions that are known here: local ones, and other
    servers' (``login@domain``) by their actor URI, so a direct message's participants are the same people on
    every server. The author is left out."""
    pairs = []
    remote_hrefs = []
    for tag in note.get("tag") or []:
        if not isinstance(tag, dict) or tag.get("type") != "Mention" or not isinstance(tag.get("href"), str):
            continue
        href = tag["href"]
        if identities.is_local(href):
            login = href.rstrip("/").rsplit("/@", 1)[-1]
            uid = timelines_store.users.get_uid_by_login(login.lower())
            if uid is not None:
                fields = timelines_store.users.get_user(uid)
                if fields and not fields.get("domain"):
                    pairs.append(f"{uid}:{fields['login']}")
        elif href != author.uri:
            remote_hrefs.append(href)
    if remote_hrefs:
        known = RemoteActor.objects.filter(uri__in=remote_hrefs[: text.MAX_MENTIONS])
        pairs += [f"{actor.uid}:{actor.username.lower()}@{actor.domain}" for actor in known]
    return ",".join(list(dict.fromkeys(pairs))[: text.MAX_MENTIONS])


def _local_recipients(mentions: str) -> dict[int, str]:
    return {uid: login for uid, login in mention_pairs(mentions) if not text.is_remote_mention(login)}


def _tags(note: dict[str, Any]) -> list[str]:
    found = []
    for tag in note.get("tag") or []:
        if isinstance(tag, dict) and tag.get("type") == "Hashtag" and isinstance(tag.get("name"), str):
            name = text.normalize_tag(tag["name"].lstrip("#"))
            if name and len(name) <= text.MAX_TAG_LENGTH and name.replace("_", "").isalnum():
                found.append(name)
    return list(dict.fromkeys(found))[: text.MAX_TAGS]


def store_note(*, note: dict[str, Any], author: RemoteActor) -> int | None:
    """Store remote ``note`` by ``author`` and deliver it to local followers; returns its status id (the one
    stored before, for a Note seen already), or None when it is not stored.

    A direct Note is a direct message: it lands in the conversation of its author and the people it mentions
    here (and notifies the local ones), under the same rules as a local message (``check_recipients``: a block,
    a private account that does not follow its author); it names no local person, or is refused, and it is not
    stored."""
    uri = note["id"]
    known = store.object_status(uri)
    if known is not None:
        return known
    level = visibility_of(note, author)
    mentions = _mentions(note, author)
    if level == visibilities.DIRECT:
        local = _local_recipients(mentions)
        if not local:
            return None
        recipients = [uid for uid, _ in mention_pairs(mentions)]
        try:
            check_recipients(author=author.uid, recipients=recipients, logins=local)
        except (exceptions.CannotMessage, exceptions.TooManyRecipients):
            return None
    profile, status_id, posted_micros = timelines_store.statuses.author_and_next_id(author.uid)
    if not profile:
        return None
    if store.claim_object(uri, status_id) != status_id:
        return store.object_status(uri)
    posted = posted_micros / 1_000_000
    fields: dict[str, Any] = {
        "message": plain_text(str(note.get("content") or "")),
        "posted": repr(posted),
        "id": status_id,
        "uid": author.uid,
        "login": f"{profile['login']}@{profile['domain']}",
        "name": profile.get("name") or profile["login"],
        "uri": uri,
        "url": note["url"] if isinstance(note.get("url"), str) else uri,
    }
    if isinstance(note.get("published"), str):
        fields["published"] = note["published"][:40]
    parent_uri = note.get("inReplyTo")
    parent = None
    if isinstance(parent_uri, str):
        parent_id = local_status_id(parent_uri)
        parent = timelines_store.statuses.get_status(parent_id) if parent_id else None
    if parent:
        fields["in_reply_to"] = int(parent["id"])
        fields["in_reply_to_uid"] = int(parent["uid"])
        fields["in_reply_to_login"] = parent["login"]
        fields["root"] = int(parent.get("root") or parent["id"])
    if mentions:
        fields["mentions"] = mentions
    tags = _tags(note)
    if tags:
        fields["tags"] = ",".join(tags)
    images = remote_media.images_of(note, author)
    if images:
        # Their records first (the hash names their tokens); dropped again when the post is not stored.
        try:
            fields["media"] = stored_media(remote_media.reserve(images, author=author, status_id=status_id))
        except Exception:
            store.release_object(uri)
            raise
        if note.get("sensitive") is True:
            fields["sensitive"] = "1"
    if level != visibilities.PUBLIC:
        fields["visibility"] = level
    if level == visibilities.DIRECT:
        stored = _store_message(fields, parent=parent)
        if images:
            queue.enqueue_remote_images(status_id=stored)
        return stored
    try:
        added, first = timelines_store.statuses.write_to_profile(
            author.uid, status_id, fields, posted, then_read=audience_keys(author.uid)
        )
    except Exception:
        _release(uri, status_id)
        raise
    if added < 0:
        _release(uri, status_id)
        return None
    if images:
        queue.enqueue_remote_images(status_id=status_id)
    if parent:
        timelines_store.conversations.add_reply(fields["in_reply_to"], status_id, posted)
        timelines_store.conversations.link_into_thread(fields["root"], status_id, fields["in_reply_to"])
    elif isinstance(parent_uri, str) and not identities.is_local(parent_uri):
        # It answers a post missing here: that post and those above it are fetched in a job
        # (``federation.services.ancestors``), once per missing post within the cooldown, which links every
        # post answering it (the orphans) under it.
        store.add_orphan(parent_uri, status_id)
        if store.claim_ancestors_fetch(parent_uri):
            queue.enqueue_ancestors(status_id=status_id, parent_uri=parent_uri)
    typed = {**fields, "posted": posted}
    deliver_status(status=typed, first=first)
    with timelines_store.batch.pipeline() as pipe:
        index_status(typed, pipe=pipe)
        record_post(uid=author.uid, when=posted, pipe=pipe)
        publish(events.status_created(typed), pipe=pipe)
        errors = timelines_store.batch.execute(pipe)
    if errors:
        logger.warning("A remote post's search words, counters or event failed: %s", errors[0])
    return status_id


def _release(uri: str, status_id: int) -> None:
    """Undo what ``store_note`` claimed for a post it could not store: its URI and its images' records."""
    store.release_object(uri)
    delete_media(status_id=status_id)


def _store_message(fields: dict[str, Any], *, parent: dict[str, str] | None) -> int:
    """The rest of ``store_note`` for a direct message, as ``post_status`` does a local one: its hash, its place
    in a thread, its conversation and notifications (``deliver_status``), the event; no profile, no home, no
    search index."""
    status_id, posted = int(fields["id"]), float(fields["posted"])
    try:
        timelines_store.statuses.write_status(status_id, fields)
    except Exception:
        _release(str(fields["uri"]), status_id)
        raise
    if parent:
        timelines_store.conversations.add_reply(fields["in_reply_to"], status_id, posted)
        timelines_store.conversations.link_into_thread(fields["root"], status_id, fields["in_reply_to"])
    typed = {**fields, "posted": posted}
    deliver_status(status=typed)
    publish(events.status_created(typed))
    return status_id


def delete_note(*, uri: str, author: RemoteActor) -> bool:
    """Delete the stored remote post ``uri`` when ``author`` wrote it; True when it was deleted."""
    status_id = store.object_status(uri)
    if status_id is None:
        return False
    fields = timelines_store.statuses.get_status(status_id)
    if not fields or int(fields["uid"]) != author.uid:
        return False
    delete_status(uid=author.uid, status_id=status_id)
    store.release_object(uri)
    return True


BACKFILL_ITEMS = 20


def _items(collection: dict[str, Any]) -> list[Any]:
    """The items of an outbox: its own ``orderedItems``, or its first page's (embedded or fetched)."""
    items = collection.get("orderedItems")
    if isinstance(items, list):
        return items
    first = collection.get("first")
    if isinstance(first, str):
        if not client.same_host(first, str(collection.get("id", ""))):
            return []
        first = client.fetch_object(first)
    if isinstance(first, dict) and isinstance(first.get("orderedItems"), list):
        return first["orderedItems"]
    return []


def backfill(*, author: RemoteActor) -> int:
    """Store the latest public posts of ``author`` found in its outbox (at most ``BACKFILL_ITEMS``, oldest
    first, so they keep their order), so its profile here shows them. Returns how many were stored. A post
    must be the author's own, on its host; an outbox that cannot be read stores nothing."""
    if not author.outbox:
        return 0
    try:
        items = _items(client.fetch_object(author.outbox))
    except client.FetchError:
        return 0
    notes = []
    for item in items[:BACKFILL_ITEMS]:
        note = item.get("object") if isinstance(item, dict) and item.get("type") == "Create" else None
        if (
            isinstance(note, dict)
            and note.get("type") == "Note"
            and isinstance(note.get("id"), str)
            and note.get("attributedTo") == author.uri
            and client.same_host(note["id"], author.uri)
            and visibility_of(note, author) == visibilities.PUBLIC
        ):
            notes.append(note)
    stored = 0
    for note in reversed(notes):  # outboxes list newest first
        if store.object_status(note["id"]) is None and store_note(note=note, author=author) is not None:
            stored += 1
    return stored
