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
"""

from __future__ import annotations

import sys
from functools import partial
from typing import Any

from daphne.cli import CommandLineInterface
from daphne.server import Server
from twisted.web.http import HTTPChannel

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


def answer(status: bytes) -> bytes:
    """A complete plain-text response, with the headers every response of the site carries."""
    body = status[4:] + b"\n"
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
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
        self._request_factory = partial(factory, parsePOSTFormSubmission=False)

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
