"""A small asyncio client for the streaming API, used by ``manage.py stream``, the load client and the tests.

It speaks just enough HTTP/1.1 for this API: one request per connection, a chunked (or close-delimited)
response body, split into the stream's ``\\r\\n``-terminated lines, or read by length with
``delimited=length``. Keep-alive newlines come out as ``None`` from ``messages()``, so a caller can tell an
idle stream from a dead one. No dependency beyond the standard library.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import ssl
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

DEFAULT_URL = "http://127.0.0.1:8000"
_LINE_LIMIT = 1024 * 1024


class StreamError(Exception):
    """The server refused the stream (its status and JSON error body), or the response was not HTTP."""

    def __init__(self, status: int, body: dict[str, Any] | str) -> None:
        message = body.get("message", body) if isinstance(body, dict) else body
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.body = body


@dataclass
class StreamResponse:
    status: int
    headers: dict[str, str]
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    delimited: bool = False
    _buffer: bytearray = field(default_factory=bytearray)
    _chunked: bool = False
    _eof: bool = False

    # --- the body, de-chunked ---

    async def _fill(self) -> bool:
        """Append the next piece of body to the buffer; False at the end of the body."""
        if self._eof:
            return False
        if not self._chunked:
            # A body with a Content-Length (an error answer) ends after that many bytes: the server may keep
            # the connection open for another request, so waiting for the end of the connection would hang.
            length = self.headers.get("content-length")
            if length is not None:
                data = await self.reader.readexactly(int(length)) if int(length) else b""
                self._buffer += data
                self._eof = True
                return bool(data)
            data = await self.reader.read(65536)
            if not data:
                self._eof = True
                return False
            self._buffer += data
            return True
        size_line = await self.reader.readuntil(b"\r\n")
        size = int(size_line.split(b";")[0].strip(), 16)
        if size == 0:
            await self.reader.readuntil(b"\r\n")
            self._eof = True
            return False
        self._buffer += await self.reader.readexactly(size)
        await self.reader.readexactly(2)
        return True

    async def read_line(self) -> bytes | None:
        """The next ``\\r\\n``-terminated line without its terminator, or None at the end of the stream."""
        while True:
            end = self._buffer.find(b"\r\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 2]
                return line
            if len(self._buffer) > _LINE_LIMIT:
                raise StreamError(self.status, "a line longer than 1 MiB")
            if not await self._fill():
                return None

    async def read_exactly(self, size: int) -> bytes | None:
        while len(self._buffer) < size:
            if not await self._fill():
                return None
        data = bytes(self._buffer[:size])
        del self._buffer[:size]
        return data

    async def read_all(self) -> bytes:
        while await self._fill():
            pass
        data = bytes(self._buffer)
        self._buffer.clear()
        return data

    # --- the stream's messages ---

    async def lines(self) -> AsyncIterator[bytes]:
        """Each message as its JSON bytes; keep-alives as ``b""``. Ends when the server closes the stream."""
        while True:
            line = await self.read_line()
            if line is None:
                return
            if self.delimited and line.strip():
                size = int(line)
                framed = await self.read_exactly(size)
                if framed is None:
                    return
                line = framed.removesuffix(b"\r\n")
            yield line

    async def messages(self) -> AsyncIterator[dict[str, Any] | None]:
        """Each message decoded; ``None`` for a keep-alive newline."""
        async for line in self.lines():
            yield json.loads(line) if line.strip() else None

    def close(self) -> None:
        self.writer.close()

    async def aclose(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


def _endpoint(kind: str) -> tuple[str, str]:
    if kind == "sample":
        return "GET", "/statuses/sample.json"
    if kind == "filter":
        return "POST", "/statuses/filter.json"
    raise ValueError(f"Unknown stream {kind!r}: sample or filter.")


async def open_stream(
    kind: str,
    *,
    identifier: str | None,
    params: Mapping[str, str] | None = None,
    url: str = DEFAULT_URL,
    delimited: bool = False,
    receive_buffer: int | None = None,
    timeout: float = 10.0,
    raise_for_status: bool = True,
) -> StreamResponse:
    """Open a ``sample`` (GET, ``params`` in the query) or ``filter`` (POST, ``params`` as a form) stream.

    Returns once the response head has arrived, that is once the server has subscribed the stream. Raises
    ``StreamError`` for a non-200 answer unless ``raise_for_status`` is false. ``receive_buffer`` sets the
    socket's SO_RCVBUF and how far asyncio reads ahead (tests use a small one to play a client that stops
    reading).
    """
    method, path = _endpoint(kind)
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    host = parts.hostname or "127.0.0.1"
    port = parts.port or (443 if secure else 80)
    query: dict[str, str] = {}
    if identifier is not None:
        query["identifier"] = identifier
    if delimited:
        query["delimited"] = "length"
    body = b""
    if method == "GET":
        query.update(params or {})
    else:
        body = urlencode(dict(params or {})).encode()
    target = (parts.path.rstrip("/") + path) + ("?" + urlencode(query) if query else "")
    sock_options: dict[str, Any] = {}
    if receive_buffer is not None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.setblocking(False)
        await asyncio.wait_for(asyncio.get_running_loop().sock_connect(sock, (host, port)), timeout)
        sock_options["sock"] = sock
    else:
        sock_options.update(host=host, port=port)
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(
            ssl=ssl.create_default_context() if secure else None,
            # asyncio reads ahead up to twice this limit; a client playing a slow reader must not.
            limit=min(receive_buffer, _LINE_LIMIT) if receive_buffer else _LINE_LIMIT,
            **sock_options,
        ),
        timeout,
    )
    head = [
        f"{method} {target} HTTP/1.1",
        f"Host: {parts.netloc or host}",
        "Accept: application/json",
        "User-Agent: socialsite-stream-client",
    ]
    if method == "POST":
        head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
    try:
        status_line = await asyncio.wait_for(reader.readuntil(b"\r\n"), timeout)
        headers: dict[str, str] = {}
        while True:
            line = await asyncio.wait_for(reader.readuntil(b"\r\n"), timeout)
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        status = int(status_line.split()[1])
    except (asyncio.IncompleteReadError, ValueError, IndexError):
        writer.close()
        raise StreamError(0, "the server did not answer with HTTP") from None
    except BaseException:
        writer.close()
        raise
    response = StreamResponse(status, headers, reader, writer, delimited=delimited)
    response._chunked = headers.get("transfer-encoding", "").lower() == "chunked"
    if status != 200 and raise_for_status:
        error = await error_body(response)
        writer.close()
        raise StreamError(status, error)
    return response


async def error_body(response: StreamResponse) -> dict[str, Any] | str:
    """The JSON error body of a refused stream (opened with ``raise_for_status=False``)."""
    length = response.headers.get("content-length")
    raw = await response.reader.readexactly(int(length)) if length else await response.read_all()
    try:
        decoded = json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace")
    return decoded if isinstance(decoded, dict) else str(decoded)
