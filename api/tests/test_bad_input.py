"""Bad input never makes the API answer 500: every route of the ``api`` namespace (read from the URL resolver, so a
new one is covered at once), with every method, bad ids, junk parameters and bodies that are malformed JSON, the
wrong JSON types or huge, answers below 500, and an ``/api/`` error is JSON with an ``error``."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver

from api.tests.helpers import person, token_for

pytestmark = pytest.mark.django_db

BAD_IDS = ["abc", "²", "9" * 5000, "-1", "0", "1", "1.5", "%00", "1e3"]
METHODS = ["get", "post", "put", "patch", "delete"]
QUERIES = [
    {"limit": "-5", "max_id": "1e3", "since_id": "²", "min_id": "-1"},
    {"limit": "9" * 400, "types[]": ["x", "mention"], "exclude_types[]": "x", "id[]": ["a", "1"]},
    {"acct": "@@@", "q": "\u200b", "type": "statuses", "offset": "x", "local": "maybe", "pinned": "1"},
]
BODIES: list[tuple[str | bytes, str]] = [
    ("{nope", "application/json"),
    ("[1, 2]", "application/json"),
    (
        json.dumps({"status": {"a": 1}, "in_reply_to_id": True, "visibility": ["public"], "limit": [1]}),
        "application/json",
    ),
    (json.dumps({"status": "x" * 100_000, "client_name": ["a"], "redirect_uris": {"a": 1}}), "application/json"),
    (json.dumps({"display_name": 5, "note": None, "locked": "perhaps", "agreement": {}}), "application/json"),
    ("status=%ff%fe&in_reply_to_id=%00&visibility=direct", "application/x-www-form-urlencoded"),
    (b"status=\xff\xfe&scope=\xc3", "application/x-www-form-urlencoded"),
    (b'{"status": "\xff"}', "application/json"),
    (b"--x\r\nContent-Disposition: form-data; name=status\r\n\r\nhi\r\n--x--", "multipart/form-data; boundary=x"),
]


def api_routes() -> list[tuple[str, list[str]]]:
    """(regex, its group names) of every route of the ``api`` namespace."""
    routes = []
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and entry.namespace == "api":
            for pattern in entry.url_patterns:
                routes.append((pattern.pattern.regex.pattern, list(pattern.pattern.regex.groupindex)))
    return routes


def fill(regex: str, groups: list[str], value: str) -> str:
    path = regex.removeprefix("^").removesuffix("/?$").removesuffix("$").replace("\\.", ".")
    for group in groups:
        path = path.replace(f"(?P<{group}>[^/]+)", value).replace(f"(?P<{group}>[0-9]+)", "1")
    path = path.replace("<int:application_id>", "1")
    return "/" + path


def check(response, where: str) -> None:
    assert response.status_code < 500, f"{where}: {response.status_code}"
    if where.split()[1].startswith(("/api/", "/oauth/token", "/oauth/revoke")) and response.status_code >= 400:
        body = response.json()
        assert isinstance(body, dict) and "error" in body, where


def test_no_route_answers_500_to_bad_input():
    person("ada")
    person("bob")
    token = token_for("ada")
    client = Client(raise_request_exception=False)
    client.login(username="ada", password="a long enough password 42")
    headers = {"Authorization": f"Bearer {token}"}
    rng = random.Random(20)
    routes = api_routes()
    assert len(routes) > 40
    tried = 0
    for regex, groups in routes:
        if "settings/applications" in regex and groups:
            continue  # an int route of the site's own (Django refuses anything but digits with its 404 page)
        values = BAD_IDS if groups else [""]
        for value in values:
            path = fill(regex, groups, value)
            for method in METHODS:
                send = getattr(client, method)
                check(send(path, rng.choice(QUERIES) if method == "get" else None, headers=headers), f"{method} {path}")
                if method != "get":
                    # Every body on the route's first path, one of them (in turn) on the others.
                    bodies = BODIES if value == values[0] else [BODIES[tried % len(BODIES)]]
                    for body, content_type in bodies:
                        response = send(path, body, content_type=content_type, headers=headers)
                        check(response, f"{method} {path} {body[:30]!r}")
                tried += 1
    # And with a malformed or unknown token.
    for bad in ("Bearer", "Bearer " + "x" * 5000, "Basic abc", "Bearer \u00e9"):
        response = client.get("/api/v1/timelines/home", headers={"Authorization": bad})
        check(response, "get /api/v1/timelines/home")
        assert response.status_code == 401
    assert tried > 200
