"""Mastodon.py on the private parts of the API, against the shared live daphne (``conftest.site``): bookmarks
(``status_bookmark``, ``bookmarks`` with ``fetch_next``), and direct conversations with their streams."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from api.tests.helpers import person
from api.tests.test_mastodon_py import Collector, hub, log_in
from socialsite import testing
from timelines import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_mastodon_py_bookmarks_page_by_page(site):
    person("ada")
    person("bob")
    ada = log_in(site, "ada", ["read", "write"])
    bob = log_in(site, "bob", ["read", "write"])
    posts = [ada.status_post(f"worth keeping {n}") for n in range(3)]
    for post in posts:
        assert bob.status_bookmark(post["id"])["bookmarked"] is True
    assert bob.status(posts[0]["id"])["bookmarked"] is True
    assert ada.status(posts[0]["id"])["bookmarked"] is False
    first = bob.bookmarks(limit=2)
    assert [status["id"] for status in first] == [posts[2]["id"], posts[1]["id"]]
    second = bob.fetch_next(first)
    assert [status["id"] for status in second] == [posts[0]["id"]]
    assert bob.fetch_next(second) is None
    assert [status["id"] for status in bob.fetch_previous(second)] == [posts[2]["id"], posts[1]["id"]]
    assert bob.status_unbookmark(posts[1]["id"])["bookmarked"] is False
    assert [status["id"] for status in bob.bookmarks()] == [posts[2]["id"], posts[0]["id"]]
    assert ada.bookmarks() == []


class Talk(Collector):
    def __init__(self) -> None:
        super().__init__()
        self.conversations: list = []

    def on_conversation(self, conversation) -> None:  # type: ignore[no-untyped-def]
        self.conversations.append(conversation)


def test_mastodon_py_reads_marks_and_pages_conversations(site):
    for login in ("cara", "dino", "emil", "fay"):
        person(login)
    cara = log_in(site, "cara", ["read", "write"])
    talks = [
        log_in(site, login, ["read", "write"]).status_post(f"@cara hi from {login}", visibility="direct")
        for login in ("dino", "emil", "fay")
    ]
    first = cara.conversations(limit=2)
    assert [c["last_status"]["id"] for c in first] == [talks[2]["id"], talks[1]["id"]]
    assert all(c["unread"] for c in first) and first[0]["accounts"][0]["acct"] == "fay"
    second = cara.fetch_next(first)
    assert [c["last_status"]["id"] for c in second] == [talks[0]["id"]]
    read = cara.conversations_read(second[0]["id"])
    assert read["unread"] is False and read["id"] == second[0]["id"]
    assert [c["unread"] for c in cara.conversations()] == [True, True, False]


def test_mastodon_py_streams_direct_conversations(site):
    for login in ("gus", "hal", "ida"):
        person(login)
    gus = log_in(site, "gus", ["read", "write"])
    hal = log_in(site, "hal", ["read", "write"])
    ida = log_in(site, "ida", ["read", "write"])
    listener = Talk()
    before = hub(site)["subscriptions"]
    handle = gus.stream_direct(listener, run_async=True)
    try:
        assert testing.wait_until(lambda: hub(site)["subscriptions"] > before), "the stream never subscribed"
        # Not for gus: a message between two others, and a public post mentioning him. The marker comes last.
        ida.status_post("@hal not for gus", visibility="direct")
        ida.status_post("@gus a public word")
        message = hal.status_post("@gus between us", visibility="direct")
        assert testing.wait_until(lambda: listener.conversations), "no conversation event arrived"
        [event] = listener.conversations
        assert event["last_status"]["id"] == message["id"] and event["unread"] is True
        assert [account["acct"] for account in event["accounts"]] == ["hal"]
        assert listener.updates == []
        # Reading it (here, or on the site) sends it again, read.
        gus.conversations_read(event["id"])
        assert testing.wait_until(lambda: len(listener.conversations) == 2), listener.conversations
        assert listener.conversations[1]["id"] == event["id"] and listener.conversations[1]["unread"] is False
        hal.status_delete(message["id"])
        assert testing.wait_until(lambda: listener.deletes == [str(message["id"])]), listener.deletes
    finally:
        handle.close()


def test_mastodon_py_streams_a_list_and_direct_over_the_websocket(site):
    for login in ("jan", "kim", "lou"):
        person(login)
    jan = log_in(site, "jan", ["read", "write"])
    kim = log_in(site, "kim", ["read", "write"])
    lou = log_in(site, "lou", ["read", "write"])
    jan_uid, kim_uid = int(jan.me()["id"]), int(kim.me()["id"])
    list_id = services.create_user_list(uid=jan_uid, name="close")
    services.follow_user_list(uid=jan_uid, other_uid=kim_uid, list_id=list_id)
    listed, talk = Collector(), Talk()
    before = hub(site)["subscriptions"]
    handle = jan.stream_open_websocket()
    try:
        jan.stream_list(list_id, listed, websocket_handle=handle)
        jan.stream_direct(talk, websocket_handle=handle)
        assert testing.wait_until(lambda: hub(site)["subscriptions"] >= before + 2), "the streams never subscribed"
        lou.status_post("lou is not on the list")
        on_list = kim.status_post("kim is")
        message = lou.status_post("@jan psst", visibility="direct")
        assert testing.wait_until(lambda: [s["id"] for s in listed.updates] == [on_list["id"]]), listed.updates
        assert testing.wait_until(lambda: [c["last_status"]["id"] for c in talk.conversations] == [message["id"]])
        kim.status_delete(on_list["id"])
        assert testing.wait_until(lambda: listed.deletes == [str(on_list["id"])]), listed.deletes
    finally:
        handle.close()
    assert testing.wait_until(lambda: hub(site)["subscriptions"] == before), hub(site)


def test_the_list_stream_is_its_owners_only(site):
    person("max")
    person("ned")
    ned_uid = person("ola").uid
    max_ = log_in(site, "max", ["read"])
    theirs = services.create_user_list(uid=ned_uid, name="mine")
    for path in (f"/api/v1/streaming/list?list={theirs}", "/api/v1/streaming/list?list=999", "/api/v1/streaming/list"):
        request = urllib.request.Request(site + path, headers={"Authorization": f"Bearer {max_.access_token}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=testing.WAIT_SECONDS)
        assert refused.value.code == 404 and json.load(refused.value) == {"error": "Record not found"}
