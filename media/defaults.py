"""The picture that stands in for an avatar nobody uploaded: the initials of the display name on a colour chosen
by the login, as an SVG the site draws itself (never an upload: uploaded SVG is refused, since it can carry
script; this one is made from escaped text and served with ``nosniff`` into ``<img>`` only)."""

from __future__ import annotations

import hashlib
from xml.sax.saxutils import escape

# Hues far enough apart to tell neighbours apart, each dark enough for white initials (WCAG AA at this size).
_HUES = (210, 0, 30, 140, 270, 190, 330, 100, 240, 20, 170, 300)


def initials(name: str, login: str) -> str:
    words = [word for word in (name or login).split() if word[:1].isalnum()]
    letters = "".join(word[0] for word in words[:2]) or (login[:1] or "?")
    return letters.upper()


def avatar_svg(*, name: str, login: str) -> bytes:
    hue = _HUES[hashlib.sha256(login.lower().encode()).digest()[0] % len(_HUES)]
    text = escape(initials(name, login))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="40" height="40">'
        f'<rect width="40" height="40" fill="hsl({hue} 55% 38%)"/>'
        '<text x="20" y="20" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" '
        f'font-size="16" font-weight="600" fill="#fff">{text}</text></svg>'
    ).encode()


def version(*, name: str, login: str) -> str:
    """What the generated picture depends on, as a short tag (its ETag)."""
    return hashlib.sha256(f"{login.lower()}\n{initials(name, login)}".encode()).hexdigest()[:16]


def unavailable_svg(text: str) -> bytes:
    """The stand-in for an image that has no file here (yet): a grey 4:3 box with ``text``."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" width="400" height="300">'
        '<rect width="400" height="300" fill="#e4e4e7"/>'
        '<text x="200" y="150" dy=".35em" text-anchor="middle" font-family="system-ui, sans-serif" '
        f'font-size="18" fill="#3f3f46">{escape(text)}</text></svg>'
    ).encode()
