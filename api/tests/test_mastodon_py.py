"""Mastodon.py, the Python library most scripts use, drives the API on a real daphne end to end: it registers an
app, logs a person in through the authorization-code flow (the consent given on the site's own page), posts,
reads the home timeline page by page, favourites, follows, reads notifications, deletes, and is refused what
its token's scopes do not allow."""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlsplit

import pytest
import websocket
from django.test import Client
from mastodon import Mastodon, MastodonAPIError, MastodonNotFoundError, StreamListener

from api.tests.helpers import PASSWORD, person
from media.tests import images
from socialsite import testing
from timelines.services import moderation

pytestmark = pytest.mark.django_db(transaction=True)

REDIRECT = "http://127.0.0.1/callback"


def log_in(url: str, login: str, scopes: list[str]) -> Mastodon:
    """The whole flow as an app runs it: register, send the person to the authorize page, get the code back
    from the redirect, exchange it."""
    client_id, client_secret = Mastodon.create_app(
        "socialsite tests", scopes=scopes, redirect_uris=REDIRECT, api_base_url=url
    )
    app = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=url)
    authorize_url = app.auth_request_url(redirect_uris=REDIRECT, scopes=scopes, state="s42", allow_http=True)
    browser = Client()
    assert browser.login(username=login, password=PASSWORD)
    parts = urlsplit(authorize_url)
    query = {key: values[0] for key, values in parse_qs(parts.query).items()}
    page = browser.get(parts.path, query)
    assert page.status_code == 200 and "Authorize socialsite tests?" in page.content.decode()
    answer = browser.post(parts.path, {**query, "decision": "authorize"})
    location = parse_qs(urlsplit(answer["Location"]).query)
    assert location["state"] == ["s42"]
    app.log_in(code=location["code"][0], redirect_uri=REDIRECT, scopes=scopes, allow_http=True)
    return app


def test_mastodon_py_end_to_end(site):
    person("ada")
    person("bob")
    ada = log_in(site, "ada", ["read", "write", "follow"])
    bob = log_in(site, "bob", ["read", "write", "follow"])
    assert ada.me()["username"] == "ada"
    assert ada.instance()["version"].startswith("4.3.0")

    posted = [ada.status_post(f"Hello #{n} from Mastodon.py") for n in range(3)]
    assert posted[0]["account"]["acct"] == "ada"

    bob_account = bob.account_verify_credentials()
    ada_account = bob.account_lookup("ada")
    relationship = bob.account_follow(ada_account["id"])
    assert relationship["following"] is True
    assert bob.account_relationships(ada_account["id"])[0]["following"] is True

    # The follow copied Ada's posts into Bob's home: read it two at a time with fetch_next.
    first = bob.timeline_home(limit=2)
    assert [status["id"] for status in first] == [posted[2]["id"], posted[1]["id"]]
    second = bob.fetch_next(first)
    assert [status["id"] for status in second] == [posted[0]["id"]]

    favourited = bob.status_favourite(posted[0]["id"])
    assert favourited["favourited"] is True
    reply = bob.status_post("@ada nice", in_reply_to_id=posted[0]["id"])
    context = ada.status_context(reply["id"])
    assert [status["id"] for status in context["ancestors"]] == [posted[0]["id"]]

    kinds = [notification["type"] for notification in ada.notifications()]
    assert kinds == ["mention", "favourite", "follow"]
    assert ada.notifications()[-1]["account"]["id"] == bob_account["id"]

    ada.status_delete(posted[2]["id"])
    with pytest.raises(MastodonNotFoundError):
        bob.status(posted[2]["id"])
    assert posted[2]["id"] not in [status["id"] for status in bob.timeline_home()]


def test_mastodon_py_with_a_read_token_cannot_post_and_private_posts_stay_hidden(site):
    person("carol")
    person("mallory")
    carol = log_in(site, "carol", ["read", "write"])
    hidden = carol.status_post("for my followers only", visibility="private")
    assert hidden["visibility"] == "private"
    mallory = log_in(site, "mallory", ["read"])
    with pytest.raises(MastodonAPIError) as refused:
        mallory.status_post("not allowed")
    assert refused.value.args[1] == 403
    with pytest.raises(MastodonNotFoundError):
        mallory.status(hidden["id"])
    with pytest.raises(MastodonNotFoundError):
        mallory.status_context(hidden["id"])
    assert mallory.account_statuses(carol.me()["id"]) == []


