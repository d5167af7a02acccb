"""The streaming WebSocket takes the hub's events straight (``api.websocket_streams``): notifications on
``user:notification`` as Mastodon frames them, a refusal answered on the socket, a stream that ended may be
subscribed again, and a suspension ends the person's streams at once while the socket stays open."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
import websocket

from api.tests.helpers import person
from api.tests.test_mastodon_py import hub, log_in
from socialsite import testing
from timelines.services import moderation

pytestmark = pytest.mark.django_db(transaction=True)


class Socket:
    """A WebSocket client that keeps every text message it reads (in a thread)."""

    def __init__(self, url: str, token: str) -> None:
        self.client = websocket.create_connection(
            url.replace("http://", "ws://") + "/api/v1/streaming",
            header=[f"Authorization: Bearer {token}"],
            timeout=testing.WAIT_SECONDS,
        )
        self.messages: list[dict[str, Any]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                text = self.client.recv()
            except (websocket.WebSocketException, OSError):
                return
            if text:
                self.messages.append(json.loads(text))

    def send(self, message: dict[str, Any]) -> None:
        self.client.send(json.dumps(message))

    def close(self) -> None:
        self.client.close()


def test_the_websocket_sends_notifications_answers_refusals_and_ends_streams_on_suspension(site):
    person("olga")
    person("pete")
    olga = log_in(site, "olga", ["read", "write", "follow"])
    pete = log_in(site, "pete", ["read", "write", "follow"])
    olga_id = olga.me()["id"]
    before = hub(site)["subscriptions"]
    socket = Socket(site, olga.access_token)
    try:
        socket.send({"type": "subscribe", "stream": "user:notification"})
        socket.send({"type": "subscribe", "stream": "list", "list": "999999"})
        assert testing.wait_until(lambda: {"error": "Record not found", "status": 404} in socket.messages), (
            socket.messages
        )
        assert testing.wait_until(lambda: hub(site)["subscriptions"] > before), "never subscribed"
        pete.account_follow(olga_id)

        def notified() -> list[dict[str, Any]]:
            return [message for message in socket.messages if message.get("event") == "notification"]

        assert testing.wait_until(lambda: len(notified()) == 1), socket.messages
        message = notified()[0]
        assert message["stream"] == ["user:notification"]
        payload = json.loads(message["payload"])
        assert payload["type"] == "follow" and payload["account"]["username"] == "pete"

        # A suspension ends her streams at once; the socket itself stays open.
        moderation.suspend_user(uid=int(olga_id))
        assert testing.wait_until(lambda: hub(site)["subscriptions"] == before), hub(site)
        moderation.unsuspend_user(uid=int(olga_id))
        # The stream that ended may be subscribed again on the same socket.
        socket.send({"type": "subscribe", "stream": "user:notification"})
        assert testing.wait_until(lambda: hub(site)["subscriptions"] > before), "never subscribed again"
        pete.status_post("@olga welcome back")
        # (A notification of the second before a stream opens may come again: the stream reads from then.)
        assert testing.wait_until(
            lambda: "mention" in [json.loads(message["payload"])["type"] for message in notified()]
        ), socket.messages
    finally:
        socket.close()
    assert testing.wait_until(lambda: hub(site)["subscriptions"] == before), hub(site)
