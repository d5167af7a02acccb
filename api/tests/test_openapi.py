"""The OpenAPI description (``api.openapi``, served at ``/api/openapi.json``) against real answers: every
endpoint of the ``api`` namespace is described with its methods, every JSON read answers 200 with a body that
matches its documented schema in a world where each has something to show, the main writes too, and errors
match ``Error``. The live fuzzing with Schemathesis is ``test_schemathesis.py``."""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from api.openapi import RESPONSES, api_routes, describe
from api.schemas import SCHEMAS
from api.tests.helpers import Api, person, token_for
from media import services as media_services
from media.tests import images
from timelines import selectors, services

pytestmark = pytest.mark.django_db


def validator(schema: dict[str, Any]) -> Any:
    return jsonschema_rs.validator_for({**schema, "components": {"schemas": SCHEMAS}})


def check(body: Any, operation: dict[str, Any], status: int = 200) -> list[str]:
    answers = operation["responses"]
    documented = answers.get(str(status)) or answers["default"]
    schema = documented["content"]["application/json"]["schema"]
    return [f"{list(error.instance_path)}: {error.message[:200]}" for error in validator(schema).iter_errors(body)]


def test_every_api_endpoint_is_described_with_its_methods_and_entity():
    document = json.loads(Api(None).get("/api/openapi.json").content)
    assert document["openapi"] == "3.1.0" and document == json.loads(json.dumps(describe()))
    described = {(path, method.upper()) for path, methods in document["paths"].items() for method in methods}
    for pattern in api_routes():
        methods = getattr(pattern.callback, "api_methods", None)
        if methods is None:
            continue
        assert pattern.name in RESPONSES, f"{pattern.name}: say what it answers in api.openapi.RESPONSES"
        assert set(RESPONSES[pattern.name]) == set(methods), pattern.name
    assert ("/api/v1/statuses/{status_id}", "DELETE") in described
    assert ("/api/v1/conversations/{conversation_id}/read", "POST") in described
    home = document["paths"]["/api/v1/timelines/home"]["get"]
    assert home["security"] == [{"bearer": ["read:statuses"]}]
    assert {p["name"] for p in home["parameters"]} == {"max_id", "since_id", "min_id", "limit"}
    names = {pattern.name for pattern in api_routes()}
    assert set(RESPONSES) <= names, "RESPONSES names routes that are gone"


@pytest.fixture
def world() -> dict[str, Any]:
    """ada and bob follow each other; ada posts, bob replies, reposts, likes, bookmarks, and they talk directly;
    ada has a list with bob in it and notifications."""
    ada, bob = person("ada"), person("bob")
    services.follow_user(uid=ada.uid, other_uid=bob.uid)
    services.follow_user(uid=bob.uid, other_uid=ada.uid)
    post = services.post_status(uid=ada.uid, message="hello #redis @bob https://example.com")
    reply = services.post_status(uid=bob.uid, message="@ada hi", in_reply_to=post)
    services.repost_status(uid=bob.uid, status_id=post)
    services.like_status(uid=bob.uid, status_id=post)
    services.like_status(uid=ada.uid, status_id=reply)
    services.bookmark_status(uid=ada.uid, status_id=reply)
    _, conversation = services.send_message(uid=bob.uid, message="just us", to=(ada.uid,))
    list_id = services.create_user_list(uid=ada.uid, name="friends")
    services.follow_user_list(uid=ada.uid, other_uid=bob.uid, list_id=list_id)
    notification = selectors.get_notifications(uid=ada.uid)[0].id
    picture = media_services.upload(owner=ada.uid, data=images.jpeg(), description="a picture")
    params = {
        "account_id": bob.uid,
        "status_id": post,
        "notification_id": notification,
        "conversation_id": conversation,
        "list_id": list_id,
        "name": "redis",
        "media_id": picture.pk,
    }
    return {"ada": ada, "bob": bob, "post": post, "reply": reply, "params": params}


QUERIES = {
    "webfinger": {"resource": "acct:bob@testserver"},
    "account_lookup": {"acct": "bob"},
    "relationships": {"id[]": "2"},
    "search": {"q": "hello"},
    "markers": {"timeline[]": "notifications"},
}
# Reads that answer something other than 200 with a user's token, on purpose.
NOT_FOR_A_USER = {"verify_app"}  # an app's own token only: 200 with one (checked below)


