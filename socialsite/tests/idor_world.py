"""The people of the IDOR property test (``test_idor.py``) and what they own, as the selectors show it: the
world the random requests are aimed at, and the snapshot that tells whether anybody else's data changed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.test import Client

from accounts.models import Report, User
from accounts.services import sign_up
from media import services as media_services
from media.models import Attachment
from media.tests import images
from timelines import limits, policy, selectors, services

PASSWORD = "correct horse battery staple"


# --- the people and their things -----------------------------------------------------------------------------


@dataclass
class Person:
    login: str
    uid: int
    user: User
    client: Client
    password: str


@dataclass
class World:
    people: dict[str, Person] = field(default_factory=dict)

    def by_uid(self, uid: int) -> Person:
        return next(person for person in self.people.values() if person.uid == uid)

    def others(self, person: Person) -> list[Person]:
        return [other for other in self.people.values() if other is not person]


def _person(login: str) -> Person:
    password = f"{PASSWORD} {login}"
    user = sign_up(login=login, name=login.title(), password=password)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return Person(login, int(user.uid), user, client, password)


def build_world() -> World:
    """alice (private, with follower bob and a pending request from carol), bob, carol and dave (who blocks
    carol and asked to follow alice), each with posts, replies, a repost, likes, bookmarks, a list and
    notifications, some read."""
    people = World({login: _person(login) for login in ("alice", "bob", "carol", "dave")})
    alice, bob, carol, dave = (people.people[login].uid for login in ("alice", "bob", "carol", "dave"))
    services.post_status(uid=alice, message="#redis before going private")
    bob_post = services.post_status(uid=bob, message="@alice hello from bob #redis")
    carol_post = services.post_status(uid=carol, message="carol's public words")
    services.post_status(uid=dave, message="dave was here")
    services.set_private(uid=alice, private=True)
    picture = media_services.upload(owner=alice, data=images.jpeg((8, 8)), description="a private picture")
    services.post_status(uid=alice, message="for my followers only", media_ids=[picture.pk])
    services.post_status(uid=alice, message="@bob a private answer", in_reply_to=bob_post)
    services.follow_user(uid=bob, other_uid=alice)
    services.approve_follow_request(uid=alice, requester_uid=bob)
    services.follow_user(uid=carol, other_uid=alice)  # stays pending
    services.follow_user(uid=dave, other_uid=alice)  # stays pending
    services.follow_user(uid=carol, other_uid=bob)
    services.follow_user(uid=bob, other_uid=dave)
    services.repost_status(uid=bob, status_id=carol_post)
    services.like_status(uid=bob, status_id=carol_post)
    services.like_status(uid=carol, status_id=bob_post)
    services.bookmark_status(uid=bob, status_id=carol_post)
    services.bookmark_status(uid=carol, status_id=bob_post)
    services.post_status(uid=carol, message="@bob a reply", in_reply_to=bob_post)
    friends = services.create_user_list(uid=bob, name="Friends")
    services.follow_user_list(uid=bob, other_uid=alice, list_id=friends)
    services.follow_user_list(uid=bob, other_uid=carol, list_id=friends)
    reading = services.create_user_list(uid=carol, name="Reading")
    services.follow_user_list(uid=carol, other_uid=bob, list_id=reading)
    services.mute_user(uid=carol, other_uid=dave)
    services.block_user(uid=dave, other_uid=carol)
    services.mark_notifications_read(uid=bob)
    for uid in (alice, bob, carol, dave):  # an upload each, not posted yet: nobody else may post or describe it
        media_services.upload(owner=uid, data=images.jpeg((8, 8)), description="theirs")
    services.like_status(uid=dave, status_id=bob_post)  # one unread notification after the read ones
    _, with_bob = services.send_message(uid=alice, message="a direct word", to=(bob,))
    services.send_message(uid=bob, message="a direct answer", conversation_id=with_bob)
    services.send_message(uid=bob, message="a word for carol", to=(carol,))
    return people


# --- what someone else owns, as the selectors show it -----------------------------------------------------------


def profile_entries(uid: int) -> list[Any]:
    """``uid``'s profile as they see it: their posts, and their reposts (``repost_id``, showing the original)."""
    return selectors.get_status_messages(uid=uid, timeline="profile", viewer_uid=uid, count=limits.MAX_PAGE_SIZE)


def own_posts(uid: int) -> list[Any]:
    """The posts ``uid`` wrote (no reposts), newest first."""
    return [entry.status for entry in profile_entries(uid) if entry.repost_id is None]


def hidden_from(actor: int, statuses: list[Any]) -> list[Any]:
    """The statuses of ``statuses`` that ``actor`` may not see (the shared policy, as a post's page asks)."""
    seen = {status.id for status in policy.visible_to(viewer=actor, statuses=statuses, context=policy.PAGE)}
    return [status for status in statuses if status.id not in seen]


