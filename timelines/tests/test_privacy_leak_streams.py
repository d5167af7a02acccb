"""The leak test of issue 11, on the streams of a real daphne: while alice (private, approved follower bob)
posts, replies, tags, mentions and reposts, carol's and dave's live homes (``/live/home``), the firehose
(``sample.json?percent=100``) and a ``filter.json`` whose track, follow and locations all match her posts
receive none of it; bob's live home receives all of it. A public post that matches the same filter shows the
public streams were listening. The same for erin's unlisted, followers-only and direct posts (issue 19): the
public streams carry none, her followers' live homes the unlisted and followers-only ones. The pages are in
``test_privacy_leaks``."""

from __future__ import annotations

import asyncio
import re
import socket
import time
from collections.abc import Iterator

import pytest
from django.conf import settings

from socialsite.testing import WAIT_SECONDS
from streaming.loadclient import Listener, close_all
from streaming.tests.conftest import StreamServer, server_on_test_database
from timelines import services
from timelines.tests.leaks import (
    BOX,
    LOCATION,
    PUBLIC,
    SECRET,
    TAG,
    VIS_WORD,
    People,
    alice_speaks,
    erin_speaks_in_every_visibility,
    make_people,
    public_posts,
    shows_alice,
    shows_levels,
)

pytestmark = pytest.mark.django_db(transaction=True)

POST_ID = re.compile(rb"^id: (\d+)\nevent: post\n", re.MULTILINE)


@pytest.fixture(scope="module")
def site(django_db_setup: None) -> Iterator[StreamServer]:
    """A daphne that shares the test database (the live homes need sessions)."""
    with server_on_test_database("leak") as server:
        yield server


class LiveHome:
    """One viewer's open ``/live/home``: every byte it received, read in the background."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.data = b""
        self.task = asyncio.ensure_future(self._read())

    @classmethod
    async def open(cls, url: str, session: str) -> LiveHome:
        host, port = url.removeprefix("http://").split(":")
        sock = socket.create_connection((host, int(port)))
        sock.setblocking(False)
        reader, writer = await asyncio.open_connection(sock=sock)
        path = "/" + settings.LIVE_HOME_PATH
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nCookie: sessionid={session}\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert head.startswith(b"HTTP/1.1 200"), head
        home = cls(reader, writer)
        assert await until(lambda: b": live\n\n" in home.data), "the live home never went live"
        return home

    async def _read(self) -> None:
        while chunk := await self.reader.read(65536):
            self.data += chunk

    def post_ids(self) -> set[int]:
        return {int(found) for found in POST_ID.findall(self.data)}

    def deleted(self, status_id: int) -> bool:
        return f'event: delete\ndata: {{"id": {status_id}}}\n'.encode() in self.data

    async def close(self) -> None:
        self.task.cancel()
        self.writer.close()


async def until(predicate, timeout: float = WAIT_SECONDS) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def session_of(people: People, login: str) -> str:
    return people.clients[login].cookies["sessionid"].value


def public_leaks(listener: Listener, people: People, private_ids: list[int]) -> list[dict]:
    """The messages of a public stream that carry anything of alice's."""
    return [
        message
        for message in listener.messages
        if message.get("uid") == people.alice
        or message.get("id") in private_ids
        or SECRET in str(message.get("message", ""))
    ]


def test_no_stream_carries_alices_private_items_to_anyone_but_her_followers(site):
    people = make_people()
    bob_post, carol_post, erin_post = public_posts(people)

    async def scenario() -> None:
        homes = {login: await LiveHome.open(site.url, session_of(people, login)) for login in ("bob", "carol", "dave")}
        sample = await Listener.open("sample", identifier="leak-sample", params={"percent": "100"}, url=site.url)
        matching = {"track": f"{SECRET},{PUBLIC}", "follow": "alice,erin", "locations": BOX}
        filtered = await Listener.open("filter", identifier="leak-filter", params=matching, url=site.url)
        try:
            items = await asyncio.to_thread(alice_speaks, people, bob_post, carol_post, erin_post)
            assert await until(lambda: set(items.private_ids) <= homes["bob"].post_ids()), (
                f"bob's live home missed some of alice's items: {homes['bob'].post_ids()} vs {items.private_ids}"
            )
            # A deleted private post leaves the pages that showed it, and only those.
            await asyncio.to_thread(services.delete_status, uid=people.alice, status_id=items.own_reply)
            assert await until(lambda: homes["bob"].deleted(items.own_reply))
            # Everything of alice's has passed the server's one subscription: what is published from now on
            # reaches each stream after it.
            control = await asyncio.to_thread(
                services.post_status, uid=people.erin, message=f"{PUBLIC} #{TAG} hi @alice", location=LOCATION
            )
            last = {
                login: await asyncio.to_thread(services.post_status, uid=people.uids[login], message="still here")
                for login in ("carol", "dave")
            }
            assert await until(lambda: control in sample.status_ids() and control in filtered.status_ids())
            for login, status_id in last.items():
                assert await until(lambda home=homes[login], status_id=status_id: status_id in home.post_ids())

            for login in ("carol", "dave"):
                assert shows_alice(homes[login].data, people, items) == [], f"{login}'s live home"
                assert not homes[login].deleted(items.own_reply), f"{login}'s live home"
            assert public_leaks(sample, people, items.private_ids) == []
            assert public_leaks(filtered, people, items.private_ids) == []
        finally:
            await close_all([sample, filtered])
            for home in homes.values():
                await home.close()

    asyncio.run(scenario())


def test_the_public_streams_carry_public_posts_only_and_live_homes_follow_each_visibility(site):
    people = make_people()

    async def scenario() -> None:
        homes = {login: await LiveHome.open(site.url, session_of(people, login)) for login in ("bob", "carol")}
        sample = await Listener.open("sample", identifier="vis-sample", params={"percent": "100"}, url=site.url)
        matching = {"track": VIS_WORD, "follow": "erin,bob", "locations": BOX}
        filtered = await Listener.open("filter", identifier="vis-filter", params=matching, url=site.url)
        try:
            posts = await asyncio.to_thread(erin_speaks_in_every_visibility, people)
            assert await until(lambda: shows_levels(homes["carol"].data) == {"unlisted", "private"}), (
                f"carol's live home shows {shows_levels(homes['carol'].data)}"
            )
            control = await asyncio.to_thread(
                services.post_status, uid=people.erin, message=f"{VIS_WORD} in public @bob", location=LOCATION
            )
            last = await asyncio.to_thread(services.post_status, uid=people.bob, message="bob is still here")
            assert await until(lambda: control in sample.status_ids() and control in filtered.status_ids())
            assert await until(lambda: last in homes["bob"].post_ids())
            for listener in (sample, filtered):
                carried = {message.get("id") for message in listener.messages} & set(posts.values())
                assert carried == set(), f"a public stream carried {carried}"
                assert shows_levels(str(listener.messages)) == set()
            # bob is mentioned by all three but does not follow erin: nothing of hers reaches his home.
            assert shows_levels(homes["bob"].data) == set()
            assert control not in homes["bob"].post_ids()
        finally:
            await close_all([sample, filtered])
            for home in homes.values():
                await home.close()

    asyncio.run(scenario())
