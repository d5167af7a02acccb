"""The live pages on a real daphne: a browser that stops reading its live home is cut off with a "reload"
notice and the server's memory stays bounded; twenty that read keep up with a fast burst; the live pages answer
only GET; notices reach every page; and a Redis that is down stalls no other request of the process."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from accounts.services import sign_up
from socialsite import testing
from streaming.tests.conftest import SERVER_ENV, StreamServer, server_on_test_database
from timelines import services

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long enough password 42"


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.fixture(scope="module")
def site(django_db_setup: None) -> Iterator[StreamServer]:
    """A daphne that shares the test database (sessions) and has the streaming tests' small limits."""
    with server_on_test_database("live") as server:
        yield server


def session_of(login: str) -> tuple[str, int]:
    user = sign_up(login=login, name=login.title(), password=PASSWORD)
    client = Client()
    assert client.login(username=login, password=PASSWORD)
    return client.cookies["sessionid"].value, int(user.uid)


async def open_live(url: str, session: str, path: str = "/live/home", method: str = "GET", receive_buffer: int = 0):
    host, port = url.removeprefix("http://").split(":")
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect((host, int(port)))
    sock.setblocking(False)
    reader, writer = await asyncio.open_connection(sock=sock, limit=receive_buffer or 2**16)
    request = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nCookie: sessionid={session}\r\n\r\n"
    writer.write(request.encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), testing.WAIT_SECONDS)
    return reader, writer, head


def test_a_live_home_that_stops_reading_is_cut_off_and_memory_stays_bounded(site):
    session, viewer = session_of("reader")
    author = services.create_user(login="loud", name="Loud")
    services.follow_user(uid=viewer, other_uid=author)

    async def scenario() -> None:
        cut_before = site.hub()["cut_off"]
        reader, writer, head = await open_live(site.url, session, receive_buffer=4096)
        assert head.startswith(b"HTTP/1.1 200")
        before = rss_kib(site.process.pid)
        posted = 0
        while site.hub()["cut_off"] == cut_before and posted < 3000:
            for _ in range(25):
                await asyncio.to_thread(services.post_status, uid=author, message="x" * 250)
                posted += 1
        assert site.hub()["cut_off"] == cut_before + 1, f"never cut off after {posted} posts"

        # It now reads: what it had been sent, then the reload notice, then the end of the stream. It starts at
        # once, so that a slow machine cannot keep it from reading past the server's closing grace (the server
        # then resets the connection); the server holds nothing for it any more either way.
        async def read_to_the_end() -> bytes:
            data = b""
            async with asyncio.timeout(testing.WAIT_SECONDS):
                while chunk := await reader.read(65536):
                    data += chunk
            return data

        reading = asyncio.create_task(read_to_the_end())
        # Nothing is held for it any more: more posts do not grow the server.
        for _ in range(500):
            await asyncio.to_thread(services.post_status, uid=author, message="y" * 250)
        grown = rss_kib(site.process.pid) - before
        assert grown < 8 * 1024, f"daphne grew by {grown} KiB"
        data = await reading
        assert b"event: reload" in data[-200:]
        assert data.count(b"event: post") < posted - 50  # the backlog was not buffered for it
        print(f"cut off after {posted} posts; daphne grew {grown} KiB")
        writer.close()

    asyncio.run(scenario())


def test_the_live_pages_answer_get_only_and_need_a_session(site):
    session, _ = session_of("getter")

    async def scenario() -> None:
        for method in ("POST", "PUT", "DELETE"):
            _, writer, head = await open_live(site.url, session, method=method)
            assert head.startswith(b"HTTP/1.1 405") and b"allow: get, head" in head.lower(), head
            writer.close()
        _, writer, head = await open_live(site.url, "not-a-session")
        assert head.startswith(b"HTTP/1.1 403")
        writer.close()

    asyncio.run(scenario())


def test_notification_counts_reach_an_open_page_live(site):
    session, viewer = session_of("noticed")
    fan = services.create_user(login="fan", name="Fan")

    async def scenario() -> None:
        reader, writer, head = await open_live(site.url, session, path="/live/me")
        assert head.startswith(b"HTTP/1.1 200")
        await asyncio.wait_for(reader.readuntil(b": live\n\n"), testing.WAIT_SECONDS)
        await asyncio.to_thread(services.follow_user, uid=fan, other_uid=viewer)
        block = await asyncio.wait_for(reader.readuntil(b"\n\n"), testing.WAIT_SECONDS)
        while b"event: notifications" not in block:
            block = await asyncio.wait_for(reader.readuntil(b"\n\n"), testing.WAIT_SECONDS)
        assert b'"unread": 1' in block
        writer.close()

    asyncio.run(scenario())


