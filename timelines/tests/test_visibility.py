"""Visibility per post (issue 19): each of the four levels on every surface, for each kind of reader.

alice writes one post of each level, each mentioning dave and erin, with the same tag and search word. bob
follows her, erin follows her and is mentioned, dave is mentioned but does not follow her, carol is a
stranger, and ``None`` an anonymous reader. Each of bob, carol, dave and erin has a list holding alice.
"""

from __future__ import annotations

import json

import pytest

from socialsite.redis_client import get_redis
from timelines import events, exceptions, keys, policy, selectors, services, store, visibility
from timelines.tests.helpers import next_message

pytestmark = pytest.mark.django_db

WORD = "quokkaword"
TAG = "vistag"
LEVELS = visibility.LEVELS
READERS = ("alice", "bob", "carol", "dave", "erin", None)


@pytest.fixture
def world(make_user):
    people = {login: make_user(login, login.title()) for login in ("alice", "bob", "carol", "dave", "erin")}
    for follower in ("bob", "erin"):
        services.follow_user(uid=people[follower], other_uid=people["alice"])
    lists = {}
    for owner in ("bob", "carol", "dave", "erin"):
        lists[owner] = services.create_user_list(uid=people[owner], name="people")
        services.follow_user_list(uid=people[owner], other_uid=people["alice"], list_id=lists[owner])
    posts = {
        level: services.post_status(uid=people["alice"], message=f"{level} {WORD} #{TAG} @dave @erin", visibility=level)
        for level in LEVELS
    }
    return people, lists, posts


def uid_of(people: dict[str, int], reader: str | None) -> int | None:
    return None if reader is None else people[reader]


def shown_levels(posts: dict[str, int], ids: list[int]) -> set[str]:
    return {level for level, status_id in posts.items() if status_id in ids}


def ids(entries) -> list[int]:
    return [entry.status.id for entry in entries]


def test_each_post_reads_back_with_its_visibility(world):
    _, _, posts = world
    for level, status_id in posts.items():
        status = selectors.get_status(status_id=status_id)
        assert status.visibility == level
        assert status["visibility"] == level
    # Only the narrower levels are stored: a public hash has no field, as every status written before.
    assert "visibility" not in store.statuses.get_status(posts["public"])
    assert store.statuses.get_status(posts["unlisted"])["visibility"] == "unlisted"


def test_statuses_written_before_visibilities_read_as_private_or_public(alice, bob):
    """Old hashes are not rewritten: the older ``private`` flag reads as private, no flag as public."""
    client = get_redis()
    services.follow_user(uid=bob, other_uid=alice)
    for status_id, extra in ((9_000_001, {"private": "1"}), (9_000_002, {})):
        fields = {"message": "old", "posted": "1763800000.5", "id": status_id, "uid": alice, "login": "alice"}
        client.hset(keys.status(status_id), mapping={**fields, **extra})
    assert selectors.get_status(status_id=9_000_001).visibility == "private"
    assert selectors.get_status(status_id=9_000_002).visibility == "public"
    old_private = selectors.get_status(status_id=9_000_001)
    assert policy.may_see(viewer=bob, status=old_private) is True  # a follower
    assert policy.may_see(viewer=None, status=old_private) is False
    assert policy.may_see(viewer=None, status=selectors.get_status(status_id=9_000_002)) is True


def test_home_timelines_get_what_their_owner_may_see(world):
    people, _, posts = world
    # A direct post is a direct message: in no home at all, not even its author's or a mentioned follower's
    # (issue 19: messages live in /messages and notifications only).
    expected = {
        "alice": {"public", "unlisted", "private"},
        "bob": {"public", "unlisted", "private"},
        "carol": set(),
        "dave": set(),
        "erin": {"public", "unlisted", "private"},
    }
    for reader, levels in expected.items():
        assert shown_levels(posts, ids(selectors.get_status_messages(uid=people[reader]))) == levels, reader


def test_the_profile_the_status_page_and_the_thread_show_each_level_to_its_audience(world):
    people, _, posts = world
    expected = {
        "alice": set(LEVELS),
        "bob": {"public", "unlisted", "private"},
        "carol": {"public", "unlisted"},
        "dave": {"public", "unlisted", "direct"},
        "erin": set(LEVELS),
        None: {"public", "unlisted"},
    }
    for reader, levels in expected.items():
        viewer = uid_of(people, reader)
        profile = selectors.get_status_messages(uid=people["alice"], timeline="profile", viewer_uid=viewer)
        # A direct message opens for its people, and is on no profile (issue 19).
        assert shown_levels(posts, ids(profile)) == levels - {"direct"}, reader
        opened = set()
        for level, status_id in posts.items():
            try:
                selectors.get_status(status_id=status_id, viewer_uid=viewer)
            except exceptions.StatusNotFound:
                continue
            opened.add(level)
        assert opened == levels, reader


