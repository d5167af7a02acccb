"""The client API's own middleware chain on the live server (``socialsite.django_handler``,
``settings.API_MIDDLEWARE``): a bearer token is all that counts, the answers do not vary on cookies, and the
security headers, JSON errors and refusals of the full chain are still there."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from api.tests.helpers import PASSWORD, person, token_for
from socialsite import testing
from timelines import services

pytestmark = pytest.mark.django_db(transaction=True)


def _get(url: str, headers: dict[str, str]) -> tuple[int, Any, Any]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=testing.WAIT_SECONDS) as response:
            return response.status, response.headers, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.loads(error.read())


def test_an_api_answer_depends_on_the_token_only_and_keeps_the_security_headers(site):
    reader = person("chainreader")
    author = person("chainauthor")
    services.follow_user(uid=reader.uid, other_uid=author.uid)
    services.post_status(uid=author.uid, message="hello over the API chain")
    headers = {"Authorization": f"Bearer {token_for('chainreader', 'read')}"}
    status, answer_headers, body = _get(site + "/api/v1/timelines/home?limit=20", headers)
    assert status == 200
    assert [item["content"] for item in body] == ["<p>hello over the API chain</p>"]
    # A shared cache may keep the answer for every holder of the token: it never depended on a cookie (the full
    # chain read the session on every call and said "Vary: Cookie").
    assert "cookie" not in (answer_headers.get("Vary") or "").lower()
    assert answer_headers.get("Set-Cookie") is None
    assert answer_headers["X-Content-Type-Options"] == "nosniff"
    assert answer_headers["X-Frame-Options"] == settings.X_FRAME_OPTIONS
    assert answer_headers["Access-Control-Allow-Origin"] == "*"
    assert answer_headers["X-RateLimit-Limit"]


def test_a_site_session_alone_is_no_one_to_the_api(site):
    person("chaincookie")
    browser = Client()
    assert browser.login(username="chaincookie", password=PASSWORD)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    status, _headers, body = _get(site + "/api/v1/timelines/home", {"Cookie": cookie})
    assert (status, body) == (401, {"error": "The access token is invalid"})
    status, _headers, body = _get(site + "/api/v1/no/such/endpoint", {"Cookie": cookie})
    assert (status, body) == (404, {"error": "Record not found"})


def test_every_api_path_is_a_token_endpoint_so_the_short_chain_misses_nothing():
    """The short chain has no session: a view under ``/api/`` that read one (a page, a form with messages)
    would break on the live server only. Every route there must be an ``api.http.endpoint``."""

    def walk(resolver: URLResolver, prefix: str = ""):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield (prefix + str(pattern.pattern)).replace("^", ""), pattern.callback

    prefix = settings.API_PATH_PREFIX.lstrip("/")
    api_routes = [(path, view) for path, view in walk(get_resolver()) if path.startswith(prefix)]
    assert len(api_routes) > 50
    assert [path for path, view in api_routes if not hasattr(view, "api_methods")] == []
