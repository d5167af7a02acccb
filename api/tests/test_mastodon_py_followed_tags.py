"""Mastodon.py on followed tags and the person's own flags in streams, against the shared live daphne
(``conftest.site``): ``tag_follow``, ``tag``, ``followed_tags`` with ``fetch_next``, ``tag_unfollow``; a followed
tag's public post in ``timeline_home`` and in ``stream_user`` (SSE and WebSocket); a streamed repost and a streamed
edit carry the person's ``favourited`` and ``bookmarked``."""

from __future__ import annotations

import pytest

from api.tests.helpers import person
from api.tests.test_mastodon_py import Collector, hub, log_in
from socialsite import testing

pytestmark = pytest.mark.django_db(transaction=True)


def test_mastodon_py_follows_tags_and_pages_them(site):
    person("tess")
    person("uma")
    tess = log_in(site, "tess", ["read", "write", "follow"])
    uma = log_in(site, "uma", ["read", "write"])
    followed = tess.tag_follow("Redis")
    assert followed["name"] == "redis" and followed["following"] is True
    for name in ("django", "python"):
        tess.tag_follow(name)
    assert tess.tag("redis")["following"] is True and uma.tag("redis")["following"] is False
    first = tess.followed_tags(limit=2)
    assert [tag["name"] for tag in first] == ["python", "django"]
    second = tess.fetch_next(first)
    assert [tag["name"] for tag in second] == ["redis"]
    tagged = uma.status_post("tips for #Redis people")
    uma.status_post("#redis for followers", visibility="private")
    assert [status["id"] for status in tess.timeline_home()] == [tagged["id"]]
    assert tess.tag_unfollow("redis")["following"] is False
    assert [tag["name"] for tag in tess.followed_tags()] == ["python", "django"]


def test_mastodon_py_streams_followed_tags_and_the_persons_flags(site):
    for login in ("vera", "walt", "xena"):
        person(login)
    vera = log_in(site, "vera", ["read", "write", "follow"])
    walt = log_in(site, "walt", ["read", "write"])
    xena = log_in(site, "xena", ["read", "write"])
    vera.account_follow(xena.me()["id"])
    vera.tag_follow("streamed")
    listener = Collector()
    before = hub(site)["subscriptions"]
    handle = vera.stream_user(listener, run_async=True)
    try:
        assert testing.wait_until(lambda: hub(site)["subscriptions"] > before), "the stream never subscribed"
        walt.status_post("#streamed but unlisted", visibility="unlisted")
        tagged = walt.status_post("#streamed for everyone")
        assert testing.wait_until(lambda: listener.updates), "no update arrived"
        assert [status["id"] for status in listener.updates] == [tagged["id"]]
        assert listener.updates[0]["favourited"] is False and listener.updates[0]["bookmarked"] is False
        # A repost of a post vera liked and bookmarked: the wrapper's original says so, for her.
        saved = walt.status_post("worth saving")
        vera.status_favourite(saved["id"])
        vera.status_bookmark(saved["id"])
        xena.status_reblog(saved["id"])
        assert testing.wait_until(lambda: len(listener.updates) == 2), listener.updates
        wrapper = listener.updates[1]
        assert wrapper["reblog"]["id"] == saved["id"] and wrapper["account"]["acct"] == "xena"
        assert wrapper["reblog"]["favourited"] is True and wrapper["reblog"]["bookmarked"] is True
        # An edit of a post she was sent and bookmarked comes back with her flags too, after what came before it.
        vera.status_bookmark(tagged["id"])
        walt.status_update(tagged["id"], status="#streamed for everyone, edited")
        assert testing.wait_until(lambda: listener.edits), "no edit arrived"
        assert listener.edits[0]["id"] == tagged["id"] and listener.edits[0]["bookmarked"] is True
        walt.status_delete(tagged["id"])
        assert testing.wait_until(lambda: str(tagged["id"]) in listener.deletes), listener.deletes
    finally:
        handle.close()
    # xena's own stream of the same repost: her flags, not vera's.
    assert xena.status(saved["id"])["bookmarked"] is False


def test_mastodon_py_websocket_user_stream_gets_followed_tags(site):
    person("yuri")
    person("zack")
    yuri = log_in(site, "yuri", ["read", "write", "follow"])
    zack = log_in(site, "zack", ["read", "write"])
    yuri.tag_follow("socket")
    home = Collector()
    before = hub(site)["subscriptions"]
    handle = yuri.stream_open_websocket()
    try:
        yuri.stream_user(home, websocket_handle=handle)
        assert testing.wait_until(lambda: hub(site)["subscriptions"] > before), "the stream never subscribed"
        posted = zack.status_post("over the #socket")
        assert testing.wait_until(lambda: [s["id"] for s in home.updates] == [posted["id"]]), home.updates
    finally:
        handle.close()