def test_a_redis_that_is_down_stalls_no_other_request(tmp_path):
    """A web process never starts the embedded Redis itself (it blocks): with it down, a stream answers 503
    (once its handshake gives up) while a static file and a page are still served meanwhile."""
    env = {
        **os.environ,
        **SERVER_ENV,
        "REDIS_URL": f"unix://{tmp_path}/nobody-listens.sock",
        "DJANGO_LOG_LEVEL": "CRITICAL",
    }
    env.pop("REDIS_CLUSTER_URL", None)
    with testing.daphne(env, probe="/accounts/login/", log_path=tmp_path / "daphne.log") as (url, _):

        def stream_status() -> int:
            try:
                with urllib.request.urlopen(
                    url + "/statuses/sample.json?identifier=t&percent=100", timeout=testing.WAIT_SECONDS
                ):
                    return 200
            except urllib.error.HTTPError as error:
                return error.code

        async def scenario() -> None:
            stream = asyncio.ensure_future(asyncio.to_thread(stream_status))
            served = 0
            # Counted by what is served while the stream waits for Redis, not by the clock: a request stuck behind
            # the stream's handshake would leave none served before the 503.
            while not stream.done():
                for path in ("/static/css/site.css", "/accounts/login/"):
                    with urllib.request.urlopen(url + path, timeout=testing.WAIT_SECONDS) as response:
                        assert response.status == 200
                if not stream.done():
                    served += 1
                await asyncio.sleep(0.05)
            assert await stream == 503
            assert served >= 1, "no request was served while the stream waited for Redis"

        asyncio.run(scenario())


VIEWERS = 20
# Fewer posts than a test server's stream queue holds (STREAMING_QUEUE_SIZE=50): a reader slowed down by a busy
# machine is never cut off for its own slowness. How the hub keeps queues from overflowing in a longer burst is
# checked on the event loop's order in test_hub.py; how fast live homes are served is measured by the benchmarks.
BURST = 40
POST_ID = re.compile(rb"^id: (\d+)\nevent: post\n", re.MULTILINE)


async def read_post_ids(reader: asyncio.StreamReader, ids: list[int]) -> None:
    """Collect the ids of the ``post`` events of one live home until its stream ends. The body is chunked, one
    chunk per write and whole events in each, so a block may start with a chunk's size line."""
    while True:
        try:
            block = await reader.readuntil(b"\n\n")
        except asyncio.IncompleteReadError:
            return
        if found := POST_ID.search(block):
            ids.append(int(found.group(1)))
        elif b"event: reload" in block:
            return


# Posts from another process, so that this one does nothing but read, as twenty browsers would.
POSTER = """
import json, sys, time
from concurrent.futures import ThreadPoolExecutor
import django
django.setup()
from timelines import services
author, count = int(sys.argv[1]), int(sys.argv[2])
started = time.monotonic()
with ThreadPoolExecutor(4) as pool:
    ids = list(pool.map(lambda i: services.post_status(uid=author, message=f"{i} " + "z" * 200), range(count)))
print(json.dumps({"ids": ids, "rate": count / (time.monotonic() - started)}))
"""


def burst(author: int) -> tuple[list[int], float]:
    """Post ``BURST`` statuses by ``author`` as fast as four threads of another process can."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "socialsite.settings"}
    done = subprocess.run(
        [sys.executable, "-c", POSTER, str(author), str(BURST)],
        env=env,
        cwd=settings.BASE_DIR,
        capture_output=True,
        check=True,
        timeout=120,
    )
    result = json.loads(done.stdout.splitlines()[-1])
    return result["ids"], result["rate"]


def test_twenty_live_homes_receive_every_post_of_a_fast_burst(site):
    """Twenty open live homes that read receive every post of a burst posted as fast as four threads can, and
    none is cut off."""
    viewers = [session_of(f"viewer{i}") for i in range(VIEWERS)]
    author = services.create_user(login="fast", name="Fast")
    for _, uid in viewers:
        services.follow_user(uid=uid, other_uid=author)

    async def scenario() -> None:
        cut_before = site.hub()["cut_off"]
        pages = [await open_live(site.url, session) for session, _ in viewers]
        received: list[list[int]] = [[] for _ in pages]
        for reader, _, head in pages:
            assert head.startswith(b"HTTP/1.1 200")
            await asyncio.wait_for(reader.readuntil(b": live\n\n"), testing.WAIT_SECONDS)
        readers = [
            asyncio.ensure_future(read_post_ids(reader, ids))
            for (reader, _, _), ids in zip(pages, received, strict=True)
        ]
        try:
            posted, rate = await asyncio.to_thread(burst, author)
            deadline = time.monotonic() + testing.WAIT_SECONDS
            while any(len(ids) < BURST for ids in received) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            counts = sorted(len(ids) for ids in received)
            assert site.hub()["cut_off"] == cut_before, f"viewers cut off at {rate:.0f} posts/s; received {counts}"
            assert all(sorted(ids) == sorted(posted) for ids in received), counts
            print(f"{VIEWERS} live homes received all {BURST} posts at {rate:.0f} posts/s")
        finally:
            for task in readers:
                task.cancel()
            for _, writer, _ in pages:
                writer.close()

    asyncio.run(scenario())