def test_mastodon_py_posts_images_with_alt_texts(site):
    """media_post, media_update and status_post(media_ids=...), as an app posts a photo; only_media lists it."""
    person("iris")
    person("rex")
    iris = log_in(site, "iris", ["read", "write"])
    photo = iris.media_post(
        io.BytesIO(images.jpeg((1200, 800))),
        mime_type="image/jpeg",
        file_name="IMG_0001.jpg",
        description="A flag, half blue",
        focus=(0.25, -0.5),
    )
    assert photo["type"] == "image" and photo["description"] == "A flag, half blue"
    assert photo["meta"]["original"]["width"] == 1200 and photo["meta"]["small"]["width"] == 640
    assert photo["meta"]["focus"] == {"x": 0.25, "y": -0.5}
    assert photo["blurhash"] and photo["url"].startswith(site + "/media/")
    tile = iris.media_post(io.BytesIO(images.png((64, 64))), mime_type="image/png", file_name="tile.png")
    assert iris.media_update(tile["id"], description="A green tile")["description"] == "A green tile"

    posted = iris.status_post("Two pictures", media_ids=[photo, tile["id"]], sensitive=True)
    assert [media["id"] for media in posted["media_attachments"]] == [photo["id"], tile["id"]]
    assert [media["description"] for media in posted["media_attachments"]] == ["A flag, half blue", "A green tile"]
    assert posted["sensitive"] is True
    images_only = iris.status_post("", media_ids=[iris.media_post(io.BytesIO(images.jpeg()), mime_type="image/jpeg")])
    assert images_only["content"] == "" and len(images_only["media_attachments"]) == 1

    rex = log_in(site, "rex", ["read", "write"])
    shown = rex.status(posted["id"])
    assert shown["media_attachments"][1]["preview_url"] == posted["media_attachments"][1]["preview_url"]
    with urllib.request.urlopen(shown["media_attachments"][0]["url"], timeout=testing.WAIT_SECONDS) as response:
        assert response.headers["Content-Type"] == "image/jpeg"  # a public post's image: anyone may fetch it
    with pytest.raises(MastodonAPIError) as stolen:
        rex.status_post("mine now", media_ids=[iris.media_post(io.BytesIO(images.jpeg()), mime_type="image/jpeg")])
    assert stolen.value.args[1] == 422
    with pytest.raises(MastodonAPIError) as fake:
        rex.media_post(io.BytesIO(b"<html><body>hi</body></html>"), mime_type="image/jpeg", file_name="x.jpg")
    assert fake.value.args[1] == 422
    with pytest.raises(MastodonNotFoundError):
        rex.media_update(tile["id"], description="not yours")
    rex.status_post("just words")
    iris_id = iris.me()["id"]
    assert [status["id"] for status in rex.account_statuses(iris_id, only_media=True)] == [
        images_only["id"],
        posted["id"],
    ]
    assert rex.account_statuses(rex.me()["id"], only_media=True) == []

    updated = iris.account_update_credentials(
        avatar=io.BytesIO(images.png((500, 500))), avatar_mime_type="image/png", display_name="Iris W"
    )
    assert updated["display_name"] == "Iris W" and "/media/" in updated["avatar"]
    assert rex.account(iris_id)["avatar"] == updated["avatar"]
    with urllib.request.urlopen(updated["avatar"], timeout=testing.WAIT_SECONDS) as response:
        assert response.headers["Content-Type"] == "image/jpeg"
    with pytest.raises(MastodonAPIError) as refused:
        iris.account_update_credentials(header=io.BytesIO(b"GIF89a<?php ?>"), header_mime_type="image/gif")
    assert refused.value.args[1] == 422


def hub(url: str) -> dict:
    with urllib.request.urlopen(url + "/statuses/hub.json", timeout=testing.WAIT_SECONDS) as response:
        return json.load(response)


