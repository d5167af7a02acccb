"""What a post's text means: its mentions, tags, links and words, found by one parser everywhere.

The same rules decide what the services store (``mentions``, ``tags``), what the search index and the stream
filters match (``words``), and what a page turns into links (``segments``), so a tag that is linked is also
the tag that is indexed, and a word a search finds is a word the ``track`` filter matches:

- a link is ``http://`` or ``https://`` up to whitespace, without trailing punctuation (``.,;:!?`` and a closing
  bracket or quote that was not opened inside it);
- a mention is ``@login`` (letters, digits, ``_``; up to ``MAX_LOGIN_LENGTH``) not preceded by a word
  character, ``@`` or ``/`` (so ``me@example.com`` is no mention), or ``@login@domain`` for an account of another
  server (a domain with at least one dot, and maybe a port; the mention is ``login@domain``, lowercased);
- a tag is ``#`` then letters, digits and ``_`` (any script), not preceded by a word character or ``&``, and
  not made of digits only (``#1`` is a number, as on Mastodon); tags compare lowercased;
- words are lowercased, split on whitespace, with surrounding punctuation stripped and inner punctuation kept
  ("#Redis!" is the word ``redis``, "can't" and "node.js" stay whole); search also drops ``STOP_WORDS``.

Nothing here touches Redis.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from timelines import limits

MAX_MENTIONS = 10
MAX_TAGS = 10
MAX_TAG_LENGTH = 100

_URL = re.compile(r"https?://[^\s<>\"]+", re.IGNORECASE)
_MENTION = re.compile(
    rf"(?<![\w@/])@([A-Za-z0-9_]{{1,{limits.MAX_LOGIN_LENGTH}}}"
    r"(?:@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))+(?::[0-9]{1,5})?)?)(?![\w@])"
)
_TAG = re.compile(rf"(?<![\w&#/])#(\w{{1,{MAX_TAG_LENGTH}}})")
_TRAILING = ".,;:!?"
_PAIRS = {")": "(", "]": "[", "}": "{", "'": "'", '"': '"'}

# Punctuation that may surround a word ("(redis)", "redis!", "“redis”", "#redis", "@ada"); inner punctuation
# stays ("can't", "node.js").
SURROUNDING = "\"'`.,;:!?()[]{}<>«»\u201c\u201d\u2018\u2019\u2026-\u2013\u2014*_~|/\\#@$%&"


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of a post's text: ``kind`` is ``"text"``, ``"url"``, ``"mention"`` (value: the login, or
    ``login@domain``, as typed)
    or ``"tag"`` (value: the tag as typed, without ``#``)."""

    kind: str
    value: str


def _trim_url(url: str) -> str:
    while url:
        last = url[-1]
        if last in _TRAILING or (last in _PAIRS and url.count(_PAIRS[last]) < url.count(last)):
            url = url[:-1]
        else:
            break
    return url


def _links(text: str) -> list[tuple[int, int]]:
    spans = []
    for found in _URL.finditer(text):
        url = _trim_url(found.group(0))
        if len(url) > len("https://"):
            spans.append((found.start(), found.start() + len(url)))
    return spans


def _outside(spans: list[tuple[int, int]], position: int) -> bool:
    return not any(start <= position < end for start, end in spans)


def _is_tag(name: str) -> bool:
    return not name.isdigit()


def is_remote_mention(login: str) -> bool:
    """Whether a mention (``mentioned_logins``) names another server's account (``login@domain``)."""
    return "@" in login


def mentioned_logins(text: str) -> list[str]:
    """The logins ``text`` mentions (``login@domain`` for other servers' accounts), lowercased, in order of
    first mention, at most ``MAX_MENTIONS``."""
    links = _links(text)
    found: dict[str, None] = {}
    for match in _MENTION.finditer(text):
        if _outside(links, match.start()):
            found.setdefault(match.group(1).lower())
    return list(found)[:MAX_MENTIONS]


def normalize_tag(name: str) -> str:
    """A tag as stored and linked: NFC, lowercased (``#Redis`` and ``#redis`` are one tag)."""
    return unicodedata.normalize("NFC", name).lower()


def tags(text: str) -> list[str]:
    """The tags of ``text``, lowercased, in order of first use, at most ``MAX_TAGS``."""
    links = _links(text)
    found: dict[str, None] = {}
    for match in _TAG.finditer(text):
        if _outside(links, match.start()) and _is_tag(match.group(1)):
            found.setdefault(normalize_tag(match.group(1)))
    return list(found)[:MAX_TAGS]


def is_tag(name: str) -> bool:
    """Whether ``name`` (without ``#``) is a whole tag as ``tags`` would find it."""
    return bool(re.fullmatch(rf"\w{{1,{MAX_TAG_LENGTH}}}", name)) and _is_tag(name)


def words(text: str) -> set[str]:
    """The distinct words of ``text``: lowercased, split on whitespace, outer punctuation stripped."""
    found = set()
    for token in text.lower().split():
        token = token.strip(SURROUNDING)
        if token:
            found.add(token)
    return found


# Words too common to narrow a search (a short English list; the book's chapter 7 has a longer one). The
# index leaves them out, and so does a query.
STOP_WORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "i", "in", "is",
        "it", "its", "of", "on", "or", "so", "that", "the", "this", "to", "was", "were", "will", "with",
    }
)  # fmt: skip


def search_words(text: str) -> set[str]:
    """The words of ``text`` that search indexes and matches: ``words`` without ``STOP_WORDS``."""
    return {word for word in words(text) if word not in STOP_WORDS}


def segments(text: str) -> list[Segment]:
    """``text`` cut into plain text, links, mentions and tags, in order, for rendering."""
    marks: list[tuple[int, int, Segment]] = []
    links = _links(text)
    for start, end in links:
        marks.append((start, end, Segment("url", text[start:end])))
    for match in _MENTION.finditer(text):
        if _outside(links, match.start()):
            marks.append((match.start(), match.end(), Segment("mention", match.group(1))))
    for match in _TAG.finditer(text):
        if _outside(links, match.start()) and _is_tag(match.group(1)):
            marks.append((match.start(), match.end(), Segment("tag", match.group(1))))
    marks.sort(key=lambda mark: mark[0])
    pieces: list[Segment] = []
    position = 0
    for start, end, segment in marks:
        if start < position:
            continue
        if start > position:
            pieces.append(Segment("text", text[position:start]))
        pieces.append(segment)
        position = end
    if position < len(text):
        pieces.append(Segment("text", text[position:]))
    return pieces
