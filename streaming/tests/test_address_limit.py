"""One client address holds at most ``STREAMING_MAX_CONNECTIONS_PER_ADDRESS`` open streams and live pages at
once, across every server process, whatever identifiers it makes up: one more is refused, 420 with a JSON error
for the API, 429 for a live page, until one closes. Two real daphne processes share the count through Redis."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from accounts.services import sign_up
from socialsite import testing
from socialsite.redis_client import get_redis
from streaming import connections, consumers
from streaming.tests.conftest import SERVER_ENV

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long enough password 42"
LIMIT = 3


@pytest.fixture(scope="module")
def sites(django_db_setup: None) -> Iterator[list[str]]:
    """Two daphne processes on the test database (the live pages need the session), limited to 3 per address."""
    env = {
        **os.environ,
        **SERVER_ENV,
        "STREAMING_MAX_CONNECTIONS_PER_ADDRESS": str(LIMIT),
        "DATABASE_URL": testing.database_url(),
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    log = Path(settings.VAR_DIR)
    with (
        testing.daphne(env, probe="/statuses/hub.json", log_path=log / "address-a.log") as (first, _),
        testing.daphne(env, probe="/statuses/hub.json", log_path=log / "address-b.log") as (second, _),
    ):
        yield [first, second]


class Opened:
    """A raw HTTP/1.1 request whose answer's head has been read; the connection stays open until ``close``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, head: bytes) -> None:
        self.reader, self.writer, self.head = reader, writer, head

    @property
    def status(self) -> int:
        return int(self.head.split(b" ", 2)[1])

    async def body(self) -> bytes:
        """The body of a refusal (which has a length; a stream has none)."""
        length = next(
            int(line.split(b":", 1)[1])
            for line in self.head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        return await asyncio.wait_for(self.reader.readexactly(length), testing.WAIT_SECONDS)

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def request(url: str, target: str, *, method: str = "GET", headers: str = "", body: bytes = b"") -> Opened:
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    head = f"{method} {target} HTTP/1.1\r\nHost: {host}\r\n{headers}"
    if body:
        head += f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
    writer.write(head.encode() + b"\r\n" + body)
    await writer.drain()
    return Opened(writer=writer, reader=reader, head=await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30))


def sample(url: str, identifier: str, headers: str = "") -> asyncio.Future[Opened]:
    return request(url, f"/statuses/sample.json?identifier={identifier}&percent=1", headers=headers)


def filter_(url: str, identifier: str) -> asyncio.Future[Opened]:
    return request(url, f"/statuses/filter.json?identifier={identifier}", method="POST", body=b"track=tea")


def live(url: str, session: str, path: str = "/live/home") -> asyncio.Future[Opened]:
    return request(url, path, headers=f"Cookie: sessionid={session}\r\n")


def session_of(login: str) -> str:
    sign_up(login=login, name=login.title(), password=PASSWORD)
    client = Client()
    assert client.login(username=login, password=PASSWORD)
    return client.cookies["sessionid"].value


async def refused_api(opened: Opened) -> dict:
    assert opened.status == 420, opened.head
    body = json.loads(await opened.body())
    assert body == {"error": "too_many_connections", "message": consumers.TOO_MANY_FROM_ADDRESS}
    return body


def test_one_address_holds_at_most_the_limit_of_streams_and_live_pages_across_processes(sites):
    first, second = sites
    session = session_of("ada")

    async def scenario() -> None:
        # Three streams with three identifiers, on two processes.
        held = [await sample(first, "one"), await filter_(second, "two"), await sample(first, "three")]
        assert [opened.status for opened in held] == [200, 200, 200]
        # A fourth, whatever its identifier, process or endpoint: refused.
        await refused_api(await sample(first, "four"))
        await refused_api(await sample(second, "five"))
        await refused_api(await filter_(first, "six"))
        # A forged X-Forwarded-For from a peer that is not a trusted proxy changes nothing.
        await refused_api(await sample(second, "seven", "X-Forwarded-For: 203.0.113.9\r\nX-Real-IP: 203.0.113.9\r\n"))
        # A live page is refused too, with a page's 429.
        page = await live(second, session)
        assert page.status == 429, page.head
        assert b"retry-after: " in page.head.lower()
        assert b"text/event-stream" not in page.head
        # Closing one frees a place, once the server has seen the close.
        await held.pop(0).close()
        async with asyncio.timeout(testing.WAIT_SECONDS):
            while (page := await live(second, session)).status != 200:
                assert page.status == 429
                await page.close()
                await asyncio.sleep(0.05)
        held.append(page)
        # The live page now holds the place: a stream is refused again, and so is another live page.
        await refused_api(await sample(first, "eight"))
        assert (await live(first, session, "/live/me")).status == 429
        for opened in held:
            await opened.close()
        # Everything closed: the whole allowance is back.
        async with asyncio.timeout(testing.WAIT_SECONDS):
            while (again := await sample(second, "nine")).status != 200:
                await again.close()
                await asyncio.sleep(0.05)
        await again.close()

    asyncio.run(scenario())


def test_the_places_of_a_process_that_died_expire():
    """A process killed while it held streams never releases their places: they expire, as the identifiers'
    do, after ``connections.EXPIRY_SECONDS`` without renewal."""

    async def scenario() -> list[str | None]:
        return [await connections.take_address_place("198.51.100.7", limit=2) for _ in range(3)]

    first, second, refused = asyncio.run(scenario())
    assert first and second and refused is None
    # As if the process holding them had died EXPIRY_SECONDS ago: nobody renewed them since.
    key = connections.address_key("198.51.100.7")
    get_redis().zadd(key, {first: time.time() - 1, second: time.time() - 1})
    assert asyncio.run(connections.take_address_place("198.51.100.7", limit=2)) is not None
