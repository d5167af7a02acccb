"""Search (issue 10, book chapter 7): posts with every word of the query across all shards of the index,
newest first, case and punctuation ignored, deleted posts never found; people and tags by prefix; bad
queries refused; and the per-recipient policy applied to what a viewer finds."""

from __future__ import annotations

import pytest

from socialsite.redis_client import get_redis
from timelines import exceptions, keys, limits, selectors, services
from timelines.tests import policies
from timelines.tests.test_get_does_not_write import redis_changes


def found_ids(query: str, **kwargs) -> list[int]:
    return [status.id for status in selectors.search(query=query, **kwargs).statuses]


def test_search_finds_posts_in_every_shard_newest_first_and_pages_without_repeats(alice, bob):
    posted = [services.post_status(uid=alice if i % 2 else bob, message=f"shared word {i}") for i in range(40)]
    assert {keys.search_shard(status_id) for status_id in posted} == set(range(limits.SEARCH_SHARDS))
    assert found_ids("shared", count=100) == list(reversed(posted))

    seen: list[int] = []
    max_id = None
    while True:
        results = selectors.search(query="shared", count=7, max_id=max_id)
        seen.extend(status.id for status in results.statuses)
        if results.next_max_id is None:
            break
        max_id = results.next_max_id
    assert seen == list(reversed(posted))


def test_a_post_is_found_only_when_it_has_every_word(alice):
    both = services.post_status(uid=alice, message="redis tips for everyone")
    services.post_status(uid=alice, message="only redis here")
    services.post_status(uid=alice, message="only tips here")
    assert found_ids("tips redis") == [both]
    assert found_ids("redis tips nowhere") == []


def test_case_punctuation_and_stop_words_are_ignored(alice):
    status_id = services.post_status(uid=alice, message="Hello, (Redis) World! #Tips… can't stop.")
    for query in ("hello redis", "REDIS, world!", "#redis #tips", "“world” the hello", "can't", "@world"):
        assert found_ids(query) == [status_id], query
    assert found_ids("cant") == []


def test_deleted_posts_are_never_found(alice):
    kept = services.post_status(uid=alice, message="ephemeral thoughts kept")
    gone = services.post_status(uid=alice, message="ephemeral thoughts gone")
    services.delete_status(uid=alice, status_id=gone)
    assert found_ids("ephemeral thoughts") == [kept]
    assert get_redis().zscore(keys.search_word(keys.search_shard(gone), "ephemeral"), gone) is None
    # A status whose hash is gone but whose index entries are not (a deletion cut short) is not shown either.
    get_redis().delete(keys.status(kept))
    assert found_ids("ephemeral") == []


def test_a_search_is_a_pure_read(alice):
    services.post_status(uid=alice, message="scratch space test")
    before = redis_changes()
    assert found_ids("scratch space") != []
    assert redis_changes() == before


def test_people_are_found_by_login_or_display_name_prefix_whatever_the_case(alice, bob, make_user):
    alicia = make_user("alicia", "Alicia Keys")
    people = selectors.search(query="ALI").users
    assert [user.id for user in people] == [alice, alicia]
    assert [user.id for user in selectors.search(query="@alice").users] == [alice]
    assert [user.id for user in selectors.search(query="lidd").users] == [alice]  # a later word of the name
    assert [user.id for user in selectors.search(query="bob builder").users] == [bob]
    assert selectors.search(query="zed").users == ()


def test_a_rename_moves_a_person_in_the_people_index(alice):
    services.update_profile(uid=alice, name="Ada Lovelace")
    assert [user.id for user in selectors.search(query="lovelace").users] == [alice]
    assert [user.id for user in selectors.search(query="alice").users] == [alice]  # still the login
    assert selectors.search(query="liddell").users == ()
    members = get_redis().zrange(keys.SEARCH_USERS, 0, -1)
    assert not [member for member in members if member.startswith("liddell")]


def test_tags_are_found_by_prefix_once_used_publicly(alice):
    services.post_status(uid=alice, message="#redis #Redistricting #rust")
    assert selectors.search(query="#red").tags == ("redis", "redistricting")
    assert selectors.search(query="RUS").tags == ("rust",)
    assert selectors.search(query="red tape").tags == ()


@pytest.mark.parametrize(
    ("query", "error", "message"),
    [
        ("", exceptions.EmptyQuery, exceptions.EMPTY_QUERY),
        ("   \u200b ", exceptions.EmptyQuery, exceptions.EMPTY_QUERY),
        ("x" * (limits.MAX_QUERY_LENGTH + 1), exceptions.InvalidQuery, exceptions.QUERY_TOO_LONG),
        ("redis " * 2000, exceptions.InvalidQuery, exceptions.QUERY_TOO_LONG),
        ("!!! ... ?", exceptions.InvalidQuery, exceptions.NO_SEARCH_WORDS),
        ("the a of", exceptions.InvalidQuery, exceptions.NO_SEARCH_WORDS),
    ],
)
def test_bad_queries_are_refused_with_a_reason(query, error, message):
    with pytest.raises(error) as raised:
        selectors.search(query=query)
    assert raised.value.message == message


def test_a_viewer_the_policy_refuses_does_not_find_the_post(alice, bob, carol, settings, monkeypatch):
    status_id = services.post_status(uid=alice, message="#policy matters to everyone")
    settings.TIMELINES_POLICY = policies.PATH
    monkeypatch.setenv(policies.ENV, policies.refusal(bob, alice))
    assert found_ids("policy matters", viewer_uid=bob) == []
    assert found_ids("policy matters", viewer_uid=carol) == [status_id]
    assert found_ids("policy matters") == [status_id]


def test_refused_posts_are_skipped_and_the_page_is_filled_from_older_ones(alice, bob, settings, monkeypatch):
    older = [services.post_status(uid=bob, message=f"filler post {i}") for i in range(3)]
    services.post_status(uid=alice, message="filler post from alice")
    settings.TIMELINES_POLICY = policies.PATH
    monkeypatch.setenv(policies.ENV, policies.refusal(None, alice))
    results = selectors.search(query="filler", count=3)
    assert [status.id for status in results.statuses] == list(reversed(older))