class Collector(StreamListener):
    def __init__(self) -> None:
        self.updates: list = []
        self.deletes: list = []
        self.notifications: list = []
        self.edits: list = []

    def on_status_update(self, status) -> None:  # type: ignore[no-untyped-def]
        self.edits.append(status)

    def on_notification(self, notification) -> None:  # type: ignore[no-untyped-def]
        self.notifications.append(notification)

    def on_update(self, status) -> None:  # type: ignore[no-untyped-def]
        self.updates.append(status)

    def on_delete(self, status_id) -> None:  # type: ignore[no-untyped-def]
        self.deletes.append(str(status_id))


def test_mastodon_py_streams_the_home_timeline(site):
    person("erin")
    person("frank")
    person("gina")
    erin = log_in(site, "erin", ["read", "write", "follow"])
    frank = log_in(site, "frank", ["read", "write", "follow"])
    gina = log_in(site, "gina", ["read", "write"])
    frank.account_follow(erin.me()["id"])
    before = hub(site)["subscriptions"]
    listener = Collector()
    handle = frank.stream_user(listener, run_async=True)
    try:
        assert testing.wait_until(lambda: hub(site)["subscriptions"] > before), "the stream never subscribed"
        # Gina is not followed: her post must not come; the stream keeps order, so it is in before Erin's.
        gina.status_post("not for frank")
        posted = erin.status_post("live to frank #stream")
        assert testing.wait_until(lambda: listener.updates), "no update arrived"
        update = listener.updates[0]
        assert update["id"] == posted["id"]
        assert update["account"]["acct"] == "erin" and update["tags"][0]["name"] == "stream"
        assert len(listener.updates) == 1
        erin.status_delete(posted["id"])
        assert testing.wait_until(lambda: listener.deletes == [str(posted["id"])]), listener.deletes
        # A notification reaches the user stream as Mastodon's `notification` event.
        mention = gina.status_post("@frank are you there?")
        assert testing.wait_until(lambda: listener.notifications), "no notification arrived"
        notification = listener.notifications[0]
        assert notification["type"] == "mention" and notification["status"]["id"] == mention["id"]
        assert notification["account"]["acct"] == "gina" and len(listener.notifications) == 1
    finally:
        handle.close()


def test_the_stream_needs_a_valid_token(site):
    for headers in ({}, {"Authorization": "Bearer nope"}):
        request = urllib.request.Request(site + "/api/v1/streaming/user", headers=headers)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=testing.WAIT_SECONDS)
        assert refused.value.code == 401
        assert json.load(refused.value) == {"error": "The access token is invalid"}
    with urllib.request.urlopen(site + "/api/v1/streaming/health", timeout=testing.WAIT_SECONDS) as response:
        assert response.read() == b"OK"


def test_mastodon_py_public_and_hashtag_streams_send_only_what_the_viewer_may_see(site):
    for login in ("hana", "ivan", "judy", "karl"):
        person(login)
    hana = log_in(site, "hana", ["read", "write", "follow"])
    ivan = log_in(site, "ivan", ["read", "write"])
    judy = log_in(site, "judy", ["read", "write"])
    karl = log_in(site, "karl", ["read", "write"])
    hana.account_block(hana.account_lookup("karl")["id"])
    before = hub(site)["subscriptions"]
    public, tagged = Collector(), Collector()
    handles = [hana.stream_public(public, run_async=True), hana.stream_hashtag("redis", tagged, run_async=True)]
    try:
        assert testing.wait_until(lambda: hub(site)["subscriptions"] >= before + 2), "the streams never subscribed"
        # What must not come, before a marker that must: the streams keep their order.
        karl.status_post("from someone hana blocked #redis")
        judy.status_post("for judy's followers #redis", visibility="private")
        shared = ivan.status_post("untagged")
        judy.status_reblog(shared["id"])
        marker = judy.status_post("the marker #Redis")
        assert testing.wait_until(lambda: marker["id"] in [s["id"] for s in tagged.updates]), tagged.updates
        assert testing.wait_until(lambda: marker["id"] in [s["id"] for s in public.updates]), public.updates
        assert [s["id"] for s in public.updates] == [shared["id"], marker["id"]]
        assert [s["id"] for s in tagged.updates] == [marker["id"]]
        judy.status_delete(marker["id"])
        assert testing.wait_until(lambda: public.deletes == [str(marker["id"])]), public.deletes
    finally:
        for handle in handles:
            handle.close()


