"""The leak test of issue 11, on the pages: alice is private with approved follower bob; carol is a stranger, dave
blocked alice, and anonymous visitors know nobody. After alice posts, replies, tags, mentions and reposts (and the
others try to repost her; she edits her first post, naming erin too), none of it shows to carol, dave or an
anonymous visitor on home, profile, thread pages, edit histories, tag pages, search, notifications or list
timelines, while bob sees all of it wherever a follower may (everything but the tag page, which is public). The
streams are in ``test_privacy_leak_streams``."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from timelines import exceptions, selectors, services
from timelines.tests.leaks import (
    PUBLIC,
    SECRET,
    TAG,
    VIS_WORD,
    Items,
    People,
    alice_speaks,
    article_ids,
    erin_speaks_in_every_visibility,
    make_people,
    public_posts,
    shows_alice,
    shows_levels,
)
from timelines.tests.test_views import logged_in

pytestmark = pytest.mark.django_db


def status_url(login: str, status_id: int) -> str:
    return reverse("timelines:status", kwargs={"login": login, "status_id": status_id})


def history_url(login: str, status_id: int) -> str:
    return reverse("timelines:history", kwargs={"login": login, "status_id": status_id})


def world() -> tuple[People, Items, dict[str, int], int]:
    """The people, alice's items, each reader's list holding alice (bob's and carol's), and erin's public
    control post that matches what alice's posts match (the tag and the words of the search)."""
    people = make_people()
    lists = {}
    for reader in ("bob", "carol"):
        lists[reader] = services.create_user_list(uid=people.uids[reader], name="people")
        services.follow_user_list(uid=people.uids[reader], other_uid=people.alice, list_id=lists[reader])
    items = alice_speaks(people, *public_posts(people))
    services.like_status(uid=people.bob, status_id=items.post)
    edited = f"{SECRET} plans, edited, #{TAG} with @carol, @dave and @erin"
    assert services.edit_status(uid=people.alice, status_id=items.post, message=edited)
    control = services.post_status(uid=people.erin, message=f"{PUBLIC} {SECRET[:5]} #{TAG}")
    return people, items, lists, control


def surfaces(people: People, items: Items) -> dict[str, str]:
    """Every page a reader could find alice's items on, by name."""
    pages = {
        "home": reverse("timelines:home"),
        "profile": reverse("timelines:profile", kwargs={"login": "alice"}),
        "tag": reverse("timelines:tag", kwargs={"tag": TAG}),
        # Words of alice's posts other than the marker, which a search page repeats in its box.
        "search": reverse("timelines:search") + "?q=plans",
        "search for replies": reverse("timelines:search") + "?q=answer",
        "search by tag": reverse("timelines:search") + f"?q=%23{TAG}",
        "bob's post": status_url("bob", items.bob_post),
        "carol's post": status_url("carol", items.carol_post),
        "erin's post": status_url("erin", items.erin_post),
        "bob's likes": reverse("timelines:likes", kwargs={"login": "bob"}),
        "alice's likes": reverse("timelines:likes", kwargs={"login": "alice"}),
        "notifications": reverse("timelines:notifications"),
    }
    return pages


def test_carol_dave_and_anonymous_visitors_see_none_of_alices_private_items_anywhere():
    people, items, lists, control = world()
    # frank asked to follow alice and waits; gina just signed up (her home suggests whom to follow).
    frank, frank_uid = logged_in("frank")
    assert services.follow_user(uid=frank_uid, other_uid=people.alice) == services.REQUESTED
    gina, _ = logged_in("gina")
    readers = {
        "carol": people.clients["carol"],
        "dave": people.clients["dave"],
        "frank": frank,
        "gina": gina,
        "anonymous": Client(),
    }
    assert set(items.refused) == {"bob", "carol", "dave", "erin"}, "someone reposted a private post"
    leaks = []
    for name, client in readers.items():
        pages = surfaces(people, items)
        if name == "carol":
            pages["carol's list"] = reverse("timelines:list_detail", kwargs={"list_id": lists["carol"]})
        for page, url in pages.items():
            response = client.get(url, follow=name == "anonymous" and page == "notifications")
            assert response.status_code in (200, 404), (name, page, response.status_code)
            found = shows_alice(response.content.decode(), people, items)
            if found:
                leaks.append(f"{name} sees {', '.join(found)} on {page} ({url})")
        for status_id in items.private_ids:
            response = client.get(status_url("alice", status_id))
            if response.status_code != 404 or shows_alice(response.content.decode(), people, items):
                leaks.append(f"{name} sees alice's item {status_id} on its own page ({response.status_code})")
            response = client.get(history_url("alice", status_id))
            if response.status_code != 404 or shows_alice(response.content.decode(), people, items):
                leaks.append(f"{name} sees the edit history of alice's item {status_id} ({response.status_code})")
        profile = client.get(reverse("timelines:profile", kwargs={"login": "alice"})).content.decode()
        if name != "dave" and 'id="private-notice"' not in profile:
            leaks.append(f"{name} is not told that alice's account is private")
    if any(item.actor.id == people.alice for item in selectors.get_notifications(uid=people.erin)):
        leaks.append("erin, named in alice's edit but not her follower, was notified")
    for name in ("carol", "dave", "frank", "gina"):
        home = readers[name].get(reverse("timelines:home")).content.decode()
        if 'id="unread-count"' in home:
            leaks.append(f"{name}'s header counts an unread notification")
        if name in people.uids and selectors.get_unread_count(uid=people.uids[name]):
            leaks.append(f"{name} was notified of something")
    assert leaks == [], "\n".join(leaks)
    assert 'href="/@alice"' in gina.get(reverse("timelines:home")).content.decode()  # suggested, without her posts
    # The same pages show what they should: the control post to everyone, carol's own post to carol.
    tag_page = readers["carol"].get(reverse("timelines:tag", kwargs={"tag": TAG}))
    assert control in article_ids(tag_page.content.decode())
    assert items.carol_post in article_ids(
        readers["anonymous"].get(status_url("carol", items.carol_post)).content.decode()
    )


