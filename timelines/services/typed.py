"""A stored status hash as events carry it: ids as ints, ``posted`` as a float (``delivery`` and its audiences)."""

from __future__ import annotations

from typing import Any


def typed(fields: dict[str, str]) -> dict[str, Any]:
    """A stored status hash with its ids as ints and ``posted`` as a float, in stored order (as events carry
    a status)."""
    result: dict[str, Any] = {**fields, "id": int(fields["id"]), "uid": int(fields["uid"])}
    result["posted"] = float(fields["posted"])
    for name in ("in_reply_to", "in_reply_to_uid", "root", "repost_of", "repost_of_uid"):
        if result.get(name):
            result[name] = int(result[name])
    return result
