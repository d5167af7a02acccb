"""The ActivityPub documents socialsite serves and sends, built from its plain records: actors (``Person``),
``Note`` objects, collections and the activities that carry them. Nothing here reads or writes anything.

Addressing follows Mastodon for the four visibilities (``timelines.visibility``):

========== ===================================== ==================================
visibility ``to``                                ``cc``
========== ===================================== ==================================
public     the public collection                 followers, the people mentioned
unlisted   followers                             the public collection, mentioned
private    followers                             the people mentioned
direct     the people mentioned                  (none)
========== ===================================== ==================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from api.entities.common import html_at
from federation import contexts, identities
from media import capabilities
from timelines import text
from timelines import visibility as visibilities
from timelines.records import MediaItem, Status, User


def iso(timestamp: float) -> str:
    """A Unix time as ActivityPub dates are written (UTC, seconds, ``Z``)."""
    return datetime.fromtimestamp(max(0.0, float(timestamp)), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def person(user: User, *, public_key_pem: str) -> dict[str, Any]:
    """The actor of local account ``user``."""
    uri = identities.actor(user.login)
    base = identities.base()
    document: dict[str, Any] = {
        "@context": contexts.ACTOR_CONTEXT,
        "id": uri,
        "type": "Person",
        "preferredUsername": user.login,
        "name": user.name,
        "summary": html_at(base, user.bio, user.bio_mentions) if user.bio else "",
        "url": uri,
        "inbox": identities.inbox(user.login),
        "outbox": identities.outbox(user.login),
        "followers": identities.followers(user.login),
        "following": identities.following(user.login),
        "featured": identities.featured(user.login),
        "manuallyApprovesFollowers": user.private,
        "discoverable": True,
        "published": iso(user.signup),
        "endpoints": {"sharedInbox": identities.shared_inbox()},
        "publicKey": {"id": identities.key_id(uri), "owner": uri, "publicKeyPem": public_key_pem},
        # The account's picture (its file's URL, which changes with it, so other servers fetch a new one), or the
        # generated default one, as its profile shows it.
        "icon": {
            "type": "Image",
            "url": f"{base}/media/{user.avatar}/original" if user.avatar else f"{base}/@{user.login}/avatar",
        },
    }
    if user.header:
        document["image"] = {"type": "Image", "url": f"{base}/media/{user.header}/original"}
    return document


def instance_actor(*, public_key_pem: str) -> dict[str, Any]:
    """The instance actor (Mastodon's ``Application`` actor), which signs fetches made for the server itself."""
    uri = identities.instance_actor()
    return {
        "@context": contexts.ACTOR_CONTEXT,
        "id": uri,
        "type": "Application",
        "preferredUsername": identities.INSTANCE_ACTOR_NAME,
        "name": identities.INSTANCE_ACTOR_NAME,
        "url": identities.base() + "/",
        "inbox": identities.shared_inbox(),
        "outbox": f"{uri}/outbox",
        "manuallyApprovesFollowers": True,
        "endpoints": {"sharedInbox": identities.shared_inbox()},
        "publicKey": {"id": identities.key_id(uri), "owner": uri, "publicKeyPem": public_key_pem},
    }


def addressing(*, level: str, followers: str, mentioned: Sequence[str]) -> tuple[list[str], list[str]]:
    """``(to, cc)`` of a post of visibility ``level`` by the author whose followers collection is ``followers``."""
    mentioned = list(mentioned)
    if level == visibilities.PUBLIC:
        return [contexts.PUBLIC], [followers, *mentioned]
    if level == visibilities.UNLISTED:
        return [followers], [contexts.PUBLIC, *mentioned]
    if level == visibilities.PRIVATE:
        return [followers], mentioned
    return mentioned, []


def attachment(item: MediaItem, *, media_type: str, keyed: bool = False) -> dict[str, Any]:
    """The ``Document`` of one image of a local post, as Mastodon sends it: its URL, type, alt text (``name``),
    blurhash, size and focal point. ``keyed``: the post is not public, so its URL carries the image's capability
    key (``media.capabilities``) for the servers it is sent to."""
    url = identities.base() + item.url
    document: dict[str, Any] = {
        "type": "Document",
        "mediaType": media_type,
        "url": capabilities.keyed_url(url, item.token) if keyed else url,
        "name": item.description or None,
        "blurhash": item.blurhash or None,
        "width": item.width,
        "height": item.height,
        "focalPoint": [item.focus_x, item.focus_y],
    }
    return document


def note(
    status: Status,
    *,
    mentioned: Sequence[tuple[str, str]] = (),
    in_reply_to: str | None = None,
    media_types: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """The ``Note`` of local ``status``. ``mentioned``: (actor URI, acct) of the people it mentions;
    ``in_reply_to``: the URI of the post it answers; ``media_types``: the content type of each of its images by
    id (``image/jpeg`` when unknown)."""
    base = identities.base()
    to, cc = addressing(
        level=status.visibility,
        followers=identities.followers(status.login),
        mentioned=[uri for uri, _ in mentioned],
    )
    tags: list[dict[str, str]] = [{"type": "Mention", "href": uri, "name": f"@{acct}"} for uri, acct in mentioned]
    tags += [{"type": "Hashtag", "href": f"{base}/tags/{tag}", "name": f"#{tag}"} for tag in status.tags]
    uri = identities.status(status.login, status.id)
    document: dict[str, Any] = {
        "id": uri,
        "type": "Note",
        "attributedTo": identities.actor(status.login),
        "content": html_at(base, status.message, status.mention_logins),
        "source": {"content": status.message, "mediaType": "text/plain"},
        "published": iso(status.posted),
        "url": uri,
        "to": to,
        "cc": cc,
        "inReplyTo": in_reply_to,
        "sensitive": bool(status.sensitive),
        "tag": tags,
        "attachment": [
            attachment(
                item,
                media_type=(media_types or {}).get(item.id, "image/jpeg"),
                keyed=status.visibility not in (visibilities.PUBLIC, visibilities.UNLISTED),
            )
            for item in status.media
            if not item.remote_url
        ],
    }
    if status.edited_at:
        document["updated"] = iso(status.edited_at)
    document["replies"] = replies_collection(identities.replies(status.login, status.id))
    return document


def replies_collection(identifier: str, items: Sequence[str] | None = None) -> dict[str, Any]:
    """A post's ``replies`` as Mastodon shapes it: a ``Collection`` whose embedded ``first`` page holds
    ``items`` (reply URIs). In a Note it carries none and its ``next`` is the page that lists them, so serving a
    Note reads no reply."""
    first: dict[str, Any] = {
        "id": f"{identifier}?page=true",
        "type": "CollectionPage",
        "partOf": identifier,
        "items": list(items or ()),
    }
    if items is None:
        first = {"id": f"{identifier}?page=first", "type": "CollectionPage", "partOf": identifier, "items": []}
        first["next"] = f"{identifier}?page=true"
    return {"id": identifier, "type": "Collection", "first": first}


def collection_page(identifier: str, items: Sequence[str]) -> dict[str, Any]:
    """The page of a post's replies that lists them (``replies_collection``'s ``next``)."""
    return {
        "@context": contexts.ACTIVITYSTREAMS,
        "id": f"{identifier}?page=true",
        "type": "CollectionPage",
        "partOf": identifier,
        "items": list(items),
    }


def with_context(document: dict[str, Any]) -> dict[str, Any]:
    return {"@context": contexts.OBJECT_CONTEXT, **document}


def create(note_document: dict[str, Any]) -> dict[str, Any]:
    """The ``Create`` of a Note, addressed as the Note is."""
    return {
        "@context": contexts.OBJECT_CONTEXT,
        "id": f"{note_document['id']}/activity",
        "type": "Create",
        "actor": note_document["attributedTo"],
        "published": note_document["published"],
        "to": note_document["to"],
        "cc": note_document["cc"],
        "object": note_document,
    }


def update(note_document: dict[str, Any]) -> dict[str, Any]:
    """The ``Update`` of an edited Note, addressed as the Note is (one id per version)."""
    return {
        "@context": contexts.OBJECT_CONTEXT,
        "id": f"{note_document['id']}#updates/{note_document.get('updated', '')}",
        "type": "Update",
        "actor": note_document["attributedTo"],
        "to": note_document["to"],
        "cc": note_document["cc"],
        "object": note_document,
    }


def delete(*, actor: str, object_uri: str, to: Sequence[str], cc: Sequence[str] = ()) -> dict[str, Any]:
    """The ``Delete`` of a post, which leaves a ``Tombstone``."""
    return {
        "@context": contexts.OBJECT_CONTEXT,
        "id": f"{object_uri}#delete",
        "type": "Delete",
        "actor": actor,
        "to": list(to),
        "cc": list(cc),
        "object": {"id": object_uri, "type": "Tombstone"},
    }


def follow(*, identifier: str, actor: str, target: str) -> dict[str, Any]:
    return {"@context": contexts.ACTIVITYSTREAMS, "id": identifier, "type": "Follow", "actor": actor, "object": target}


def accept(*, identifier: str, actor: str, follow_activity: dict[str, Any]) -> dict[str, Any]:
    return {
        "@context": contexts.ACTIVITYSTREAMS,
        "id": identifier,
        "type": "Accept",
        "actor": actor,
        "object": follow_activity,
    }


def undo(*, identifier: str, actor: str, activity: dict[str, Any]) -> dict[str, Any]:
    inner = {key: value for key, value in activity.items() if key != "@context"}
    return {"@context": contexts.ACTIVITYSTREAMS, "id": identifier, "type": "Undo", "actor": actor, "object": inner}


def ordered_collection(*, identifier: str, total: int, items: Iterable[dict[str, Any]] | None = None) -> dict[str, Any]:
    """An ``OrderedCollection`` with its count, and its items when they are shown."""
    document: dict[str, Any] = {
        "@context": contexts.ACTIVITYSTREAMS,
        "id": identifier,
        "type": "OrderedCollection",
        "totalItems": total,
    }
    if items is not None:
        document["orderedItems"] = list(items)
    return document


def tag_name(value: str) -> str:
    return text.normalize_tag(value.lstrip("#"))
