"""``manage.py stream``: a command-line client for the streaming API, for developers.

    manage.py stream sample --percent 100
    manage.py stream filter --track "redis,django" --follow ada --locations "-10,35,30,60"

By default it connects to the running site (``--url``, ``http://127.0.0.1:8000`` as ``bin/run`` serves it)
and prints every message the server sends, one JSON object per line, until Ctrl-C, ``--count`` messages or
``--seconds``. ``--in-process`` skips HTTP: it subscribes to Redis from this process through the same hub and
filters as the server, which is handy when no server is running. Parameters are checked exactly as the server
checks them; a refusal is printed with the server's message.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from streaming import events, filters
from streaming.client import DEFAULT_URL, StreamError, open_stream
from streaming.hub import get_hub
from streaming.subscriptions import Disconnect


class Command(BaseCommand):
    help = "Print the streaming API's sample or filter stream, one JSON object per line."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=["sample", "filter"], help="which stream")
        parser.add_argument("--percent", type=int, help="sample: how much of the stream, 1 to 100 (default 10)")
        parser.add_argument("--track", action="append", default=[], help='filter: phrases, e.g. "redis,django"')
        parser.add_argument("--follow", action="append", default=[], help="filter: logins, e.g. ada,alan")
        parser.add_argument(
            "--locations", action="append", default=[], help="filter: boxes lon_min,lat_min,lon_max,lat_max,..."
        )
        parser.add_argument("--identifier", default="manage.py-stream", help="client identifier (seeds the sample)")
        parser.add_argument("--url", default=DEFAULT_URL, help=f"the site to stream from (default {DEFAULT_URL})")
        parser.add_argument("--in-process", action="store_true", help="read Redis from this process, no server")
        parser.add_argument("--delimited", action="store_true", help="ask for delimited=length framing")
        parser.add_argument("--count", type=int, default=0, help="stop after this many messages")
        parser.add_argument("--seconds", type=float, default=0, help="stop after this many seconds")
        parser.add_argument("--keepalives", action="store_true", help="print keep-alive newlines as empty lines")

    def handle(self, *args: Any, **options: Any) -> None:
        kind = options["kind"]
        params: dict[str, str] = {}
        if kind == "sample":
            if options["track"] or options["follow"] or options["locations"]:
                raise CommandError("--track, --follow and --locations are for the filter stream.")
            if options["percent"] is not None:
                params["percent"] = str(options["percent"])
        else:
            if options["percent"] is not None:
                raise CommandError("--percent is for the sample stream.")
            for name in ("track", "follow", "locations"):
                if options[name]:
                    params[name] = ",".join(options[name])
        source = (
            self._in_process(kind, params, options) if options["in_process"] else self._remote(kind, params, options)
        )
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(self._print(source, options))

    async def _print(self, source: AsyncIterator[bytes], options: dict[str, Any]) -> None:
        count, printed = options["count"], 0
        deadline = time.monotonic() + options["seconds"] if options["seconds"] else None
        iterator = aiter(source)
        try:
            while not count or printed < count:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return
                try:
                    async with asyncio.timeout(remaining):
                        line = await anext(iterator)
                except (TimeoutError, StopAsyncIteration):
                    return
                if not line.strip():
                    if options["keepalives"]:
                        self.stdout.write("")
                    continue
                self.stdout.write(line.decode())
                self.stdout.flush()
                printed += 1
        finally:
            with contextlib.suppress(Exception):
                await iterator.aclose()  # type: ignore[attr-defined]

    async def _remote(self, kind: str, params: dict[str, str], options: dict[str, Any]) -> AsyncIterator[bytes]:
        try:
            response = await open_stream(
                kind,
                identifier=options["identifier"],
                params=params,
                url=options["url"],
                delimited=options["delimited"],
            )
        except StreamError as error:
            raise CommandError(f"The server refused the stream: {error}") from None
        except OSError as error:
            raise CommandError(f"Cannot reach {options['url']} ({error}); is the site running (bin/run)?") from None
        self.stderr.write(f"Streaming {kind} from {options['url']} (Ctrl-C to stop)")
        try:
            async for line in response.lines():
                yield line
        finally:
            await response.aclose()

    async def _in_process(self, kind: str, params: dict[str, str], options: dict[str, Any]) -> AsyncIterator[bytes]:
        try:
            if kind == "sample":
                stream_filter: filters.StreamFilter = filters.SampleFilter.create(
                    options["identifier"], filters.parse_sample(params.get("percent"))
                )
            else:
                stream_filter = filters.parse_filter({name: [value] for name, value in params.items()})
        except filters.FilterError as error:
            raise CommandError(str(error)) from None
        hub = get_hub()
        async with hub.subscription(index_keys=stream_filter.index_keys(), matches=stream_filter) as subscription:
            await asyncio.wait_for(hub.connected.wait(), 10)
            self.stderr.write(f"Streaming {kind} from Redis in this process (Ctrl-C to stop)")
            while True:
                item = await subscription.get()
                if isinstance(item, Disconnect):
                    yield events.disconnect_line(item.reason).rstrip()
                    return
                yield events.wire_line(item).rstrip()
