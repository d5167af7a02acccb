"""Suspending, seen on a real daphne: a follower's open live home takes the person's posts off the page, the
firehose (``sample.json?percent=100``) stops carrying them, the person's own live home closes and cannot be
reopened; after an unsuspension their posts flow again."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from django.test import Client

from accounts import moderation
from accounts.models import User
from accounts.tests.conftest import PASSWORD
from socialsite.testing import WAIT_SECONDS
from streaming.loadclient import Listener, wait_until
from streaming.tests.conftest import StreamServer, server_on_test_database
from streaming.tests.test_live_server import open_live
from timelines import services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def site(django_db_setup: None) -> Iterator[StreamServer]:
    """A daphne that shares the test database (sessions, accounts) and the streaming tests' small limits."""
    with server_on_test_database("moderation") as server:
        yield server


def session_of(user: User) -> str:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client.cookies["sessionid"].value


async def read_until(reader: asyncio.StreamReader, marker: bytes, timeout: float = WAIT_SECONDS) -> bytes:
    """Every event block up to and including the first that holds ``marker``."""
    data = b""
    async with asyncio.timeout(timeout):
        while marker not in data:
            block = await reader.readuntil(b"\n\n")
            data += block
    return data


async def response_ends(reader: asyncio.StreamReader, timeout: float = WAIT_SECONDS) -> bool:
    """Whether the chunked response ends (its last, empty chunk, or the connection closing) in time."""
    data = b""
    async with asyncio.timeout(timeout):
        while not data.endswith(b"0\r\n\r\n"):
            chunk = await reader.read(65536)
            if not chunk:
                return True
            data += chunk
    return True


def test_a_suspension_reaches_open_live_homes_and_the_firehose_at_once(site, root, alice, bob, carol):
    services.follow_user(uid=alice.uid, other_uid=bob.uid)
    services.follow_user(uid=alice.uid, other_uid=carol.uid)
    alice_session, bob_session = session_of(alice), session_of(bob)

    async def scenario() -> None:
        home, home_writer, head = await open_live(site.url, alice_session)
        assert head.startswith(b"HTTP/1.1 200")
        own, own_writer, head = await open_live(site.url, bob_session)
        assert head.startswith(b"HTTP/1.1 200")
        await read_until(home, b": live")
        await read_until(own, b": live")
        firehose = await Listener.open("sample", identifier="moderation", params={"percent": "100"}, url=site.url)
        try:
            before = await asyncio.to_thread(services.post_status, uid=bob.uid, message="before the suspension")
            assert await wait_until(lambda: before in firehose.status_ids(), WAIT_SECONDS)
            await read_until(home, f'"id": {before}'.encode())

            reloads = site.hub()["policy_reloads"]
            await asyncio.to_thread(moderation.suspend, moderator=root, user=bob, reason="spam")

            # The follower's page removes bob's posts; bob's own page is told to reload and closed.
            assert b'event: suspend\ndata: {"uid": %d}' % bob.uid in await read_until(home, b"event: suspend")
            closing = await read_until(own, b"event: reload")
            assert b"suspended" in closing
            assert await response_ends(own), "bob's live home stays open"
            _, retry_writer, head = await open_live(site.url, bob_session)
            assert head.startswith(b"HTTP/1.1 403"), head  # the reload finds the session ended
            retry_writer.close()

            # No wait for the hub to re-read the policy's state: the suspension withholds bob's posts at once.
            hidden = await asyncio.to_thread(services.post_status, uid=bob.uid, message="while suspended")
            shown = await asyncio.to_thread(services.post_status, uid=carol.uid, message="carol goes on")
            assert await wait_until(lambda: shown in firehose.status_ids(), WAIT_SECONDS)
            after_carol = await read_until(home, f'"id": {shown}'.encode())
            assert hidden not in firehose.status_ids()
            assert b"while suspended" not in after_carol

            # The unsuspension's re-read, after the suspension's: then bob's posts are public again.
            assert await wait_until(lambda: site.hub()["policy_reloads"] > reloads, WAIT_SECONDS)
            reloads = site.hub()["policy_reloads"]
            await asyncio.to_thread(moderation.unsuspend, moderator=root, user=bob, reason="appeal")
            assert await wait_until(lambda: site.hub()["policy_reloads"] > reloads, WAIT_SECONDS)
            back = await asyncio.to_thread(services.post_status, uid=bob.uid, message="back again")
            assert await wait_until(lambda: back in firehose.status_ids(), WAIT_SECONDS)
        finally:
            await firehose.close()
            home_writer.close()
            own_writer.close()

    asyncio.run(scenario())
    site.wait_for_hub(subscriptions=0, streams=0)