def test_bob_an_approved_follower_sees_all_of_it_wherever_a_follower_may():
    people, items, lists, control = world()
    bob = people.clients["bob"]

    def shown(url: str) -> list[int]:
        response = bob.get(url)
        assert response.status_code == 200, url
        return article_ids(response.content.decode())

    assert set(items.private_ids) <= set(shown(reverse("timelines:home")))
    assert set(items.private_ids) <= set(shown(reverse("timelines:profile", kwargs={"login": "alice"})))
    assert set(items.private_ids) <= set(shown(reverse("timelines:list_detail", kwargs={"list_id": lists["bob"]})))
    for status_id in items.written:
        assert status_id in shown(status_url("alice", status_id))
    assert items.own_reply in shown(status_url("alice", items.post))
    history = bob.get(history_url("alice", items.post)).content.decode()
    assert history.count('<li class="version">') == 2 and "edited" in history
    assert items.reply_to_bob in shown(status_url("bob", items.bob_post))
    assert items.reply_to_carol in shown(status_url("carol", items.carol_post))
    assert set(items.written) <= set(shown(reverse("timelines:search") + f"?q={SECRET}"))
    # Tag timelines are public listings: a private post is never on one, even for a follower.
    assert shown(reverse("timelines:tag", kwargs={"tag": TAG})) == [control]
    assert items.post in shown(reverse("timelines:likes", kwargs={"login": "bob"}))
    notifications = bob.get(reverse("timelines:notifications")).content.decode()
    assert "replied to you" in notifications and SECRET in notifications


def test_each_visibility_reaches_its_audience_and_nobody_else_on_every_page():
    """erin (public; followed by carol and dave, not by bob) posts unlisted, followers only and direct, each
    mentioning bob. Unlisted shows to anyone who opens it but is never listed, and found by search only for her
    followers; followers only shows to carol and dave; direct (a message) only to bob, who does not follow her,
    in his notifications and on its own page: on no profile and in no search (issue 19)."""
    people = make_people()
    posts = erin_speaks_in_every_visibility(people)
    readers = {login: people.clients[login] for login in ("alice", "bob", "carol", "dave")}
    readers["anonymous"] = Client()
    followers = {"unlisted", "private"}
    everyone_opens = {"unlisted"}
    expected = {
        "home": {"carol": followers, "dave": followers},
        "profile": {"bob": {"unlisted"}, "carol": followers, "dave": followers},
        "tag": {},
        "search": {"carol": followers, "dave": followers},
        "notifications": {"bob": {"unlisted", "direct"}},
    }
    pages = {
        "home": reverse("timelines:home"),
        "profile": reverse("timelines:profile", kwargs={"login": "erin"}),
        "tag": reverse("timelines:tag", kwargs={"tag": TAG}),
        "search": reverse("timelines:search") + f"?q={VIS_WORD}",
        "notifications": reverse("timelines:notifications"),
    }
    wrong = []
    for name, client in readers.items():
        for page, url in pages.items():
            response = client.get(url, follow=name == "anonymous" and page == "notifications")
            assert response.status_code == 200, (name, page, response.status_code)
            default = everyone_opens if page == "profile" else set()
            want = expected[page].get(name, default)
            got = shows_levels(response.content)
            if got != want:
                wrong.append(f"{name} sees {sorted(got)} on {page}, expected {sorted(want)}")
        for level, status_id in posts.items():
            may = level in everyone_opens or (level == "private" and name in ("carol", "dave"))
            may = may or (level == "direct" and name == "bob")
            response = client.get(status_url("erin", status_id))
            opened = response.status_code == 200 and level in shows_levels(response.content)
            if opened != may or response.status_code not in (200, 404):
                wrong.append(f"{name} {'opens' if opened else 'cannot open'} erin's {level} post")
    assert wrong == [], "\n".join(wrong)
    for level in ("private", "direct"):
        for login in ("bob", "carol", "dave"):
            try:
                services.repost_status(uid=people.uids[login], status_id=posts[level])
            except (exceptions.CannotRepost, exceptions.StatusNotFound):
                continue
            wrong.append(f"{login} reposted erin's {level} post")
    assert wrong == []
