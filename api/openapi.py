"""The OpenAPI 3.1 description of what the ``api`` app serves (``GET /api/openapi.json``), built from the code: the
paths, methods, scopes and authentication come from the URL resolver and the ``endpoint`` decorator
(``api.http``); what each answers comes from ``RESPONSES`` below, which names one of the entity schemas of
``api.schemas.SCHEMAS`` per URL name and method (Mastodon's entities as ``api.entities`` shapes them). Nothing is
copied by hand from elsewhere: a new endpoint appears here as soon as it is routed, with a plain JSON answer until
``RESPONSES`` names its entity.

Every error is Mastodon's ``{"error": "..."}`` (``Error``), documented as the ``default`` answer of every
operation. The test suite checks real answers against these schemas (``api/tests/test_openapi.py``) and fuzzes
the live server with Schemathesis from this very description.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from api.schemas import ANY_LIST, ANY_OBJECT, BOOLEAN, EMPTY, SCHEMAS, STRING, Schema, array, entity, ref
from api.views.instance import SOFTWARE_VERSION

# What each endpoint answers with a 2xx, by URL name and method: a schema name, [name] for a list of them, or a
# schema. An endpoint missing here answers "some JSON" in the description.
RESPONSES: dict[str, dict[str, str | list[str] | Schema]] = {
    "server_metadata": {"GET": ANY_OBJECT},
    "nodeinfo_links": {"GET": entity({"links": ANY_LIST})},
    "nodeinfo": {"GET": entity({"version": STRING, "software": ANY_OBJECT})},
    "webfinger": {"GET": entity({"subject": STRING, "links": ANY_LIST})},
    "token": {"POST": "Token"},
    "revoke": {"POST": EMPTY},
    "apps": {"POST": "Application"},
    "verify_app": {"GET": "Application"},
    "instance_v1": {"GET": "Instance"},
    "instance_v2": {"GET": "Instance"},
    "custom_emojis": {"GET": ANY_LIST},
    "announcements": {"GET": ANY_LIST},
    "filters_v1": {"GET": ANY_LIST},
    "filters_v2": {"GET": ANY_LIST},
    "register": {"POST": "Token"},
    "verify_credentials": {"GET": "Account"},
    "update_credentials": {"PATCH": "Account"},
    "account_lookup": {"GET": "Account"},
    "relationships": {"GET": ["Relationship"]},
    "account": {"GET": "Account"},
    "account_statuses": {"GET": ["Status"]},
    "followers": {"GET": ["Account"]},
    "following": {"GET": ["Account"]},
    **{name: {"POST": "Relationship"} for name in ("follow", "unfollow", "block", "unblock", "mute", "unmute")},
    "blocks": {"GET": ["Account"]},
    "mutes": {"GET": ["Account"]},
    "media_v1": {"POST": "MediaAttachment"},
    "media_v2": {"POST": "MediaAttachment"},
    "media": {"GET": "MediaAttachment", "PUT": "MediaAttachment"},
    "statuses": {"POST": "Status"},
    "status": {"GET": "Status", "PUT": "Status", "DELETE": "Status"},
    "status_history": {"GET": ["StatusEdit"]},
    "status_source": {"GET": "StatusSource"},
    "context": {"GET": "Context"},
    **{
        name: {"POST": "Status"}
        for name in ("favourite", "unfavourite", "reblog", "unreblog", "bookmark", "unbookmark")
    },
    "favourited_by": {"GET": ["Account"]},
    "reblogged_by": {"GET": ["Account"]},
    "bookmarks": {"GET": ["Status"]},
    "favourites": {"GET": ["Status"]},
    "tag_detail": {"GET": "Tag"},
    "follow_tag": {"POST": "Tag"},
    "unfollow_tag": {"POST": "Tag"},
    "followed_tags": {"GET": ["Tag"]},
    "conversations": {"GET": ["Conversation"]},
    "conversation": {"DELETE": EMPTY},
    "conversation_read": {"POST": "Conversation"},
    "home": {"GET": ["Status"]},
    "public": {"GET": ["Status"]},
    "tag": {"GET": ["Status"]},
    "notifications": {"GET": ["Notification"]},
    "unread_count": {"GET": "UnreadCount"},
    "clear_notifications": {"POST": EMPTY},
    "notification": {"GET": "Notification"},
    "dismiss_notification": {"POST": EMPTY},
    "search": {"GET": "Search"},
    "preferences": {"GET": ANY_OBJECT},
    "markers": {"GET": "Markers", "POST": "Markers"},
    "follow_requests": {"GET": ["Account"]},
    "authorize_follow_request": {"POST": "Relationship"},
    "reject_follow_request": {"POST": "Relationship"},
    "lists": {"GET": ["List"], "POST": "List"},
    "list": {"GET": "List", "PUT": "List", "DELETE": EMPTY},
    "list_accounts": {"GET": ["Account"], "POST": EMPTY, "DELETE": EMPTY},
    "account_search": {"GET": ["Account"]},
    "familiar_followers": {"GET": ["FamiliarFollowers"]},
    "reports": {"POST": "Report"},
    "list_timeline": {"GET": ["Status"]},
    "openapi": {"GET": ANY_OBJECT},
}

# Plain Django views (not ``api.http.endpoint``) that answer JSON to GET; the rest (the consent page, the
# authorized-apps pages) are pages for people, not part of the API.
PLAIN_JSON_VIEWS = frozenset({"server_metadata", "nodeinfo_links", "nodeinfo", "webfinger", "openapi"})

PAGING = ("max_id", "since_id", "min_id", "limit")
# Query parameters Mastodon documents, by URL name (the paging ones for every list answered with Link pages).
QUERY: dict[str, tuple[str, ...]] = {
    "webfinger": ("resource",),
    "account_lookup": ("acct",),
    "account_search": ("q", "limit", "offset", "resolve", "following"),
    "familiar_followers": ("id[]",),
    "relationships": ("id[]",),
    "account_statuses": (*PAGING, "exclude_replies", "exclude_reblogs", "pinned", "only_media"),
    "followers": PAGING,
    "following": PAGING,
    "home": PAGING,
    "public": (*PAGING, "local", "remote", "only_media"),
    "tag": PAGING,
    "list_timeline": PAGING,
    "notifications": (*PAGING, "types[]", "exclude_types[]"),
    "bookmarks": PAGING,
    "favourites": PAGING,
    "followed_tags": PAGING,
    "conversations": PAGING,
    "search": ("q", "type", "resolve", "offset", "limit", "max_id"),
    "markers": ("timeline[]",),
}
# Form or JSON bodies, by URL name: the fields Mastodon documents.
BODIES: dict[str, dict[str, Schema]] = {
    "statuses": {
        "status": STRING,
        "in_reply_to_id": STRING,
        "visibility": {"enum": ["public", "unlisted", "private", "direct"]},
        "spoiler_text": STRING,
        "sensitive": BOOLEAN,
        "language": STRING,
    },
    "apps": {"client_name": STRING, "redirect_uris": STRING, "scopes": STRING, "website": STRING},
    "token": {
        "grant_type": STRING,
        "code": STRING,
        "client_id": STRING,
        "client_secret": STRING,
        "redirect_uri": STRING,
        "code_verifier": STRING,
        "scope": STRING,
    },
    "revoke": {"client_id": STRING, "client_secret": STRING, "token": STRING},
    "register": {
        "username": STRING,
        "email": STRING,
        "password": STRING,
        "agreement": BOOLEAN,
        "locale": STRING,
    },
    "update_credentials": {"display_name": STRING, "note": STRING, "locked": BOOLEAN},
    "media": {"description": STRING, "focus": STRING},
    "status": {"status": STRING, "spoiler_text": STRING, "sensitive": BOOLEAN, "language": STRING},
    "markers": {"notifications[last_read_id]": STRING, "home[last_read_id]": STRING},
    "lists": {"title": STRING, "replies_policy": STRING, "exclusive": BOOLEAN},
    "list": {"title": STRING, "replies_policy": STRING, "exclusive": BOOLEAN},
    "list_accounts": {"account_ids[]": {"type": "array", "items": STRING}},
    "reports": {
        "account_id": STRING,
        "status_ids[]": {"type": "array", "items": STRING},
        "comment": STRING,
        "forward": BOOLEAN,
        "category": {"enum": ["spam", "legal", "violation", "other"]},
    },
}

# Uploads (multipart forms with a file), by URL name.
_PICTURE = {"file": {"type": "string", "format": "binary"}, "description": STRING, "focus": STRING}
UPLOADS: dict[str, dict[str, Schema]] = {"media_v1": _PICTURE, "media_v2": _PICTURE}

_GROUP = re.compile(r"\(\?P<(\w+)>[^)]*\)")


def path_of(pattern: URLPattern) -> tuple[str, list[str]]:
    """The OpenAPI path template of a route (``/api/v1/statuses/{status_id}``) and its parameters' names."""
    regex = pattern.pattern.regex.pattern
    names = _GROUP.findall(regex)
    text = _GROUP.sub(lambda found: "{" + found.group(1) + "}", regex)
    text = text.removeprefix("^").removesuffix("\\Z").removesuffix("$").removesuffix("/?")
    return "/" + text.replace("\\", ""), names


