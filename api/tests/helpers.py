"""Personas and tokens for the API's tests: people signed up as on the site, and tokens obtained through the
real OAuth flow (register an app, authorize as the person, exchange the code)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from django.test import Client

from accounts.services import sign_up

PASSWORD = "a long enough password 42"
REDIRECT = "https://app.example/callback"


def person(login: str) -> Any:
    return sign_up(login=login, name=login.title(), password=PASSWORD)


def register_app(client: Client, scopes: str = "read write follow", redirect: str = REDIRECT) -> dict[str, Any]:
    response = client.post("/api/v1/apps", {"client_name": "Test app", "redirect_uris": redirect, "scopes": scopes})
    assert response.status_code == 200, response.content
    return response.json()


def authorize(app: dict[str, Any], login: str, scope: str, **extra: str) -> str:
    """Log in as ``login`` on the site, press Authorize, and return the code the redirect carries."""
    browser = Client()
    assert browser.login(username=login, password=PASSWORD)
    query = {
        "client_id": app["client_id"],
        "redirect_uri": REDIRECT,
        "response_type": "code",
        "scope": scope,
        "state": "xyz",
        **extra,
    }
    page = browser.get("/oauth/authorize", query)
    assert page.status_code == 200, page.content
    response = browser.post("/oauth/authorize", {**query, "decision": "authorize"})
    assert response.status_code == 302, response.content
    params = parse_qs(urlsplit(response["Location"]).query)
    assert params["state"] == ["xyz"]
    return params["code"][0]


def token_for(login: str, scope: str = "read write follow", **extra: str) -> str:
    client = Client()
    app = register_app(client)
    code = authorize(app, login, scope)
    response = client.post(
        "/oauth/token",
        {
            "grant_type": "authorization_code",
            "code": code,
            "client_id": app["client_id"],
            "client_secret": app["client_secret"],
            "redirect_uri": REDIRECT,
            **extra,
        },
    )
    assert response.status_code == 200, response.content
    return response.json()["access_token"]


class Api:
    """A client that sends a bearer token on every call."""

    def __init__(self, token: str | None) -> None:
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, params: dict[str, Any] | None = None) -> Any:
        return self.client.get(path, params or {}, headers=self.headers)

    def post(self, path: str, data: dict[str, Any] | None = None, **headers: str) -> Any:
        return self.client.post(path, data or {}, headers={**self.headers, **headers})

    def delete(self, path: str) -> Any:
        return self.client.delete(path, headers=self.headers)
