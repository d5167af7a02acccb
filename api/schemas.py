"""Mastodon's entities as JSON Schemas (2020-12, as OpenAPI 3.1 takes them) for the OpenAPI description
(``api.openapi``): what ``api.entities`` shapes, each field with its type, the required ones listed (more fields
are allowed: clients ignore what they do not know). Entities refer to each other as ``#/components/schemas/X``."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

STRING: Schema = {"type": "string"}
TEXT_OR_NULL: Schema = {"type": ["string", "null"]}
BOOLEAN: Schema = {"type": "boolean"}
INTEGER: Schema = {"type": "integer"}
ID: Schema = {"type": "string", "pattern": "^[0-9]+$"}
DATE: Schema = {"type": "string", "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"}
ANY_OBJECT: Schema = {"type": "object"}
ANY_LIST: Schema = {"type": "array"}
EMPTY: Schema = {"type": "object", "maxProperties": 0}


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def entity(properties: dict[str, Schema], *, optional: tuple[str, ...] = ()) -> Schema:
    """An object with these properties, all required but ``optional``; more are allowed (clients ignore them)."""
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
    }


# Mastodon's notification types (the site sends some of them: api.entities.notifications).
NOTIFICATION_TYPES = [
    "mention",
    "status",
    "reblog",
    "follow",
    "follow_request",
    "favourite",
    "poll",
    "update",
    "admin.sign_up",
    "admin.report",
    "severed_relationships",
    "moderation_warning",
]

SCHEMAS: dict[str, Schema] = {
    "Error": entity({"error": STRING, "error_description": STRING}, optional=("error_description",)),
    "Account": entity(
        {
            "id": ID,
            "username": STRING,
            "acct": STRING,
            "display_name": STRING,
            "locked": BOOLEAN,
            "bot": BOOLEAN,
            "group": BOOLEAN,
            "discoverable": {"type": ["boolean", "null"]},
            "created_at": DATE,
            "note": STRING,
            "url": STRING,
            "uri": STRING,
            "avatar": STRING,
            "avatar_static": STRING,
            "header": STRING,
            "header_static": STRING,
            "followers_count": INTEGER,
            "following_count": INTEGER,
            "statuses_count": INTEGER,
            "last_status_at": TEXT_OR_NULL,
            "emojis": ANY_LIST,
            "fields": ANY_LIST,
            "source": ANY_OBJECT,
        },
        optional=("source",),
    ),
    "Mention": entity({"id": ID, "username": STRING, "acct": STRING, "url": STRING}),
    "StatusTag": entity({"name": STRING, "url": STRING}),
    "Tag": entity({"name": STRING, "url": STRING, "history": ANY_LIST, "following": BOOLEAN}),
    "Status": entity(
        {
            "id": ID,
            "uri": STRING,
            "url": TEXT_OR_NULL,
            "created_at": DATE,
            "edited_at": nullable(DATE),
            "account": ref("Account"),
            "content": STRING,
            "text": TEXT_OR_NULL,
            "visibility": {"enum": ["public", "unlisted", "private", "direct"]},
            "sensitive": BOOLEAN,
            "spoiler_text": STRING,
            "language": TEXT_OR_NULL,
            "media_attachments": array(ref("MediaAttachment")),
            "mentions": array(ref("Mention")),
            "tags": array(ref("StatusTag")),
            "emojis": ANY_LIST,
            "reblogs_count": INTEGER,
            "favourites_count": INTEGER,
            "replies_count": INTEGER,
            "in_reply_to_id": nullable(ID),
            "in_reply_to_account_id": nullable(ID),
            "reblog": nullable(ref("Status")),
            "poll": {"type": ["object", "null"]},
            "card": {"type": ["object", "null"]},
            "favourited": BOOLEAN,
            "reblogged": BOOLEAN,
            "muted": BOOLEAN,
            "bookmarked": BOOLEAN,
            "pinned": BOOLEAN,
        },
        optional=("text", "edited_at", "pinned"),
    ),
    "Context": entity({"ancestors": array(ref("Status")), "descendants": array(ref("Status"))}),
    "StatusEdit": entity(
        {"content": STRING, "spoiler_text": STRING, "sensitive": BOOLEAN, "created_at": DATE, "account": ref("Account")}
    ),
    "StatusSource": entity({"id": ID, "text": STRING, "spoiler_text": STRING}),
    "MediaAttachment": entity(
        {
            "id": ID,
            "type": {"enum": ["unknown", "image", "gifv", "video", "audio"]},
            "url": TEXT_OR_NULL,  # null while the upload is processed (202, 206)
            "preview_url": TEXT_OR_NULL,
            "remote_url": TEXT_OR_NULL,
            "meta": ANY_OBJECT,
            "description": TEXT_OR_NULL,
            "blurhash": TEXT_OR_NULL,
        }
    ),
    "Notification": entity(
        {
            "id": ID,
            "type": {"enum": NOTIFICATION_TYPES},
            "created_at": DATE,
            "account": ref("Account"),
            "status": nullable(ref("Status")),
            "event": ref("RelationshipSeveranceEvent"),
        },
        optional=("event",),
    ),
    "RelationshipSeveranceEvent": entity(
        {
            "id": ID,
            "type": {"enum": ["domain_block", "user_domain_block", "account_suspension"]},
            "purged": BOOLEAN,
            "target_name": {"type": "string"},
            "followers_count": INTEGER,
            "following_count": INTEGER,
            "created_at": DATE,
        }
    ),
    "Relationship": entity(
        {
            "id": ID,
            "following": BOOLEAN,
            "followed_by": BOOLEAN,
            "blocking": BOOLEAN,
            "blocked_by": BOOLEAN,
            "muting": BOOLEAN,
            "requested": BOOLEAN,
        }
    ),
    "Conversation": entity(
        {"id": ID, "unread": BOOLEAN, "accounts": array(ref("Account")), "last_status": nullable(ref("Status"))}
    ),
    "List": entity({"id": ID, "title": STRING, "replies_policy": STRING}),
    "FamiliarFollowers": entity({"id": ID, "accounts": array(ref("Account"))}),
    "Report": entity(
        {
            "id": ID,
            "action_taken": BOOLEAN,
            "action_taken_at": nullable(DATE),
            "category": {"enum": ["spam", "legal", "violation", "other"]},
            "comment": STRING,
            "forwarded": BOOLEAN,
            "created_at": DATE,
            "status_ids": nullable(array(ID)),
            "target_account": ref("Account"),
        }
    ),
    "Marker": entity({"last_read_id": ID, "version": INTEGER, "updated_at": DATE}),
    "Markers": {"type": "object", "properties": {"notifications": ref("Marker"), "home": ref("Marker")}},
    "Application": entity(
        {
            "name": STRING,
            "website": TEXT_OR_NULL,
            "scopes": array(STRING),
            "redirect_uris": array(STRING),
            "client_id": STRING,
            "client_secret": STRING,
        },
        optional=("website", "scopes", "redirect_uris", "client_id", "client_secret"),
    ),
    "Token": entity(
        {"access_token": STRING, "token_type": {"const": "Bearer"}, "scope": STRING, "created_at": INTEGER}
    ),
    "Search": entity(
        {"accounts": array(ref("Account")), "hashtags": array(ref("Tag")), "statuses": array(ref("Status"))}
    ),
    "Instance": entity(
        {"title": STRING, "version": {"type": "string", "pattern": r"^\d+\.\d+\.\d+"}, "configuration": ANY_OBJECT}
    ),
    "UnreadCount": entity({"count": INTEGER}),
}
