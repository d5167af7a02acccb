"""Who may see an event on a public stream: the one visibility check every stream event passes through.

The hub calls ``is_public`` once per event, before any subscription is considered, and offers a non-public
event only to subscriptions made with ``public=False`` (a user's own live home timeline, which does its own
authorization). The streaming API's sample and filter streams are always public subscriptions, so a post that
fails this check reaches none of them, whatever the filter, and neither does its deletion.

Today every account is public. The contract for what comes next (private, i.e. "protected", accounts and
suspensions): the service that publishes an event stamps ``"protected": true`` or ``"suspended": true`` on it
(it knows the author when it publishes), and nothing else needs to change here. A check that needs live state
instead (an account suspended after it posted) belongs in this function too, backed by a per-process cache,
because it runs for every event the process receives.
"""

from __future__ import annotations

from typing import Any

PROTECTED = "protected"
SUSPENDED = "suspended"


def is_public(event: dict[str, Any]) -> bool:
    """True when ``event`` may appear on public streams (sample, filter, firehose)."""
    return not (_flag(event.get(PROTECTED)) or _flag(event.get(SUSPENDED)))


def _flag(value: object) -> bool:
    # Status fields are stored as strings, so "1"/"true" count as well as a JSON true.
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes"}
    return bool(value)
