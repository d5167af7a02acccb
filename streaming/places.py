"""Who may open another stream: the places an API stream or a live page holds while it is open.

Every stream and live page takes a place of its client address (``settings.STREAMING_MAX_CONNECTIONS_PER_ADDRESS``;
an API stream also one of its identifier's, ``settings.STREAMING_MAX_CONNECTIONS``), renews them while it lasts
and gives them back when it ends; ``streaming.connections`` keeps the count in Redis, so it holds across every
server process, and the places of a process that died expire. Without the address limit, one address made up a
thousand identifiers and held a thousand streams (issue 18).

The address is the one the whole site trusts: ``scope["client"]`` as ``socialsite.proxies`` set it (the peer, or
the client a trusted proxy named; a forged ``X-Forwarded-For`` changes nothing), counted as the rate limits count
it (an IPv6 client by its /64). A connection without a known peer (a unix socket) has no address limit.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from socialsite.proxies import counted_address
from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming import connections


class TooManyFromAddress(Exception):
    """The client address already holds ``STREAMING_MAX_CONNECTIONS_PER_ADDRESS`` streams and live pages."""


class TooManyForIdentifier(Exception):
    """The identifier already holds ``STREAMING_MAX_CONNECTIONS`` streams."""


def client_address(scope: Mapping[str, Any]) -> str | None:
    """The address a connection is counted under, or None when its peer is unknown."""
    client = scope.get("client")
    if not client or not client[0]:
        return None
    return counted_address(str(client[0]))


@dataclass
class Places:
    """The places one open stream holds; ``keep`` renews them while it lasts, ``release`` gives them back."""

    address: str | None = None
    address_place: str | None = None
    identifier: str | None = None
    identifier_place: str | None = None
    _released: bool = field(default=False, repr=False)

    async def renew(self) -> None:
        if self.address is not None and self.address_place is not None:
            await connections.renew_address(self.address, self.address_place)
        if self.identifier is not None and self.identifier_place is not None:
            await connections.renew(self.identifier, self.identifier_place)

    async def keep(self) -> None:
        """Renew the places every ``HEARTBEAT_SECONDS`` until cancelled (a Redis hiccup skips one renewal)."""
        while True:
            await asyncio.sleep(connections.HEARTBEAT_SECONDS)
            with contextlib.suppress(*UNAVAILABLE_ERRORS):
                await self.renew()

    async def release(self) -> None:
        """Give the places back; once only, and never raising for an unavailable Redis (they expire then)."""
        if self._released:
            return
        self._released = True
        with contextlib.suppress(*UNAVAILABLE_ERRORS):
            if self.identifier is not None and self.identifier_place is not None:
                await connections.release(self.identifier, self.identifier_place)
            if self.address is not None and self.address_place is not None:
                await connections.release_address(self.address, self.address_place)


async def take(scope: Mapping[str, Any], *, identifier: str | None = None) -> Places:
    """The places of a new stream from ``scope``'s client (and of ``identifier``, for the API). Raises
    ``TooManyFromAddress`` or ``TooManyForIdentifier`` when one is full (nothing is then held), and Redis's
    unavailable errors."""
    places = Places(address=client_address(scope), identifier=identifier)
    limit = settings.STREAMING_MAX_CONNECTIONS_PER_ADDRESS
    try:
        if places.address is not None and limit > 0:
            places.address_place = await connections.take_address_place(places.address, limit=limit)
            if places.address_place is None:
                raise TooManyFromAddress
        if identifier is not None:
            places.identifier_place = await connections.take_place(identifier)
            if places.identifier_place is None:
                raise TooManyForIdentifier
    except BaseException:
        # Racing connections may both be refused here for a moment; neither keeps a place it cannot use.
        await places.release()
        raise
    return places
