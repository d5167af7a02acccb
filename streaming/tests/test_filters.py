"""Stream filters: parsing request parameters, each predicate, and the index keys that route events to them."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.conf import settings

from streaming import filters, matching
from streaming.events import StreamEvent
from timelines import events as timeline_events


def status(message: str = "", *, id: int = 1, login: str = "alice", **extra: str) -> dict:
    return {"id": id, "uid": 1, "login": login, "name": login.title(), "message": message, "posted": 1.0, **extra}


def offered(stream_filter, event: dict) -> bool:
    """Whether the hub would even offer ``event`` to ``stream_filter`` (shares an index key)."""
    return not stream_filter.index_keys().isdisjoint(matching.event_index_keys(event))


def test_the_sample_of_an_identifier_is_pinned_and_the_same_in_another_process():
    buckets = filters.sample_buckets("socialsite", 10)
    assert len(buckets) == 10
    assert buckets == frozenset({4, 7, 16, 28, 29, 45, 61, 63, 80, 98})  # pinned: changing it breaks clients
    # A fresh interpreter with a different hash seed computes the same set (hash() would not).
    code = "from streaming.filters import sample_buckets; print(sorted(sample_buckets('socialsite', 10)))"
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=settings.BASE_DIR,
        env={"PYTHONHASHSEED": "12345"},
    )
    assert other.stdout.strip() == str(sorted(buckets))


def test_a_larger_sample_contains_the_smaller_one_and_100_is_everything():
    small, large = filters.sample_buckets("app", 5), filters.sample_buckets("app", 50)
    assert small < large and len(large) == 50
    assert filters.sample_buckets("app", 100) == frozenset(range(100))
    assert filters.sample_buckets("app", 10) != filters.sample_buckets("other app", 10)


def test_a_sample_filter_is_offered_only_the_buckets_it_keeps():
    sample = filters.SampleFilter.create("app", 10)
    kept = min(sample.buckets)
    skipped = min(set(range(100)) - sample.buckets)
    assert sample(status(id=300 + kept)) and offered(sample, status(id=300 + kept))
    assert not sample(status(id=300 + skipped)) and not offered(sample, status(id=300 + skipped))


def test_parse_sample_defaults_to_ten_and_refuses_anything_but_1_to_100():
    assert filters.parse_sample(None) == filters.parse_sample("") == filters.DEFAULT_PERCENT
    assert filters.parse_sample(" 100 ") == 100
    for bad in ("0", "101", "x", "1.5", "-1", "\u0661\u0660"):  # Arabic-Indic "10"
        with pytest.raises(filters.FilterError, match="percent"):
            filters.parse_sample(bad)


def test_track_needs_every_word_of_one_phrase():
    track = filters.parse_track(["Redis Django, hello"])
    assert track is not None
    for message in ("I like DJANGO and redis.", "hello!", "(hello)", "#redis and @django"):
        event = status(message)
        assert track(event) and offered(track, event), message
    for message in ("redis alone", "djangoredis", "hell o"):
        assert not track(status(message)), message


def test_follow_matches_author_and_mentions_case_insensitively():
    follow = filters.parse_follow(["@Bob,carol"])
    assert follow is not None and follow.logins == {"bob", "carol"}
    for event in (status("hi", login="Bob"), status("hey @BOB!"), status("cc @carol")):
        assert follow(event) and offered(follow, event)
    for event in (status("bob without at"), status("@bobby"), status("mail bob@example.com")):
        assert not follow(event)


def test_locations_match_inside_any_box_on_the_edges_too():
    where = filters.parse_locations(["-10,35,30,60", "165,-48,179,-34"])
    assert where is not None and len(where.boxes) == 2
    for location in ("51.5,-0.12", "35,-10", "60,30", "-41.29,174.78"):
        event = status("x", location=location)
        assert where(event) and offered(where, event), location
    for event in (status("x", location="40.7,-74"), status("x"), status("x", location="garbage")):
        assert not where(event)


def test_a_box_registers_only_the_grid_cells_it_touches():
    europe = filters.parse_locations(["-10,35,30,60"])
    assert europe is not None
    assert not offered(europe, status("x", location="40.7,-74"))
    assert offered(filters.parse_locations(["-180,-90,180,90"]), status("x", location="90,180"))


def test_predicates_are_ored_and_deletions_match_like_posts():
    either = filters.parse_filter({"track": ["redis"], "follow": ["carol"], "location": ["-10,35,30,60"]})
    assert isinstance(either, filters.AnyOf)
    assert either(status("redis")) and either(status("x", login="carol")) and either(status("x", location="50,0"))
    assert not either(status("django", location="40.7,-74"))
    assert either(status("redis", deleted=True))


def test_parse_filter_refuses_no_predicate_and_over_limit_values():
    with pytest.raises(filters.FilterError, match=filters.NO_PREDICATE):
        filters.parse_filter({"track": [" , "]})
    with pytest.raises(filters.FilterError, match="phrases"):
        filters.parse_track([",".join(str(i) for i in range(filters.MAX_TRACK_PHRASES + 1))])
    with pytest.raises(filters.FilterError, match="logins"):
        filters.parse_follow(["a-b"])
    with pytest.raises(filters.FilterError):
        filters.parse_locations(["-10,35,30,inf"])
    with pytest.raises(filters.FilterError):
        filters.parse_locations(["-10,60,30,35"])  # latitudes the wrong way round


def test_duplicates_count_once_towards_the_limits():
    track = filters.parse_track([",".join(["redis"] * (filters.MAX_TRACK_PHRASES + 10))])
    assert track is not None and len(track.phrases) == 1


def test_a_filter_reads_the_words_of_a_decoded_event_once():
    event = StreamEvent(status("Redis rocks"), timeline_events.STATUS_CREATED)
    matching.event_index_keys(event)
    assert event.cache["words"] == {"redis", "rocks"}
    event.cache["words"] = {"cached"}
    assert filters.parse_track(["cached"])(event)