def test_every_json_read_answers_what_its_schema_says(world):
    api = Api(token_for("ada", scope="read write follow"))
    checked = 0
    for template, methods in describe()["paths"].items():
        operation = methods.get("get")
        if operation is None:
            continue
        name = operation["operationId"].removesuffix("_get")
        if name in NOT_FOR_A_USER:
            continue
        path = template.format(**world["params"])
        response = api.get(path, QUERIES.get(name, {}))
        assert response.status_code == 200, (path, response.status_code, response.content[:300])
        errors = check(json.loads(response.content), operation)
        assert errors == [], (path, errors[:3])
        checked += 1
    assert checked >= 40


def test_the_main_writes_and_errors_answer_what_their_schemas_say(world):
    document = describe()["paths"]
    api = Api(token_for("bob", scope="read write follow"))
    post, params = world["post"], world["params"]
    calls = [
        ("post", "/api/v1/statuses", {"status": "a new post #redis"}, document["/api/v1/statuses"]["post"]),
        ("post", f"/api/v1/statuses/{post}/bookmark", {}, document["/api/v1/statuses/{status_id}/bookmark"]["post"]),
        ("post", f"/api/v1/statuses/{post}/unreblog", {}, document["/api/v1/statuses/{status_id}/unreblog"]["post"]),
        ("post", f"/api/v1/statuses/{post}/reblog", {}, document["/api/v1/statuses/{status_id}/reblog"]["post"]),
        (
            "post",
            f"/api/v1/conversations/{params['conversation_id']}/read",
            {},
            document["/api/v1/conversations/{conversation_id}/read"]["post"],
        ),
        (
            "post",
            f"/api/v1/accounts/{world['ada'].uid}/mute",
            {},
            document["/api/v1/accounts/{account_id}/mute"]["post"],
        ),
        ("post", "/api/v1/markers", {"notifications[last_read_id]": "1"}, document["/api/v1/markers"]["post"]),
        ("post", "/api/v1/statuses/999999/favourite", {}, document["/api/v1/statuses/{status_id}/favourite"]["post"]),
        ("post", "/api/v1/statuses", {"status": "x" * 300}, document["/api/v1/statuses"]["post"]),
        ("delete", f"/api/v1/statuses/{post}", {}, document["/api/v1/statuses/{status_id}"]["delete"]),
    ]
    statuses = []
    for method, path, data, operation in calls:
        response = api.delete(path) if method == "delete" else api.post(path, data)
        statuses.append(response.status_code)
        assert check(json.loads(response.content), operation, response.status_code) == [], path
    assert statuses == [200, 200, 200, 200, 200, 200, 200, 404, 422, 404]


def test_an_apps_own_token_and_the_token_answer_match_too():
    document = describe()["paths"]
    api = Api(None)
    app = api.post("/api/v1/apps", {"client_name": "schema", "redirect_uris": "urn:ietf:wg:oauth:2.0:oob"})
    assert check(app.json(), document["/api/v1/apps"]["post"]) == []
    grant = {"grant_type": "client_credentials", "client_id": app.json()["client_id"]}
    token = api.post("/oauth/token", {**grant, "client_secret": app.json()["client_secret"]})
    assert token.status_code == 200 and check(token.json(), document["/oauth/token"]["post"]) == []
    verified = Api(token.json()["access_token"]).get("/api/v1/apps/verify_credentials")
    assert check(verified.json(), document["/api/v1/apps/verify_credentials"]["get"]) == []
    refused = api.post("/oauth/token", {**grant, "client_secret": "wrong"})
    assert refused.status_code == 401 and check(refused.json(), document["/oauth/token"]["post"], 401) == []


def test_the_schemas_catch_a_wrong_answer():
    status = validator({"$ref": "#/components/schemas/Status"})
    assert not status.is_valid({"id": "1"})
    conversation = validator({"$ref": "#/components/schemas/Conversation"})
    assert not conversation.is_valid({"id": "1", "unread": "yes", "accounts": [], "last_status": None})
    assert conversation.is_valid({"id": "1", "unread": True, "accounts": [], "last_status": None})


def test_an_upload_answers_what_its_schema_says():
    person("ada")
    api = Api(token_for("ada", scope="read write"))
    operation = describe()["paths"]["/api/v2/media"]["post"]
    assert "multipart/form-data" in operation["requestBody"]["content"]
    upload = SimpleUploadedFile("picture.jpg", images.jpeg(), content_type="image/jpeg")
    answer = api.post("/api/v2/media", {"file": upload, "description": "a test"})
    assert answer.status_code == 200, answer.content
    assert check(answer.json(), operation) == []
    refused = api.post("/api/v2/media", {"file": SimpleUploadedFile("x.jpg", b"not a picture")})
    assert refused.status_code == 422 and check(refused.json(), operation, 422) == []