def snapshot(world: World) -> dict[int, dict[str, Any]]:
    """What each person alone may change, by uid, read through the selectors (``mine`` takes out what an actor
    may change about them), and the counters of their posts."""
    incoming = {p.uid: {user.id for user in selectors.get_follow_requests(uid=p.uid)} for p in world.people.values()}
    # The SQL side, each table read once for everybody (the Redis side goes through the selectors, person by person).
    everyone = list(world.people.values())
    accounts = User.objects.in_bulk([person.user.pk for person in everyone])
    reports: dict[int, list[tuple[Any, ...]]] = {person.user.pk: [] for person in everyone}
    for reporter, *report in Report.objects.filter(reporter__in=list(reports)).values_list(
        "reporter_id", "reported_id", "status_ids", "reason", "comment", "state"
    ):
        reports[reporter].append(tuple(report))
    uploads: dict[int, list[tuple[Any, ...]]] = {person.uid: [] for person in everyone}
    for owner, *upload in Attachment.objects.filter(owner__in=list(uploads)).values_list(
        "owner", "pk", "status_id", "description", "focus_x"
    ):
        uploads[owner].append(tuple(upload))
    found = {}
    for person in world.people.values():
        uid = person.uid
        me = selectors.get_user(uid=uid)
        entries = profile_entries(uid)
        liked = selectors.get_liked_statuses(uid=uid, viewer_uid=uid, count=limits.MAX_PAGE_SIZE).entries
        bookmarked = selectors.get_bookmarks(uid=uid, count=limits.MAX_PAGE_SIZE).entries
        lists = selectors.get_user_lists(uid=uid)
        members = {
            user_list.id: {u.id for u in selectors.get_list_members(list_id=user_list.id, count=limits.MAX_PAGE_SIZE)}
            for user_list in lists
        }
        found[uid] = {
            "profile": (me.name, me.bio, me.private),
            # (repost id or None, post id, message, author)
            "posts": [(e.repost_id, e.status.id, e.status.message, e.status.uid) for e in entries],
            "following": set(selectors.get_following_ids(uid=uid)),
            "requests": {other for other, requesters in incoming.items() if uid in requesters},
            "blocks": {user.id for user in selectors.get_blocked_users(uid=uid)},
            "mutes": {user.id for user in selectors.get_muted_users(uid=uid)},
            "likes": {(entry.status.id, entry.status.uid) for entry in liked},
            "bookmarks": {(entry.status.id, entry.status.uid) for entry in bookmarked},
            "lists": {(user_list.id, user_list.name, frozenset(members[user_list.id])) for user_list in lists},
            "read": {n.id: n.unread for n in selectors.get_notifications(uid=uid, count=limits.MAX_PAGE_SIZE)},
            # (conversation id, the others in it, unread, last message id)
            "conversations": {
                (c.id, frozenset(p.id for p in c.others), c.unread, c.last.status.id if c.last else None)
                for c in selectors.get_conversations(uid=uid, count=limits.MAX_PAGE_SIZE)
            },
            "password": accounts[person.user.pk].check_password(person.password),
            "reports": sorted(reports[person.user.pk]),
            "originals": [entry.status for entry in entries if entry.repost_id is None],
            # Their uploads: which post has each, its alt text and focal point.
            "media": sorted(uploads[uid]),
        }
    return found


def mine(state: dict[str, Any], actor: int) -> dict[str, Any]:
    """Of one person's ``snapshot``, what ``actor`` has no say in: their relation with the actor left out (the
    actor's block ends their follow of the actor and takes the actor's posts out of their view; the actor
    answers their request to the actor)."""
    return {
        "profile": state["profile"],
        "posts": [post for post in state["posts"] if post[0] is None or post[3] != actor],
        "following": state["following"] - {actor},
        "requests": state["requests"] - {actor},
        "blocks": state["blocks"],
        "mutes": state["mutes"],
        "likes": {like for like in state["likes"] if like[1] != actor},
        "bookmarks": {bookmark for bookmark in state["bookmarks"] if bookmark[1] != actor},
        "lists": {(list_id, name, members - {actor}) for list_id, name, members in state["lists"]},
        "password": state["password"],
        "reports": state["reports"],
        "media": state["media"],
        # A conversation with the actor is theirs too: a message they send to it is new and unread there.
        "conversations": {c for c in state["conversations"] if actor not in c[1]},
    }


def _counters(state: dict[str, Any]) -> dict[int, tuple[int, int, int]]:
    return {s.id: (s.like_count, s.repost_count, s.reply_count) for s in state["originals"]}


def changes(
    before: dict[str, Any], after: dict[str, Any], *, actor: int, hidden: set[int], undoing: int | None = None
) -> dict[str, Any]:
    """What differs between two snapshots of one person that ``actor`` had no say in. Of the notifications, only
    the read state of those in both; of the counters, only those of the posts the actor could not see
    (``hidden``), which nothing may raise. ``undoing``: the actor takes back their own like (0) or repost (1),
    which may lower that counter by one."""
    was_mine, now_mine = mine(before, actor), mine(after, actor)
    changed = {key: (was_mine[key], now_mine[key]) for key in was_mine if was_mine[key] != now_mine[key]}
    read = {n: (flag, after["read"][n]) for n, flag in before["read"].items() if after["read"].get(n, flag) != flag}
    if read:
        changed["read"] = read
    counters_before, counters_after = _counters(before), _counters(after)
    counters = {}
    for status_id in hidden:
        was, now = counters_before[status_id], counters_after.get(status_id)
        allowed = {was}
        if undoing is not None:
            allowed.add(tuple(count - (index == undoing) for index, count in enumerate(was)))
        if now not in allowed:
            counters[status_id] = (was, now)
    if counters:
        changed["counters of hidden posts"] = counters
    return changed