def test_suspending_an_account_ends_its_streams_at_once(site):
    person("lena")
    lena = log_in(site, "lena", ["read"])
    uid = int(lena.me()["id"])
    before = hub(site)["subscriptions"]
    handles = [lena.stream_user(Collector(), run_async=True), lena.stream_public(Collector(), run_async=True)]
    try:
        # The user stream, the public stream and its watch for the token's person's suspension.
        assert testing.wait_until(lambda: hub(site)["subscriptions"] >= before + 3), "the streams never subscribed"
        moderation.suspend_user(uid=uid)
        # The server ends both streams: the hub holds their subscriptions no more.
        assert testing.wait_until(lambda: hub(site)["subscriptions"] == before), hub(site)
        request = urllib.request.Request(
            site + "/api/v1/streaming/user", headers={"Authorization": f"Bearer {lena.access_token}"}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=testing.WAIT_SECONDS)
        assert refused.value.code == 403
    finally:
        for handle in handles:
            handle.close()


def test_mastodon_py_over_the_websocket(site):
    person("mona")
    person("nick")
    mona = log_in(site, "mona", ["read", "write"])
    nick = log_in(site, "nick", ["read", "write", "follow"])
    nick.account_follow(mona.me()["id"])
    home, tagged = Collector(), Collector()
    before = hub(site)["subscriptions"]
    handle = nick.stream_open_websocket()
    try:
        nick.stream_user(home, websocket_handle=handle)
        nick.stream_hashtag("redis", tagged, websocket_handle=handle)
        # The user stream, and the hashtag stream with its watch for the person's suspension.
        assert testing.wait_until(lambda: hub(site)["subscriptions"] >= before + 3), "the streams never subscribed"
        posted = mona.status_post("over the socket #Redis")
        assert testing.wait_until(lambda: [s["id"] for s in home.updates] == [posted["id"]]), home.updates
        assert testing.wait_until(lambda: [s["id"] for s in tagged.updates] == [posted["id"]]), tagged.updates
        mona.status_delete(posted["id"])
        assert testing.wait_until(lambda: home.deletes == [str(posted["id"])]), home.deletes
        handle.unsubscribe("hashtag", tag="redis")
        assert testing.wait_until(lambda: hub(site)["subscriptions"] == before + 1), hub(site)
    finally:
        handle.close()
    assert testing.wait_until(lambda: hub(site)["subscriptions"] == before), hub(site)


def test_the_websocket_refuses_a_bad_token(site):
    url = site.replace("http://", "ws://") + "/api/v1/streaming"
    for headers in ([], ["Authorization: Bearer nope"]):
        with pytest.raises(websocket.WebSocketBadStatusException):
            websocket.create_connection(url, header=headers, timeout=testing.WAIT_SECONDS)


def test_mastodon_py_streams_notifications_alone(site):
    person("olga")
    person("pete")
    olga = log_in(site, "olga", ["read", "write", "follow"])
    pete = log_in(site, "pete", ["read", "write"])
    olga.account_follow(pete.me()["id"])
    listener = Collector()
    before = hub(site)["subscriptions"]
    handle = olga.stream_user_notifications(listener, run_async=True)
    try:
        assert testing.wait_until(lambda: hub(site)["subscriptions"] > before), "the stream never subscribed"
        pete.status_post("a post olga's home gets, not this stream")
        mention = pete.status_post("@olga hello")
        assert testing.wait_until(lambda: listener.notifications), "no notification arrived"
        assert listener.notifications[0]["status"]["id"] == mention["id"]
        assert listener.updates == []
    finally:
        handle.close()


