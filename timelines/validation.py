"""What the social graph accepts: logins, display names, bios, messages, list names, a status's extra data
and search queries.

Each ``clean_*`` returns the value as it will be stored, or raises the matching ``TimelineError``. Text is
NFC-normalised, control characters are dropped, and a value made only of invisible characters (spaces,
zero-width joiners, byte-order marks, ...) counts as empty: ``"\\u200b\\u200d\\ufeff"`` is not a post.
Format characters inside visible text are kept, since emoji sequences and scripts need them.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

from timelines import exceptions, limits, text
from timelines.records import CORE_STATUS_FIELDS

_LOGIN_RE = re.compile(limits.LOGIN_PATTERN)
# ASCII digits only, and few enough of them that int() is cheap and the value stays under MAX_ID. Patterns here
# are used with fullmatch: ``$`` would also match before a final newline, so "1\n" would pass as 1.
_DIGITS_RE = re.compile(r"[0-9]{1,16}")
_EXTRA_FIELD_RE = re.compile(r"[a-z][a-z0-9_]{0,31}")

# Unicode categories that draw nothing by themselves: controls, format characters (zero-width space and
# joiners, BOM, bidi marks), separators, and unassigned or private-use code points.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})

# Status fields the product gives meaning to, now or in the features built on it: a caller's extra data
# (book listing 8.2's **data) may never set them, so no post can claim to be deleted, private, a reply, a
# repost, or carry forged counters.
RESERVED_STATUS_FIELDS = frozenset(
    {
        *CORE_STATUS_FIELDS,
        "deleted",
        "protected",
        "private",
        "visibility",
        "suspended",
        "limited",
        "removed",
        "type",
        "v",
        "in_reply_to",
        "in_reply_to_uid",
        "in_reply_to_login",
        "in_reply_to_deleted",
        "root",
        "reply_count",
        "repost_count",
        "like_count",
        "mentions",
        "tags",
        "repost_of",
        "repost_of_uid",
        "repost_of_login",
        "reposted_by",
        "liked",
        "reposted",
        "version",
        "media",
        "sensitive",
    }
)


def parse_int(text: object, *, minimum: int = 1, maximum: int = limits.MAX_ID - 1) -> int:
    """The one parser of integers from the outside (query strings, forms, stream parameters): ASCII digits
    only, at most 16 of them, within [minimum, maximum]. Raises ``ValueError`` for anything else, such as
    ``"²"`` (a digit to ``str.isdigit`` that ``int`` refuses), 5,000 digits, signs, spaces or ``"1e3"``."""
    if not isinstance(text, str) or not _DIGITS_RE.fullmatch(text):
        raise ValueError(f"not a whole number from {minimum} to {maximum}: {str(text)[:20]!r}")
    value = int(text)
    if not minimum <= value <= maximum:
        raise ValueError(f"not a whole number from {minimum} to {maximum}: {value}")
    return value


def _is_visible(ch: str) -> bool:
    return unicodedata.category(ch) not in _INVISIBLE_CATEGORIES


def strip_invisible(text: str) -> str:
    """``text`` without invisible characters at either end (inner ones are kept)."""
    start, end = 0, len(text)
    while start < end and not _is_visible(text[start]):
        start += 1
    while end > start and not _is_visible(text[end - 1]):
        end -= 1
    return text[start:end]


# Control characters (category Cc): C0, DEL and C1. Most text has none, which a regex finds without a Python loop.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")


def _drop_controls(text: str, keep: str = "") -> str:
    if not _CONTROLS.search(text):
        return text
    return "".join(ch for ch in text if ch in keep or unicodedata.category(ch) != "Cc")


def clean_login(login: str) -> str:
    login = (login or "").strip() if isinstance(login, str) else ""
    if not (1 <= len(login) <= limits.MAX_LOGIN_LENGTH) or not _LOGIN_RE.fullmatch(login):
        raise exceptions.InvalidLogin()
    return login


# A host name as other servers are named: labels of letters, digits and hyphens, at least one dot, or an IPv4
# address (servers on loopback in tests and trials: 127.0.0.1:8001), and an optional port. Checked for the shape
# only; whether such a server exists, and whether it may be reached, is federation's business.
_DOMAIN_RE = re.compile(
    r"(?:(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}|(?:[0-9]{1,3}\.){3}[0-9]{1,3})(?::[0-9]{1,5})?"
)
MAX_DOMAIN_LENGTH = 253


def clean_domain(domain: str) -> str:
    """Another server's domain, lowercased; raises ``InvalidLogin`` when it is no host name."""
    domain = domain.strip().lower() if isinstance(domain, str) else ""
    if len(domain) > MAX_DOMAIN_LENGTH + len(":65535") or not _DOMAIN_RE.fullmatch(domain):
        raise exceptions.InvalidLogin()
    return domain


