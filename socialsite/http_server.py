"""daphne as the site runs it: ``python -m socialsite.http_server`` takes daphne's arguments, and answers a request
line or a header line too long to read with 414 or 431 instead of dropping the connection without a word. Request
bodies are Django's alone to parse: Twisted's own parse of form and multipart bodies is switched off (it read every
upload twice, and answered a malformed multipart body with an empty 400 before Django could give its own answer).

Twisted's HTTP channel reads the request head line by line, each line at most ``MAX_LENGTH`` (16 KiB) long; a longer
one reaches ``LineReceiver.lineLengthExceeded``, whose default closes the connection, so a client with a 20 KB URL
got no answer at all. ``HeadTooLargeChannel`` overrides that public hook: a request line gets ``414 URI Too Long``,
a header line ``431 Request Header Fields Too Large``. (A head whose lines each fit but whose sum passes
``totalHeadersSize``, also 16 KiB, keeps Twisted's own answer, 400.)

How the channel is put in: daphne's ``Server.run`` builds its ``HTTPFactory`` and then calls ``ready_callable``
before it runs the reactor, so no connection has been accepted yet; ``Server`` sets the factory's ``protocol``
(Twisted's public factory attribute) to the channel there. Twisted's default protocol wraps the channel in a
private proxy that switches to HTTP/2 when TLS negotiates it; the site's daphne listens on plain TCP (TLS ends at
the proxy in front), where that proxy only passes calls through. Both hooks are pinned with daphne and Twisted in
``requirements.txt``, and ``socialsite/tests/test_http_server.py`` checks the answers on the real server.

A body over ``socialsite.body_limits`` is answered ``413`` as soon as the head says so (``Content-Length``, in
``allHeadersReceived``, Twisted's public step between head and body) or, for a chunked body, as soon as the chunks
pass the limit (the request's ``handleContentChunk``): Twisted would otherwise read the whole body into a file
before daphne hands it to the application. The rest of the body is then read and dropped, never kept, so that the
client, which sends its body before reading any answer, gets to read the 413 instead of a reset.
"""

from __future__ import annotations

import sys
from functools import partial
from typing import Any

from daphne.cli import CommandLineInterface
from daphne.server import Server
from twisted.web.http import HTTPChannel

from socialsite import body_limits
from socialsite.security import security_headers

# How long a connection answered 414 or 431 may go on sending the rest of its request before it is cut: read and
# dropped meanwhile, so that closing with unread data (which makes the kernel send a reset) cannot destroy the
# answer before the client has read it.
DRAIN_SECONDS = 5


def is_request_line(line: bytes) -> bool:
    """Whether the start of a head line is a request line (``GET /path HTTP/1.1``) rather than a header
    (``Name: value``): a method has no colon before the first space, a header name ends with one."""
    space, colon = line.find(b" "), line.find(b":")
    return space != -1 and (colon == -1 or space < colon)


def answer(status: bytes, body: bytes | None = None, content_type: bytes = b"text/plain; charset=utf-8") -> bytes:
    """A complete response (plain text naming the status unless told), with the headers every response of the
    site carries."""
    body = status[4:] + b"\n" if body is None else body
    headers = [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *security_headers(),
    ]
    head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return b"HTTP/1.1 " + status + b"\r\n" + head + b"\r\n" + body


class HeadTooLargeChannel(HTTPChannel):
    """Twisted's HTTP/1.1 channel answering an overlong head line with 414 or 431 (see the module docstring), whose
    requests leave their bodies to Django."""

    @property
    def requestFactory(self) -> Any:  # type: ignore[override]
        return self._request_factory

    @requestFactory.setter
    def requestFactory(self, factory: Any) -> None:
        # Twisted parses a POST's form or multipart body into ``request.args`` before the request is handed on (and
        # answers a malformed multipart body with an empty 400 of its own); daphne never reads those args, Django
        # parses the body itself. ``parsePOSTFormSubmission=False`` is Twisted's switch for that parse.
        self._request_factory = partial(_body_capped(factory), parsePOSTFormSubmission=False)

    def allHeadersReceived(self) -> None:
        length = self.length
        if length is not None and length > body_limits.max_body_bytes(self.request_path()):
            # Before Twisted's own step, which would make the body's file and answer "100 Continue" to a client
            # that waits for it before sending (curl does for large bodies): this one then sends nothing more.
            self.persistent = False
            self.refuse_body(drain=length)
            return
        super().allHeadersReceived()

    def request_path(self) -> str:
        """The path of the request being read (its target without the query)."""
        target = getattr(self, "_path", b"") or b""
        return target.split(b"?", 1)[0].decode("latin-1")

    def refuse_body(self, *, drain: int | None) -> None:
        """Answer 413 now, then read and drop up to ``drain`` more bytes (the rest of the declared body; a chunked
        one until the client stops or ``DRAIN_SECONDS`` pass without data) and close."""
        path = self.request_path()
        content_type, body = body_limits.refusal(path)
        self.transport.write(answer(b"413 Content Too Large", body, content_type.encode()))
        left = [drain]

        def dropped(data: bytes) -> None:
            self.resetTimeout()
            if left[0] is not None:
                left[0] -= len(data)
                if left[0] <= 0:
                    self.transport.loseConnection()

        self.dataReceived = self.lineReceived = self.rawDataReceived = dropped  # type: ignore[method-assign]
        self.setTimeout(DRAIN_SECONDS)
        if drain is not None and drain <= 0:
            self.transport.loseConnection()

    def lineLengthExceeded(self, line: bytes) -> None:
        if is_request_line(line):
            self.transport.write(answer(b"414 URI Too Long"))
        else:
            # The request whose head was cut short: daphne registers a request once its head is complete and
            # fails on the disconnection of one it never saw. (While a request is served Twisted reads no
            # further, so this is the only one.)
            if self.requests:
                self.requests.pop()
            self.transport.write(answer(b"431 Request Header Fields Too Large"))
        # The rest of the request is read and dropped while the answer leaves; the client closes once it has read
        # it, or Twisted's timeout does after DRAIN_SECONDS.
        self.dataReceived = self.lineReceived = lambda *args: None  # type: ignore[method-assign]
        self.setTimeout(DRAIN_SECONDS)
        self.transport.loseWriteConnection()


def _body_capped(factory: Any) -> Any:
    """daphne's request class, counting a chunked body's bytes against ``body_limits`` as they arrive."""

    class BodyCappedRequest(factory):  # type: ignore[misc, valid-type]
        received = 0
        refused = False

        def handleContentChunk(self, data: bytes) -> None:
            if self.refused:
                return
            self.received += len(data)
            if self.channel.length is None and self.received > body_limits.max_body_bytes(self.channel.request_path()):
                self.refused = True
                self.channel.refuse_body(drain=None)
                return
            super().handleContentChunk(data)

    return BodyCappedRequest


class SocialsiteServer(Server):
    """daphne's server with ``HeadTooLargeChannel`` as its HTTP protocol."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        ready = kwargs.pop("ready_callable", None)

        def on_ready() -> None:
            self.http_factory.protocol = HeadTooLargeChannel
            if ready is not None:
                ready()

        super().__init__(*args, ready_callable=on_ready, **kwargs)


class SocialsiteCommandLine(CommandLineInterface):
    server_class = SocialsiteServer


if __name__ == "__main__":
    SocialsiteCommandLine().run(sys.argv[1:])
