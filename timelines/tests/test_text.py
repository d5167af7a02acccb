"""timelines.text: one parser for mentions, tags, links and words."""

from __future__ import annotations

from timelines import text
from timelines.text import Segment

POST = "#Redis tips for @bob https://example.com/#x (see https://en.wikipedia.org/wiki/Foo_(bar)). me@x.com #1 #Café_2"


def test_mentions_are_logins_after_an_at_sign_not_inside_addresses_or_links():
    assert text.mentioned_logins(POST) == ["bob"]
    assert text.mentioned_logins("@Ada @ada @alan_t https://x.org/@carol") == ["ada", "alan_t"]


def test_tags_are_letters_digits_and_underscores_lowercased_never_inside_links_or_numbers_only():
    assert text.tags(POST) == ["redis", "café_2"]
    assert text.tags("&#39; #a#b") == ["a"]
    assert text.is_tag("redis") and not text.is_tag("123") and not text.is_tag("a-b")


def test_links_stop_before_trailing_punctuation_and_unopened_brackets():
    kinds = [(s.kind, s.value) for s in text.segments(POST) if s.kind != "text"]
    assert kinds == [
        ("tag", "Redis"),
        ("mention", "bob"),
        ("url", "https://example.com/#x"),
        ("url", "https://en.wikipedia.org/wiki/Foo_(bar)"),
        ("tag", "Café_2"),
    ]


def test_segments_rebuild_the_text_exactly():
    assert "".join(s.value if s.kind == "text" else "" for s in text.segments("plain")) == "plain"
    rebuilt = "".join({"mention": "@", "tag": "#"}.get(s.kind, "") + s.value for s in text.segments(POST))
    assert rebuilt == POST
    assert text.segments("") == []
    assert text.segments("hi") == [Segment("text", "hi")]


def test_words_ignore_case_and_surrounding_punctuation():
    assert text.words("Redis, (redis) #REDIS! can't node.js") == {"redis", "can't", "node.js"}