def clean_name(name: str) -> str:
    """A display name: NFC, control characters dropped, whitespace runs collapsed, 1 to 50 characters with
    at least one visible one."""
    if not isinstance(name, str):
        raise exceptions.InvalidName()
    name = _drop_controls(unicodedata.normalize("NFC", name))
    name = strip_invisible(" ".join(name.split()))
    if not (1 <= len(name) <= limits.MAX_NAME_LENGTH):
        raise exceptions.InvalidName()
    return name


def clean_bio(bio: str) -> str:
    """A bio as it will be stored: NFC, newlines unified, control characters dropped, invisible characters at
    either end stripped, at most ``MAX_BIO_LENGTH`` characters. Empty (or only invisible) is allowed: no bio."""
    if not isinstance(bio, str):
        raise exceptions.InvalidBio()
    bio = unicodedata.normalize("NFC", bio).replace("\r\n", "\n").replace("\r", "\n")
    bio = strip_invisible(_drop_controls(bio, keep="\n"))
    if len(bio) > limits.MAX_BIO_LENGTH:
        raise exceptions.InvalidBio()
    return bio


def clean_query(query: str) -> str:
    """A search query: NFC, control characters dropped, whitespace runs collapsed, invisible ends stripped.

    Raises ``EmptyQuery`` when nothing is left, ``InvalidQuery`` when it is longer than ``MAX_QUERY_LENGTH``
    or has no word search can match (``text.search_words``: only punctuation or stop words).
    """
    if not isinstance(query, str):
        raise exceptions.EmptyQuery()
    if len(query) > limits.MAX_QUERY_LENGTH * 4:  # refused before any work is spent on it
        raise exceptions.InvalidQuery(exceptions.QUERY_TOO_LONG)
    query = strip_invisible(" ".join(_drop_controls(unicodedata.normalize("NFC", query)).split()))
    if not query:
        raise exceptions.EmptyQuery()
    if len(query) > limits.MAX_QUERY_LENGTH:
        raise exceptions.InvalidQuery(exceptions.QUERY_TOO_LONG)
    if not text.search_words(query):
        raise exceptions.InvalidQuery(exceptions.NO_SEARCH_WORDS)
    return query


def clean_message(message: str, *, allow_empty: bool = False, max_length: int = limits.MAX_MESSAGE_LENGTH) -> str:
    """The message as it will be stored: NFC-normalised, newlines unified, control characters dropped, and
    invisible characters at either end stripped.

    Raises ``InvalidMessage`` when nothing visible is left (unless ``allow_empty``: a post of images alone) or
    it is longer than ``max_length`` characters (``MAX_MESSAGE_LENGTH`` unless another server's post is edited;
    counted as typed: links and mentions count for what they are).
    """
    if not isinstance(message, str):
        raise exceptions.InvalidMessage()
    message = unicodedata.normalize("NFC", message).replace("\r\n", "\n").replace("\r", "\n")
    message = strip_invisible(_drop_controls(message, keep="\n\t"))
    if not message and not allow_empty:
        raise exceptions.InvalidMessage(exceptions.EMPTY_MESSAGE)
    if len(message) > max_length:
        raise exceptions.InvalidMessage(exceptions.MESSAGE_TOO_LONG)
    return message


def clean_list_name(name: str) -> str:
    if not isinstance(name, str):
        raise exceptions.InvalidListName()
    name = strip_invisible(" ".join(_drop_controls(unicodedata.normalize("NFC", name)).split()))
    if not (1 <= len(name) <= limits.MAX_LIST_NAME_LENGTH):
        raise exceptions.InvalidListName()
    return name


def clean_location(value: object) -> str:
    """A ``"lat,lon"`` string with latitude in [-90, 90] and longitude in [-180, 180]."""
    try:
        lat_text, lon_text = str(value).split(",")
        lat, lon = float(lat_text), float(lon_text)
    except ValueError:
        raise exceptions.InvalidStatusData("Locations are written as latitude,longitude.") from None
    if not (math.isfinite(lat) and math.isfinite(lon) and -90 <= lat <= 90 and -180 <= lon <= 180):
        raise exceptions.InvalidStatusData("That location is not on Earth.")
    return f"{lat:g},{lon:g}"


def clean_extra(data: dict[str, Any]) -> dict[str, str]:
    """Extra status fields (book listing 8.2's ``**data``): short snake_case names that the product does not
    reserve (``RESERVED_STATUS_FIELDS``), short scalar values."""
    if len(data) > limits.MAX_EXTRA_FIELDS:
        raise exceptions.InvalidStatusData()
    cleaned: dict[str, str] = {}
    for name, value in data.items():
        if name in RESERVED_STATUS_FIELDS or not _EXTRA_FIELD_RE.fullmatch(name):
            raise exceptions.InvalidStatusData(f"A post cannot carry a field named {name!r}.")
        if value is None or value == "":
            continue
        if name == "location":
            cleaned[name] = clean_location(value)
            continue
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise exceptions.InvalidStatusData()
        text = str(value)
        if len(text) > limits.MAX_EXTRA_VALUE_LENGTH or any(unicodedata.category(ch) == "Cc" for ch in text):
            raise exceptions.InvalidStatusData()
        cleaned[name] = text
    return cleaned
