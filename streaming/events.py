"""The wire format of stream events, shared by the publishing services and the streaming consumers.

Every event on ``keys.STREAM_CHANNEL`` is one JSON object: a posted status exactly as stored (id, uid,
login, name, message, posted and any extra fields such as location), or, for a deletion, that same status
with ``"deleted": true`` so filters can decide whether a client had seen it.
"""

from __future__ import annotations

import json
from typing import Any


def encode_posted(status: dict[str, Any]) -> str:
    return json.dumps(status, separators=(",", ":"), ensure_ascii=False)


def encode_deleted(status: dict[str, Any]) -> str:
    return json.dumps({**status, "deleted": True}, separators=(",", ":"), ensure_ascii=False)


def decode(message: str | bytes) -> dict[str, Any]:
    return json.loads(message)