def test_replies_in_a_thread_follow_their_own_visibility(world):
    people, _, _ = world
    root = services.post_status(uid=people["carol"], message="what do you think?")
    replies = {
        level: services.post_status(uid=people["alice"], message=f"@dave {level}", in_reply_to=root, visibility=level)
        for level in LEVELS
    }
    expected = {
        "bob": {"public", "unlisted", "private"},
        "carol": {"public", "unlisted"},
        "dave": {"public", "unlisted", "direct"},
    }
    for reader, levels in expected.items():
        thread = selectors.get_thread(status_id=root, viewer_uid=people[reader])
        shown = [item.entry.status.id for item in thread.descendants if item.entry is not None]
        assert shown_levels(replies, shown) == levels, reader


def test_lists_show_unlisted_and_followers_posts_but_never_direct_ones(world):
    people, lists, posts = world
    expected = {
        "bob": {"public", "unlisted", "private"},
        "carol": {"public", "unlisted"},
        "dave": {"public", "unlisted"},
        "erin": {"public", "unlisted", "private"},
    }
    for owner, levels in expected.items():
        entries = selectors.get_list_status_messages(list_id=lists[owner], viewer_uid=people[owner])
        assert shown_levels(posts, ids(entries)) == levels, owner


def test_tag_timelines_and_trending_tags_list_public_posts_only(world):
    people, _, posts = world
    for reader in READERS:
        entries = selectors.get_tag_timeline(tag=TAG, viewer_uid=uid_of(people, reader))
        assert shown_levels(posts, ids(entries)) == {"public"}, reader
    assert dict(selectors.get_trending_tags())[TAG] == 1  # the public post's use only


def test_search_finds_unlisted_posts_for_followers_only(world):
    people, _, posts = world
    # A direct message is never a search result, even for its people (issue 19).
    expected = {
        "alice": {"public", "unlisted", "private"},
        "bob": {"public", "unlisted", "private"},
        "carol": {"public"},
        "dave": {"public"},
        "erin": {"public", "unlisted", "private"},
        None: {"public"},
    }
    for reader, levels in expected.items():
        found = selectors.search(query=WORD, viewer_uid=uid_of(people, reader))
        assert shown_levels(posts, ids(found.statuses)) == levels, reader


def test_mentions_notify_only_the_people_who_may_see_the_post(world):
    people, _, posts = world
    expected = {"dave": {"public", "unlisted", "direct"}, "erin": set(LEVELS)}
    for reader, levels in expected.items():
        notified = [n.status.id for n in selectors.get_notifications(uid=people[reader]) if n.kind == "mention"]
        assert shown_levels(posts, notified) == levels, reader


def test_the_public_streams_get_public_posts_only_as_the_event_says(alice, bob):
    """The hub decides on the event the publisher emits (``filter.json``, ``sample.json``)."""
    pubsub = get_redis().pubsub()
    pubsub.subscribe(keys.STREAM_CHANNEL)
    try:
        published = {}
        for level in LEVELS:
            services.post_status(uid=alice, message=f"{level} @bob", visibility=level)
            while True:
                message = next_message(pubsub)
                assert message is not None
                event = json.loads(message["data"])
                if event["type"] == events.STATUS_CREATED:
                    published[level] = event["status"]
                    break
    finally:
        pubsub.close()
    chooser = policy.get_policy()
    state = chooser.load(recipients=(policy.PUBLIC,), authors=())
    listed = {
        level
        for level, status in published.items()
        if chooser.allows(state, recipient=policy.PUBLIC, item=policy.Item.of_status(status, context=policy.LISTING))
    }
    assert listed == {"public"}
    assert {level: visibility.of_status(status) for level, status in published.items()} == {
        level: level for level in LEVELS
    }


def test_a_follow_copies_what_delivery_would_have_brought(alice, bob, carol):
    """A new follower's home gets what it would have had, had they followed before: never a direct post,
    which is a message (issue 19)."""
    posts = {level: services.post_status(uid=alice, message=f"{level} @bob", visibility=level) for level in LEVELS}
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=carol, other_uid=alice)
    assert shown_levels(posts, ids(selectors.get_status_messages(uid=bob))) == {"public", "unlisted", "private"}
    assert shown_levels(posts, ids(selectors.get_status_messages(uid=carol))) == {"public", "unlisted", "private"}


