"""OAuth 2 as Mastodon's clients use it: registering an app, the authorize page, codes used once, PKCE,
client credentials, revoking, scopes enforced per endpoint, and tokens stored only as digests."""

from __future__ import annotations

import base64
import hashlib
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from api import oauth
from api.models import AccessToken, Application
from api.tests.helpers import PASSWORD, REDIRECT, Api, authorize, person, register_app, token_for

pytestmark = pytest.mark.django_db


def test_registering_an_app_returns_its_credentials_and_stores_no_secret():
    app = register_app(Client(), scopes="read write:statuses")
    assert app["name"] == "Test app"
    assert app["scopes"] == ["read", "write:statuses"]
    assert app["redirect_uris"] == [REDIRECT]
    stored = Application.objects.get(client_id=app["client_id"])
    assert app["client_secret"] not in stored.client_secret_digest


@pytest.mark.parametrize(
    "redirect", ["urn:ietf:wg:oauth:2.0:oob", "icecubesapp://callback", "https://a.example/cb http://b.example/cb"]
)
def test_apps_accept_oob_app_schemes_and_several_redirects(redirect):
    app = register_app(Client(), redirect=redirect)
    assert app["redirect_uris"] == redirect.split()


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"client_name": "", "redirect_uris": REDIRECT}, 422),
        ({"client_name": "x", "redirect_uris": ""}, 422),
        ({"client_name": "x", "redirect_uris": "javascript:alert(1)"}, 422),
        ({"client_name": "x", "redirect_uris": "not a uri"}, 422),
        ({"client_name": "x", "redirect_uris": REDIRECT, "scopes": "read admin:everything"}, 422),
    ],
)
def test_bad_app_registrations_are_422_with_an_error(data, status):
    response = Client().post("/api/v1/apps", data)
    assert response.status_code == status
    assert "error" in response.json()


def test_apps_also_register_from_json():
    response = Client().post(
        "/api/v1/apps",
        {"client_name": "Json app", "redirect_uris": [REDIRECT], "scopes": "read"},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert response.json()["redirect_uris"] == [REDIRECT]


def test_malformed_json_is_a_400_not_a_500():
    response = Client().post("/api/v1/apps", "{nope", content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"error": "The request body is not valid JSON"}


def test_the_authorize_page_asks_a_visitor_to_log_in_first():
    app = register_app(Client())
    query = {"client_id": app["client_id"], "redirect_uri": REDIRECT, "response_type": "code", "scope": "read"}
    response = Client().get("/oauth/authorize", query)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/oauth/authorize")


def test_the_authorize_page_names_the_app_and_its_scopes_with_authorize_and_deny():
    person("ada")
    app = register_app(Client())
    browser = Client()
    browser.login(username="ada", password=PASSWORD)
    query = {"client_id": app["client_id"], "redirect_uri": REDIRECT, "response_type": "code", "scope": "read"}
    page = browser.get("/oauth/authorize", query).content.decode()
    assert "Authorize Test app?" in page
    assert "<code>read</code>" in page
    assert ">Authorize</button>" in page and ">Deny</button>" in page
    denied = browser.post("/oauth/authorize", {**query, "state": "s1", "decision": "deny"})
    assert denied.status_code == 302
    assert parse_qs(urlsplit(denied["Location"]).query) == {"error": ["access_denied"], "state": ["s1"]}


def test_an_unregistered_redirect_is_refused_on_the_page_and_never_followed():
    person("ada")
    app = register_app(Client())
    browser = Client()
    browser.login(username="ada", password=PASSWORD)
    query = {"client_id": app["client_id"], "redirect_uri": "https://evil.example/", "response_type": "code"}
    response = browser.get("/oauth/authorize", query)
    assert response.status_code == 400
    assert "evil.example" not in response.get("Location", "")


def test_oob_shows_the_code_to_copy():
    person("ada")
    app = register_app(Client(), redirect="urn:ietf:wg:oauth:2.0:oob")
    browser = Client()
    browser.login(username="ada", password=PASSWORD)
    query = {"client_id": app["client_id"], "redirect_uri": "urn:ietf:wg:oauth:2.0:oob", "response_type": "code"}
    page = browser.post("/oauth/authorize", {**query, "decision": "authorize"})
    assert page.status_code == 200
    assert "Copy this code" in page.content.decode()


def test_a_code_gives_a_token_once_and_the_token_is_stored_hashed():
    person("ada")
    client = Client()
    app = register_app(client)
    code = authorize(app, "ada", "read write")
    data = {
        "grant_type": "authorization_code",
        "code": code,
        "client_id": app["client_id"],
        "client_secret": app["client_secret"],
        "redirect_uri": REDIRECT,
    }
    first = client.post("/oauth/token", data)
    assert first.status_code == 200
    body = first.json()
    assert body["token_type"] == "Bearer" and body["scope"] == "read write"
    assert isinstance(body["created_at"], int)
    assert not AccessToken.objects.filter(digest=body["access_token"]).exists()
    again = client.post("/oauth/token", data)
    assert again.status_code == 400
    assert again.json()["error"] == "invalid_grant"


def test_a_wrong_client_secret_is_refused():
    person("ada")
    client = Client()
    app = register_app(client)
    code = authorize(app, "ada", "read")
    response = client.post(
        "/oauth/token",
        {"grant_type": "authorization_code", "code": code, "client_id": app["client_id"], "client_secret": "no"},
    )
    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"


def test_pkce_s256_needs_the_matching_verifier():
    person("ada")
    client = Client()
    app = register_app(client)
    verifier = "v" * 64
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    pkce = {"code_challenge": challenge, "code_challenge_method": "S256"}
    base = {"grant_type": "authorization_code", "client_id": app["client_id"], "redirect_uri": REDIRECT}
    wrong = client.post(
        "/oauth/token", {**base, "code": authorize(app, "ada", "read", **pkce), "code_verifier": "w" * 64}
    )
    assert wrong.status_code == 400
    # A public client (no secret) with the right verifier gets its token.
    right = client.post(
        "/oauth/token", {**base, "code": authorize(app, "ada", "read", **pkce), "code_verifier": verifier}
    )
    assert right.status_code == 200, right.content


def test_the_password_grant_is_refused():
    person("ada")
    app = register_app(Client())
    response = Client().post(
        "/oauth/token",
        {
            "grant_type": "password",
            "username": "ada",
            "password": PASSWORD,
            "client_id": app["client_id"],
            "client_secret": app["client_secret"],
        },
    )
    assert response.status_code == 400
    assert response.json()["error"] == "unsupported_grant_type"


def test_client_credentials_give_an_app_token_that_is_no_person():
    client = Client()
    app = register_app(client)
    response = client.post(
        "/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": app["client_id"],
            "client_secret": app["client_secret"],
            "scope": "read",
        },
    )
    assert response.status_code == 200
    api = Api(response.json()["access_token"])
    assert api.get("/api/v1/apps/verify_credentials").json()["name"] == "Test app"
    assert api.get("/api/v1/accounts/verify_credentials").status_code == 422