def test_mastodon_py_edits_a_post_reads_its_history_and_source_and_the_stream_sends_it_again(site):
    person("quinn")
    person("rita")
    quinn = log_in(site, "quinn", ["read", "write", "follow"])
    rita = log_in(site, "rita", ["read", "write", "follow"])
    rita.account_follow(quinn.me()["id"])
    posted = quinn.status_post("Helo from Mastodon.py", visibility="unlisted")
    assert posted["edited_at"] is None
    rita.status_reblog(posted["id"])
    listener = Collector()
    before = hub(site)["subscriptions"]
    handle = rita.stream_user(listener, run_async=True)
    try:
        assert testing.wait_until(lambda: hub(site)["subscriptions"] > before), "the stream never subscribed"
        edited = quinn.status_update(posted["id"], "Hello from Mastodon.py")
        assert edited["id"] == posted["id"] and "Hello from Mastodon.py" in edited["content"]
        assert edited["edited_at"] is not None and edited["visibility"] == "unlisted"
        # The stream sends the status again as Mastodon's `status.update`, and the reposter is told.
        assert testing.wait_until(lambda: listener.edits), "no status.update arrived"
        assert listener.edits[0]["id"] == posted["id"] and listener.edits[0]["edited_at"] is not None
        assert "Hello from Mastodon.py" in listener.edits[0]["content"]
        assert testing.wait_until(lambda: listener.notifications), "no notification arrived"
        assert listener.notifications[0]["type"] == "update"
        assert listener.notifications[0]["status"]["id"] == posted["id"]
    finally:
        handle.close()
    history = rita.status_history(posted["id"])
    assert ["Helo" in history[0]["content"], "Hello" in history[1]["content"]] == [True, True]
    assert len(history) == 2 and history[1]["account"]["acct"] == "quinn"
    assert quinn.status_source(posted["id"])["text"] == "Hello from Mastodon.py"
    with pytest.raises(MastodonAPIError) as refused:
        rita.status_update(posted["id"], "taken over")
    assert refused.value.args[1] == 403
    with pytest.raises(MastodonAPIError) as refused:
        quinn.status_update(posted["id"], "x" * 281)
    assert refused.value.args[1] == 422
    assert quinn.status(posted["id"])["content"] == edited["content"]


def test_mastodon_py_edits_a_posts_images_and_alt_texts_and_the_history_keeps_the_old_ones(site):
    """status_update(id, status, media_ids=[...]) replaces an image, media_attributes changes an alt text, and
    status_history shows each version's images; someone else's upload is refused with nothing changed."""
    person("olga")
    person("piet")
    olga = log_in(site, "olga", ["read", "write"])
    piet = log_in(site, "piet", ["read", "write"])
    first = olga.media_post(io.BytesIO(images.jpeg()), mime_type="image/jpeg", description="A red flag")
    second = olga.media_post(io.BytesIO(images.png()), mime_type="image/png", description="A green tile")
    posted = olga.status_post("A picture", media_ids=[first])

    edited = olga.status_update(posted["id"], "Another picture", media_ids=[second["id"]])
    assert [media["id"] for media in edited["media_attachments"]] == [second["id"]]
    described = olga.status_update(
        posted["id"], "Another picture", media_attributes=[{"id": second["id"], "description": "A green square"}]
    )
    assert [media["description"] for media in described["media_attachments"]] == ["A green square"]

    history = piet.status_history(posted["id"])
    assert [[media["description"] for media in version["media_attachments"]] for version in history] == [
        ["A red flag"],
        ["A green tile"],
        ["A green square"],
    ]
    with urllib.request.urlopen(history[0]["media_attachments"][0]["url"], timeout=testing.WAIT_SECONDS) as response:
        assert response.status == 200  # the image the edit dropped is still the post's, for its history

    pieces = piet.media_post(io.BytesIO(images.jpeg()), mime_type="image/jpeg")
    with pytest.raises(MastodonAPIError) as refused:
        olga.status_update(posted["id"], "Stolen", media_ids=[second["id"], pieces["id"]])
    assert refused.value.args[1] == 422
    assert [media["id"] for media in olga.status(posted["id"])["media_attachments"]] == [second["id"]]
    assert len(piet.status_history(posted["id"])) == 3