def test_a_rebuild_keeps_each_home_and_list_as_delivery_made_it(world):
    people, lists, posts = world
    before = {
        reader: shown_levels(posts, ids(selectors.get_status_messages(uid=people[reader])))
        for reader in ("alice", "bob", "erin")
    }
    for reader in ("alice", "bob", "erin"):
        services.rebuild_timeline(uid=people[reader])
        assert shown_levels(posts, ids(selectors.get_status_messages(uid=people[reader]))) == before[reader], reader
    services.rebuild_timeline(list_id=lists["erin"])
    entries = selectors.get_list_status_messages(list_id=lists["erin"], viewer_uid=people["erin"])
    assert shown_levels(posts, ids(entries)) == {"public", "unlisted", "private"}  # never a direct post


def test_only_public_and_unlisted_posts_can_be_reposted(world):
    people, _, posts = world
    assert services.repost_status(uid=people["bob"], status_id=posts["public"])
    assert services.repost_status(uid=people["bob"], status_id=posts["unlisted"])
    for level, reader in (("private", "bob"), ("direct", "erin")):
        with pytest.raises(exceptions.CannotRepost) as refused:
            services.repost_status(uid=people[reader], status_id=posts[level])
        assert refused.value.message == exceptions.CANNOT_REPOST_VISIBILITY


def test_a_repost_of_an_unlisted_post_stays_out_of_the_listings(world):
    people, _, posts = world
    services.repost_status(uid=people["bob"], status_id=posts["unlisted"])
    repost = next(e for e in selectors.get_status_messages(uid=people["bob"], timeline="profile") if e.reposted_by)
    assert repost.repost.visibility == "unlisted"
    # carol follows bob: the repost reaches her home, as the post would on alice's profile.
    services.follow_user(uid=people["carol"], other_uid=people["bob"])
    assert posts["unlisted"] in ids(selectors.get_status_messages(uid=people["carol"]))


def test_bad_visibilities_are_refused_before_anything_is_written(alice, bob):
    before = selectors.get_user(uid=alice).posts
    with pytest.raises(exceptions.InvalidVisibility):
        services.post_status(uid=alice, message="hello", visibility="friends")
    with pytest.raises(exceptions.InvalidVisibility) as nobody:
        services.post_status(uid=alice, message="hello nobody", visibility="direct")
    assert nobody.value.message == exceptions.NO_RECIPIENT
    services.set_private(uid=alice, private=True)
    for level in ("public", "unlisted"):
        with pytest.raises(exceptions.InvalidVisibility) as private:
            services.post_status(uid=alice, message="hello", visibility=level)
        assert private.value.message == exceptions.PRIVATE_ACCOUNT_VISIBILITY
    assert selectors.get_user(uid=alice).posts == before


def test_the_account_default_applies_and_a_private_account_defaults_to_followers_only(alice, bob):
    assert selectors.get_status(status_id=services.post_status(uid=alice, message="a")).visibility == "public"
    services.update_profile(uid=alice, default_visibility="unlisted")
    assert selectors.get_user(uid=alice).default_visibility == "unlisted"
    assert selectors.get_status(status_id=services.post_status(uid=alice, message="b")).visibility == "unlisted"
    services.set_private(uid=alice, private=True)
    assert selectors.get_user(uid=alice).default_visibility == "private"
    assert selectors.get_status(status_id=services.post_status(uid=alice, message="c")).visibility == "private"
    with pytest.raises(exceptions.InvalidVisibility):
        services.update_profile(uid=alice, default_visibility="public")


def test_a_reply_defaults_to_its_parent_and_is_never_wider(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    parent = services.post_status(uid=alice, message="followers only", visibility="private")
    reply = services.post_status(uid=bob, message="@alice agreed", in_reply_to=parent)
    assert selectors.get_status(status_id=reply).visibility == "private"
    with pytest.raises(exceptions.InvalidVisibility):
        services.post_status(uid=bob, message="@alice agreed", in_reply_to=parent, visibility="public")
    narrower = services.post_status(uid=bob, message="@alice psst", in_reply_to=parent, visibility="direct")
    assert selectors.get_status(status_id=narrower, viewer_uid=alice).visibility == "direct"
