"""How stream events are indexed: the keys under which the hub looks up subscriptions for an event.

An event (a posted or deleted status) is offered to subscriptions registered under any of these keys:

- ``ALL``: every event (sample and firehose streams);
- ``author:<uid>``: events by that user (live home timelines);
- ``login:<login>``: events by that user or mentioning ``@login`` (the ``follow`` filter);
- ``word:<word>``: events whose message contains that word (the ``track`` filter indexes one word per phrase);
- ``GEO``: events carrying a location (the ``locations`` filter).

Words are lowercased and stripped of the punctuation around them, so "Redis," and "redis" are one word.
"""

from __future__ import annotations

import re
from typing import Any

ALL = "*"
GEO = "geo"

# Punctuation that may surround a word ("(redis)", "redis!", "“redis”"); inner punctuation stays ("can't").
_SURROUNDING = "\"'`.,;:!?()[]{}<>«»\u201c\u201d\u2018\u2019\u2026-\u2013\u2014*_~|/\\"
_MENTION = re.compile(r"@([A-Za-z0-9_]+)")


def author_key(uid: int) -> str:
    return f"author:{uid}"


def login_key(login: str) -> str:
    return f"login:{login.lower()}"


def word_key(word: str) -> str:
    return f"word:{word}"


def words(text: str) -> set[str]:
    """The distinct words of ``text``: lowercased, split on whitespace, outer punctuation stripped."""
    found = set()
    for token in text.lower().split():
        token = token.strip(_SURROUNDING)
        if token:
            found.add(token)
    return found


def mentions(text: str) -> set[str]:
    """Lowercased logins mentioned as ``@login`` in ``text``."""
    return {login.lower() for login in _MENTION.findall(text)}


def event_index_keys(event: dict[str, Any]) -> set[str]:
    """Every index key of one event (see the module docstring)."""
    message = str(event.get("message", ""))
    found = {ALL}
    if "uid" in event:
        found.add(author_key(int(event["uid"])))
    if event.get("login"):
        found.add(login_key(str(event["login"])))
    found.update(login_key(login) for login in mentions(message))
    found.update(word_key(word) for word in words(message))
    if event.get("location"):
        found.add(GEO)
    return found