def test_revoking_a_token_ends_it():
    person("ada")
    client = Client()
    app = register_app(client)
    code = authorize(app, "ada", "read")
    token = client.post(
        "/oauth/token",
        {
            "grant_type": "authorization_code",
            "code": code,
            "client_id": app["client_id"],
            "client_secret": app["client_secret"],
            "redirect_uri": REDIRECT,
        },
    ).json()["access_token"]
    assert Api(token).get("/api/v1/accounts/verify_credentials").status_code == 200
    revoked = client.post(
        "/oauth/revoke", {"client_id": app["client_id"], "client_secret": app["client_secret"], "token": token}
    )
    assert revoked.status_code == 200 and revoked.json() == {}
    gone = Api(token).get("/api/v1/accounts/verify_credentials")
    assert gone.status_code == 401
    assert gone.json() == {"error": "The access token is invalid"}


def test_a_token_without_write_scope_cannot_post():
    person("ada")
    api = Api(token_for("ada", scope="read"))
    response = api.post("/api/v1/statuses", {"status": "hello"})
    assert response.status_code == 403
    assert response.json() == {"error": "This action is outside the authorized scopes"}
    assert api.get("/api/v1/accounts/verify_credentials").status_code == 200


def test_granular_scopes_grant_only_their_part():
    person("ada")
    api = Api(token_for("ada", scope="write:statuses"))
    assert api.post("/api/v1/statuses", {"status": "hello"}).status_code == 200
    assert api.get("/api/v1/timelines/home").status_code == 403


def test_no_token_or_a_session_cookie_alone_is_401():
    person("ada")
    browser = Client()
    browser.login(username="ada", password=PASSWORD)
    response = browser.post("/api/v1/statuses", {"status": "from another origin"})
    assert response.status_code == 401
    assert response.json() == {"error": "The access token is invalid"}


def test_the_server_metadata_names_the_endpoints_and_grants():
    body = Client().get("/.well-known/oauth-authorization-server").json()
    assert body["token_endpoint"].endswith("/oauth/token")
    assert body["grant_types_supported"] == ["authorization_code", "client_credentials"]
    assert "write:statuses" in body["scopes_supported"]


def test_settings_list_the_authorized_apps_and_revoke_ends_their_tokens():
    person("ada")
    person("bob")
    ada_token, bob_token = token_for("ada"), token_for("bob")
    browser = Client()
    browser.login(username="ada", password=PASSWORD)
    page = browser.get("/settings/applications").content.decode()
    assert "Test app" in page and "read write follow" in page and ">Revoke</button>" in page
    app_id = AccessToken.objects.get(user__username="ada").application_id
    # Bob revoking Ada's app changes nothing of hers.
    other = Client()
    other.login(username="bob", password=PASSWORD)
    other.post(f"/settings/applications/{app_id}/revoke")
    assert Api(ada_token).get("/api/v1/accounts/verify_credentials").status_code == 200
    answer = browser.post(f"/settings/applications/{app_id}/revoke", follow=True)
    assert "Access revoked." in answer.content.decode()
    assert "You have not authorized any app." in answer.content.decode()
    assert Api(ada_token).get("/api/v1/accounts/verify_credentials").status_code == 401
    assert Api(bob_token).get("/api/v1/accounts/verify_credentials").status_code == 200


def test_a_token_is_read_back_with_its_person_as_stored_and_ends_with_them():
    """``find_token`` reads the token and its person in one SQL read: the same records the ORM gives, a person made
    inactive is refused on the very next call, and a deleted person's token stops working."""
    who = person("tess")
    raw = token_for("tess")
    found = oauth.find_token(raw)
    stored = AccessToken.objects.select_related("user").get(pk=found.pk)
    assert (found.digest, found.scopes, found.created, found.revoked) == (
        stored.digest,
        stored.scopes,
        stored.created,
        stored.revoked,
    )
    assert (found.user.pk, found.user.uid, found.user.is_active, found.user.date_joined) == (
        stored.user.pk,
        stored.user.uid,
        True,
        stored.user.date_joined,
    )
    tess = Api(raw)
    assert tess.get("/api/v1/accounts/verify_credentials").status_code == 200
    type(who).objects.filter(pk=who.pk).update(is_active=False)
    assert tess.get("/api/v1/accounts/verify_credentials").status_code == 401
    type(who).objects.filter(pk=who.pk).delete()
    assert oauth.find_token(raw) is None
    assert oauth.find_token("") is None and oauth.find_token("x" * 201) is None
