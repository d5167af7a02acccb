"""Direct messages live, on a real daphne (issue 19): an open conversation page receives a new message and the
header's "Messages N" count, and loses a deleted one; a follower's live home never sees the message, and a page
cannot ask for someone else's conversation (the events are its viewer's own)."""

from __future__ import annotations

import asyncio
import json

import pytest

from socialsite import testing
from streaming.tests.conftest import StreamServer
from streaming.tests.test_live_server import open_live, session_of, site
from timelines import services

pytestmark = pytest.mark.django_db(transaction=True)

# The live tests' daphne, a module-scoped fixture: this module starts its own.
__all__ = ["site"]


async def next_event(reader: asyncio.StreamReader, name: bytes) -> dict:
    """The data of the next ``event: <name>`` block of an open stream."""
    while True:
        block = await asyncio.wait_for(reader.readuntil(b"\n\n"), testing.WAIT_SECONDS)
        if f"event: {name.decode()}\n".encode() in block:
            return json.loads(block.split(b"data: ", 1)[1])


def message_id(event: dict) -> int:
    return int(event["id"])


def test_an_open_conversation_receives_a_new_message_and_the_header_count(site: StreamServer):
    bob_session, bob = session_of("dmbob")
    alice = services.create_user(login="dmalice", name="Alice")
    _, conversation_id = services.send_message(uid=alice, message="first words", to=(bob,))
    services.mark_conversation_read(uid=bob, conversation_id=conversation_id)

    async def scenario() -> None:
        path = f"/live/me?conversation={conversation_id}"
        reader, writer, head = await open_live(site.url, bob_session, path=path)
        assert head.startswith(b"HTTP/1.1 200")
        await asyncio.wait_for(reader.readuntil(b": live\n\n"), testing.WAIT_SECONDS)
        await asyncio.to_thread(
            services.send_message, uid=alice, message="are you there?", conversation_id=conversation_id
        )
        message = await next_event(reader, b"message")
        assert "are you there?" in message["html"] and message["mine"] is False
        assert (await next_event(reader, b"messages"))["unread"] == 1
        await asyncio.to_thread(services.mark_conversation_read, uid=bob, conversation_id=conversation_id)
        assert (await next_event(reader, b"messages"))["unread"] == 0
        # alice deletes it: the open page takes it away.
        await asyncio.to_thread(services.delete_status, uid=alice, status_id=message_id(message))
        assert (await next_event(reader, b"unmessage"))["id"] == message_id(message)
        writer.close()

    asyncio.run(scenario())


def test_a_followers_live_home_never_gets_a_message_and_no_page_gets_anothers(site: StreamServer):
    carol_session, carol = session_of("dmcarol")
    alice = services.create_user(login="dmauthor", name="Author")
    dave = services.create_user(login="dmdave", name="Dave")
    services.follow_user(uid=carol, other_uid=alice)
    _, theirs = services.send_message(uid=alice, message="warm up", to=(dave,))

    async def scenario() -> None:
        home, home_writer, head = await open_live(site.url, carol_session, path="/live/home")
        assert head.startswith(b"HTTP/1.1 200")
        await asyncio.wait_for(home.readuntil(b": live\n\n"), testing.WAIT_SECONDS)
        # carol asks for alice and dave's conversation: she gets nothing of it.
        prying, prying_writer, _ = await open_live(site.url, carol_session, path=f"/live/me?conversation={theirs}")
        await asyncio.wait_for(prying.readuntil(b": live\n\n"), testing.WAIT_SECONDS)
        await asyncio.to_thread(services.send_message, uid=alice, message="zebra only for dave", to=(dave,))
        await asyncio.to_thread(services.post_status, uid=alice, message="a public marker")
        seen = b""
        while b"a public marker" not in seen:
            seen += await asyncio.wait_for(home.readuntil(b"\n\n"), testing.WAIT_SECONDS)
        assert b"zebra" not in seen
        # A message to carol herself, after dave's: the first thing her prying page gets is about her own.
        await asyncio.to_thread(services.send_message, uid=alice, message="for carol", to=(carol,))
        first = await asyncio.wait_for(prying.readuntil(b"\n\n"), testing.WAIT_SECONDS)
        # (after the chunk's length line: daphne sends the stream chunked)
        assert b"event: messages\n" in first and b"event: message\n" not in first and b'"unread": 1' in first
        home_writer.close()
        prying_writer.close()

    asyncio.run(scenario())


def test_a_bad_conversation_parameter_is_a_400(site: StreamServer):
    session, _ = session_of("dmbad")

    async def scenario() -> None:
        _, writer, head = await open_live(site.url, session, path="/live/me?conversation=-1")
        assert head.startswith(b"HTTP/1.1 400")
        writer.close()

    asyncio.run(scenario())