def _content(schema: str | list[str] | Schema) -> Schema:
    if isinstance(schema, str):
        shaped = ref(schema)
    elif isinstance(schema, list):
        shaped = array(ref(schema[0]))
    else:
        shaped = schema
    return {"application/json": {"schema": shaped}}


def _operation(name: str, method: str, view: Any, parameters: list[str]) -> Schema:
    scopes = getattr(view, "api_scopes", {}).get(method)
    auth = getattr(view, "api_auth", "none")
    operation: Schema = {
        "operationId": f"{name}_{method.lower()}",
        "parameters": [
            {"name": parameter, "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}
            for parameter in parameters
        ]
        + [
            {"name": parameter, "in": "query", "required": False, "schema": STRING}
            for parameter in QUERY.get(name, ())
            if method == "GET"
        ],
        "responses": {
            "200": {"description": "Success", "content": _content(RESPONSES.get(name, {}).get(method, ANY_OBJECT))},
            "default": {"description": "Mastodon's error", "content": _content("Error")},
        },
    }
    # Large uploads are processed by a job (api/views/media.py): accepted with 202, 206 while processing.
    processing = {("media_v2", "POST"): "202", ("media", "GET"): "206", ("media", "PUT"): "206"}.get((name, method))
    if processing:
        operation["responses"][processing] = {"description": "Processing", "content": _content("MediaAttachment")}
    if name == "webfinger":
        operation["responses"]["200"]["content"]["application/jrd+json"] = operation["responses"]["200"]["content"][
            "application/json"
        ]
    if auth in ("user", "app"):
        operation["security"] = [{"bearer": [scopes] if isinstance(scopes, str) else list(scopes or ())}]
    elif auth == "optional":
        operation["security"] = [{}, {"bearer": [scopes] if isinstance(scopes, str) else list(scopes or ())}]
    if name in UPLOADS and method == "POST":
        form = {"type": "object", "properties": UPLOADS[name], "required": ["file"]}
        operation["requestBody"] = {"required": True, "content": {"multipart/form-data": {"schema": form}}}
    elif name in BODIES and method in ("POST", "PUT", "PATCH"):
        fields = {"type": "object", "properties": BODIES[name]}
        operation["requestBody"] = {
            "required": False,
            "content": {
                "application/json": {"schema": fields},
                "application/x-www-form-urlencoded": {"schema": fields},
            },
        }
    return operation


def api_routes() -> list[URLPattern]:
    """The routes of the ``api`` namespace, as the site's URL resolver holds them."""
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and entry.namespace == "api":
            return [pattern for pattern in entry.url_patterns if isinstance(pattern, URLPattern)]
    return []


@cache
def describe() -> Schema:
    """The whole description (made once per process: the routes do not change while it runs)."""
    paths: dict[str, Schema] = {}
    for pattern in api_routes():
        name, view = pattern.name, pattern.callback
        methods = getattr(view, "api_methods", None)
        if methods is None:
            if name not in PLAIN_JSON_VIEWS:
                continue
            methods = frozenset({"GET"})
        template, parameters = path_of(pattern)
        paths[template] = {method.lower(): _operation(name, method, view, parameters) for method in sorted(methods)}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "socialsite client API (Mastodon-compatible)",
            "version": SOFTWARE_VERSION,
            "description": "What socialsite's api app serves, generated from its routes (api/openapi.py).",
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
