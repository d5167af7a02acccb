"""Event indexing: the words, mentions, sample bucket and grid cell under which the hub looks an event up."""

from __future__ import annotations

from streaming import matching


def test_words_are_lowercased_and_stripped_of_surrounding_punctuation_only():
    assert matching.words("Redis, (DJANGO) #python @ada “quoted” can't node.js") == {
        "redis",
        "django",
        "python",
        "ada",
        "quoted",
        "can't",
        "node.js",
    }
    assert matching.words("... -- !!") == set()


def test_mentions_are_logins_after_an_at_sign():
    # An e-mail address is no mention (timelines.text).
    assert matching.mentions("hi @Ada and @alan_t, mail me at x@y.z") == {"ada", "alan_t"}


def test_an_event_is_indexed_by_author_login_mentions_words_bucket_and_cell():
    event = {"id": 1234, "uid": 7, "login": "Ada", "message": "Hello @alan", "location": "51.5,-0.12"}
    assert matching.event_index_keys(event) == {
        matching.ALL,
        matching.sample_key(34),
        matching.author_key(7),
        matching.login_key("ada"),
        matching.login_key("alan"),
        matching.word_key("hello"),
        matching.word_key("alan"),
        matching.GEO,
        matching.geo_cell_key(5, -1),
    }


def test_a_malformed_location_is_ignored():
    for location in ("", "51.5", "north,south", "91,0", "0,181", "nan,0"):
        assert matching.parse_location(location) is None
    assert matching.parse_location("-90,180") == (-90.0, 180.0)


def test_grid_cells_cover_a_box_including_the_poles_and_the_antimeridian_edge():
    assert set(matching.geo_cells(-5, -5, 5, 5)) == {
        matching.geo_cell_key(lat, lon) for lat in (-1, 0) for lon in (-1, 0)
    }
    assert len(set(matching.geo_cells(-90, -180, 90, 180))) == 18 * 36
