"""No cross-user write succeeds (issue 11, "an IDOR property test"): hundreds of random (actor, action, target)
triples over every write endpoint of the site, each sent as a real request by a logged-in person.

The write endpoints come from the URL resolver: every named URL of the site is either one of ``WRITES`` (with
a way to aim it at someone else's things) or one of ``READS`` (which must refuse a POST with 405), so a new
endpoint this test does not know fails it instead of being skipped. The staff-only URLs (Django's admin and
django-rq's dashboard, ``STAFF_ONLY``) are checked apart: a member's POST never gets through; so are the
streaming routes Channels serves ahead of Django, which only read.

The property, after each triple "actor X does A to something of Y's": the answer is never a 500; acting on
another person's post, list or account is refused (403, or 404 when X may not see the post, exactly as for a
post that does not exist); and nobody else's own data changed, read back through the selectors: their profile
and settings, their posts and reposts, whom they follow or asked to follow, their blocks, mutes, likes, lists,
which notifications they have read, their password and their reports. What X may legitimately change about
them is left out: their relation with X itself (X's block ends their follow of X; X answers their request to
X), and the counters of posts X may see (X may like them). The counters of the posts X may not see are kept.

The seed is printed with every failure; ``IDOR_SEED=<n>`` replays a run, ``IDOR_ROUNDS=<n>`` makes it longer.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from accounts.models import Report, User
from accounts.services import sign_up
from streaming.routing import http_urlpatterns as streaming_routes
from timelines import exceptions, limits, policy, selectors, services

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
MISSING = 10**12  # a status or list id that does not exist
STAFF_ONLY = {"admin", "django_rq"}  # URL namespaces behind Django's staff check
STAFF_OPEN = {"admin:login", "admin:logout"}  # the admin's log-in form, and logging out of one's own session

# Every cycle sends each write endpoint once, in a shuffled order: 10 cycles of 27 endpoints are 270 triples.
ROUNDS = int(os.environ.get("IDOR_ROUNDS", "10"))

# Named URLs that only read: a POST to any of them answers 405.
READS = {
    "reports:form",
    "reports:sent",
    "timelines:home",
    "timelines:notifications",
    "timelines:follow_requests",
    "timelines:blocks",
    "timelines:mutes",
    "timelines:profile",
    "timelines:status",
    "timelines:likes",
    "timelines:followers",
    "timelines:following",
    "timelines:user_lists",
    "timelines:list_detail",
    "timelines:list_members",
    "timelines:tag",
    "timelines:search",
    "healthz",
}


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


@pytest.fixture
def world(settings) -> World:
    """alice (private, with follower bob and a pending request from carol), bob, carol and dave (who blocks
    carol and asked to follow alice), each with posts, replies, a repost, likes, a list and notifications,
    some read."""
    settings.RATE_LIMITS_ENABLED = False  # as the rate-limit tests do: 270 requests would trip them
    people = World({login: _person(login) for login in ("alice", "bob", "carol", "dave")})
    alice, bob, carol, dave = (people.people[login].uid for login in ("alice", "bob", "carol", "dave"))
    services.post_status(uid=alice, message="#redis before going private")
    bob_post = services.post_status(uid=bob, message="@alice hello from bob #redis")
    carol_post = services.post_status(uid=carol, message="carol's public words")
    services.post_status(uid=dave, message="dave was here")
    services.set_private(uid=alice, private=True)
    services.post_status(uid=alice, message="for my followers only")
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
    services.post_status(uid=carol, message="@bob a reply", in_reply_to=bob_post)
    friends = services.create_user_list(uid=bob, name="Friends")
    services.follow_user_list(uid=bob, other_uid=alice, list_id=friends)
    services.follow_user_list(uid=bob, other_uid=carol, list_id=friends)
    reading = services.create_user_list(uid=carol, name="Reading")
    services.follow_user_list(uid=carol, other_uid=bob, list_id=reading)
    services.mute_user(uid=carol, other_uid=dave)
    services.block_user(uid=dave, other_uid=carol)
    services.mark_notifications_read(uid=bob)
    services.like_status(uid=dave, status_id=bob_post)  # one unread notification after the read ones
    return people


# --- what someone else owns, as the selectors show it -----------------------------------------------------------


def _profile_entries(uid: int) -> list[Any]:
    """``uid``'s profile as they see it: their posts, and their reposts (``repost_id``, showing the original)."""
    return selectors.get_status_messages(uid=uid, timeline="profile", viewer_uid=uid, count=limits.MAX_PAGE_SIZE)


def _own_posts(uid: int) -> list[Any]:
    """The posts ``uid`` wrote (no reposts), newest first."""
    return [entry.status for entry in _profile_entries(uid) if entry.repost_id is None]


def _hidden_from(actor: int, statuses: list[Any]) -> list[Any]:
    """The statuses of ``statuses`` that ``actor`` may not see (the shared policy, as a post's page asks)."""
    seen = {status.id for status in policy.visible_to(viewer=actor, statuses=statuses, context=policy.PAGE)}
    return [status for status in statuses if status.id not in seen]


def snapshot(world: World) -> dict[int, dict[str, Any]]:
    """What each person alone may change, by uid, read through the selectors (``mine`` takes out what an actor
    may change about them), and the counters of their posts."""
    incoming = {p.uid: {user.id for user in selectors.get_follow_requests(uid=p.uid)} for p in world.people.values()}
    found = {}
    for person in world.people.values():
        uid = person.uid
        me = selectors.get_user(uid=uid)
        entries = _profile_entries(uid)
        liked = selectors.get_liked_statuses(uid=uid, viewer_uid=uid, count=limits.MAX_PAGE_SIZE).entries
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
            "lists": {(user_list.id, user_list.name, frozenset(members[user_list.id])) for user_list in lists},
            "read": {n.id: n.unread for n in selectors.get_notifications(uid=uid, count=limits.MAX_PAGE_SIZE)},
            "password": User.objects.get(pk=person.user.pk).check_password(person.password),
            "reports": sorted(
                Report.objects.filter(reporter=person.user).values_list(
                    "reported_id", "status_ids", "reason", "comment", "state"
                )
            ),
            "originals": [entry.status for entry in entries if entry.repost_id is None],
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
        "lists": {(list_id, name, members - {actor}) for list_id, name, members in state["lists"]},
        "password": state["password"],
        "reports": state["reports"],
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


# --- aiming each write endpoint at someone else's things --------------------------------------------------------

OWN = "own"  # the actor's own act (follow, like a post they may see, ...): any answer but a 5xx
REFUSED = "refused"  # someone else's post, list or account: 403, or 404 when it is missing or hidden
HIDDEN = "hidden"  # a post the actor may not see: 404, exactly as for a post that does not exist


@dataclass(frozen=True)
class Attempt:
    path: str
    data: dict[str, Any]
    expect: str
    what: str  # for the failure message


Aim = Callable[[random.Random, World, Person, Person], Attempt]


def _a_post(rng: random.Random, owner: Person, *, reposts: bool = True) -> int:
    """One of ``owner``'s posts (or reposts), or now and then one that does not exist."""
    ids = [
        entry.repost_id or entry.status.id
        for entry in _profile_entries(owner.uid)
        if reposts or entry.repost_id is None
    ]
    return rng.choice(ids) if ids and rng.random() > 0.1 else MISSING


def _visible(actor: Person, status_id: int) -> bool:
    try:
        selectors.get_status(status_id=status_id, viewer_uid=actor.uid)
    except exceptions.StatusNotFound:
        return False
    return True


def _on_post(name: str, *, acting_on_it: bool) -> Aim:
    """like, repost: on a post the actor may not see, 404; else the actor's own act. unlike, unrepost: only ever
    the actor's own like or repost, whosever post it is."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        status_id = _a_post(rng, owner)
        hidden = not _visible(actor, status_id)
        expect = HIDDEN if acting_on_it and hidden else OWN
        return Attempt(reverse(f"timelines:{name}", args=[status_id]), {}, expect, f"{name} {status_id}")

    return aim


def _delete(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    status_id = _a_post(rng, owner)
    expect = REFUSED if _visible(actor, status_id) else HIDDEN
    return Attempt(reverse("timelines:delete", args=[status_id]), {}, expect, f"delete {status_id}")


def _reply(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    status_id = _a_post(rng, owner, reposts=False)
    expect = OWN if _visible(actor, status_id) else HIDDEN
    path = reverse("timelines:reply", kwargs={"login": owner.login, "status_id": status_id})
    return Attempt(path, {"message": f"@{owner.login} a reply by {actor.login}"}, expect, f"reply to {status_id}")


def _on_person(name: str) -> Aim:
    """follow, unfollow (which also withdraws a request), block, unblock, mute, unmute: the owner, or someone
    the owner asked to follow (the actor can only ever withdraw their own request)."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        asked = [
            p for p in world.others(owner) if owner.uid in {u.id for u in selectors.get_follow_requests(uid=p.uid)}
        ]
        target = rng.choice(asked) if asked and rng.random() < 0.5 else owner
        return Attempt(reverse(f"timelines:{name}", args=[target.login]), {}, OWN, f"{name} @{target.login}")

    return aim


def _answer_request(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Approve or reject the owner's request: it acts only on a request addressed to the actor."""
    answer = rng.choice(["approve", "reject"])
    path = reverse("timelines:answer_follow_request", kwargs={"login": owner.login, "answer": answer})
    return Attempt(path, {}, OWN, f"{answer} @{owner.login}'s request")


def _a_list(rng: random.Random, owner: Person) -> int:
    ids = [user_list.id for user_list in selectors.get_user_lists(uid=owner.uid)]
    return rng.choice(ids) if ids and rng.random() > 0.1 else MISSING


def _on_list(name: str) -> Aim:
    """Rename, delete, add or remove a member of the owner's list: 403 (404 for a list that does not exist)."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        list_id = _a_list(rng, owner)
        member = rng.choice(list(world.people.values())).login
        data = {"name": f"taken by {actor.login}", "login": member}
        return Attempt(reverse(f"timelines:{name}", args=[list_id]), data, REFUSED, f"{name} {list_id}")

    return aim


def _pick(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """The list picker names the owner's lists: only the actor's own lists can change."""
    theirs = [str(user_list.id) for user_list in selectors.get_user_lists(uid=owner.uid)]
    member = rng.choice(list(world.people.values())).login
    data = {"shown": theirs, "member": rng.sample(theirs, k=rng.randint(0, len(theirs)))}
    return Attempt(reverse("timelines:list_pick", args=[member]), data, OWN, f"pick @{member} into {theirs}")


def _plain(name: str, data: Callable[[random.Random, Person, Person], dict[str, Any]], what: str) -> Aim:
    """An endpoint that names nobody: it can only act on the actor (their post, lists, settings, session)."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        return Attempt(reverse(name), data(rng, actor, owner), OWN, what)

    return aim


def _report(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """A report of the owner naming some of their posts, hidden ones included: only the posts the reporter may
    see can be reported (checked after the attempt)."""
    ids = [status.id for status in _own_posts(owner.uid)]
    ticked = rng.sample(ids, k=min(len(ids), rng.randint(0, 3)))
    data = {"reason": rng.choice(["spam", "abuse", "other"]), "comment": f"by {actor.login}", "status_ids": ticked}
    if ticked and rng.random() < 0.5:
        data["status"] = ticked[0]
    return Attempt(reverse("reports:send", args=[owner.login]), data, OWN, f"report @{owner.login} {ticked}")


WRITES: dict[str, Aim] = {
    "accounts:signup": _plain(
        "accounts:signup",
        lambda rng, actor, owner: {
            "username": owner.login,
            "name": "Impostor",
            "email": "",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        "sign up as someone else",
    ),
    "accounts:login": _plain(
        "accounts:login",
        lambda rng, actor, owner: {"username": owner.login, "password": actor.password},
        "log in as someone else",
    ),
    "accounts:logout": _plain("accounts:logout", lambda rng, actor, owner: {}, "log out"),
    "accounts:password_change": _plain(
        "accounts:password_change",
        lambda rng, actor, owner: {
            "old_password": owner.password,
            "new_password1": "an entirely new passphrase 1",
            "new_password2": "an entirely new passphrase 1",
        },
        "change the password with someone else's",
    ),
    "reports:send": _report,
    "timelines:compose": _plain(
        "timelines:compose", lambda rng, actor, owner: {"message": f"@{owner.login} #redis hi"}, "post"
    ),
    "timelines:delete": _delete,
    "timelines:like": _on_post("like", acting_on_it=True),
    "timelines:unlike": _on_post("unlike", acting_on_it=False),
    "timelines:repost": _on_post("repost", acting_on_it=True),
    "timelines:unrepost": _on_post("unrepost", acting_on_it=False),
    "timelines:reply": _reply,
    "timelines:notifications_read": _plain("timelines:notifications_read", lambda *_: {}, "mark read"),
    "timelines:answer_follow_request": _answer_request,
    "timelines:follow": _on_person("follow"),
    "timelines:unfollow": _on_person("unfollow"),
    "timelines:block": _on_person("block"),
    "timelines:unblock": _on_person("unblock"),
    "timelines:mute": _on_person("mute"),
    "timelines:unmute": _on_person("unmute"),
    "timelines:list_pick": _pick,
    "timelines:list_create": _plain(
        "timelines:list_create", lambda rng, actor, owner: {"name": f"list {rng.randrange(1000)}"}, "create a list"
    ),
    "timelines:list_add_member": _on_list("list_add_member"),
    "timelines:list_remove_member": _on_list("list_remove_member"),
    "timelines:list_edit": _on_list("list_edit"),
    "timelines:list_delete": _on_list("list_delete"),
    "timelines:profile_settings": _plain(
        "timelines:profile_settings",
        lambda rng, actor, owner: {
            "name": f"Not {owner.login}",
            "bio": "edited",
            **({"private": "on"} if rng.random() < 0.5 else {}),
        },
        "edit the profile",
    ),
}


# --- the URL resolver ---------------------------------------------------------------------------------------------


def named_urls(resolver: URLResolver | None = None, namespace: str = "") -> Iterator[tuple[str, URLPattern]]:
    """Every named URL pattern of the site, with its namespaced name (``timelines:like``)."""
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}:{entry.namespace}" if namespace and entry.namespace else entry.namespace
            yield from named_urls(entry, inner or namespace)
        elif entry.name:
            yield (f"{namespace}:{entry.name}" if namespace else entry.name), entry


def _namespace(name: str) -> str:
    return name.split(":", 1)[0] if ":" in name else ""


def site_urls() -> dict[str, URLPattern]:
    return {name: pattern for name, pattern in named_urls() if _namespace(name) not in STAFF_ONLY}


def test_every_endpoint_of_the_site_is_known_to_this_test():
    """A named URL that is neither a known write nor a known read fails here: add it to WRITES (with a way to
    aim it at someone else's things) or to READS."""
    names = set(site_urls())
    assert not (set(WRITES) & READS)
    assert names - set(WRITES) - READS == set(), "new endpoints the IDOR test does not know"
    assert (set(WRITES) | READS) - names == set(), "endpoints that are gone from the site"


def test_the_streaming_routes_ahead_of_django_are_known_too(settings):
    """Channels serves a few routes before Django's resolver sees the request (``streaming.routing``): the
    streaming API and the live pages, which only read (``filter.json``'s POST carries a filter, not a write). A
    new route there fails here, to be added to the property test if it writes."""
    routes = {str(route.pattern) for route in streaming_routes}
    assert routes == {
        "statuses/sample.json",
        "statuses/filter.json",
        "statuses/hub.json",
        r"^statuses/(?!\d+/)",  # a JSON 404 for any other /statuses/ path
        settings.LIVE_HOME_PATH,
        settings.LIVE_ME_PATH,
    }


def test_the_read_endpoints_refuse_a_post(world: World):
    """What this test treats as read-only really is: a logged-in POST answers 405 (so it cannot write)."""
    bob = world.people["bob"]
    status_id = _own_posts(bob.uid)[0].id
    list_id = selectors.get_user_lists(uid=bob.uid)[0].id
    values = {"login": "bob", "status_id": status_id, "list_id": list_id, "tag": "redis"}
    carol = world.people["carol"]
    for name in sorted(READS):
        pattern = site_urls()[name]
        wanted = set(pattern.pattern.regex.groupindex)
        path = reverse(name, kwargs={key: values[key] for key in wanted})
        assert carol.client.get(path).status_code in (200, 302), path
        assert carol.client.post(path).status_code == 405, path


# --- the property ---------------------------------------------------------------------------------------------------


def _new_report_ids(actor: Person, before: dict[int, list[int]]) -> dict[int, list[int]]:
    now = {report.reported_id: list(report.status_ids) for report in Report.objects.filter(reporter=actor.user)}
    return {reported: [i for i in ids if i not in before.get(reported, [])] for reported, ids in now.items()}


def test_no_cross_user_write_succeeds(world: World):
    seed = int(os.environ.get("IDOR_SEED") or random.randrange(2**32))
    print(f"IDOR seed: {seed} (IDOR_SEED={seed} replays this run)")
    rng = random.Random(seed)
    people = list(world.people.values())
    names = sorted(WRITES)
    assert set(names) == set(site_urls()) - READS
    sent: dict[str, int] = dict.fromkeys(names, 0)
    triples = 0
    before = snapshot(world)
    for _cycle in range(ROUNDS):
        rng.shuffle(names)
        for name in names:
            actor = rng.choice(people)
            owner = rng.choice(world.others(actor))
            attempt = WRITES[name](rng, world, actor, owner)
            where = f"seed {seed}, triple {triples}: @{actor.login} -> {name} ({attempt.what}) of @{owner.login}"
            hidden = {
                other.uid: {s.id for s in _hidden_from(actor.uid, before[other.uid]["originals"])}
                for other in world.others(actor)
            }
            reports_before = {r.reported_id: list(r.status_ids) for r in Report.objects.filter(reporter=actor.user)}

            response = actor.client.post(attempt.path, attempt.data)

            code = response.status_code
            assert code < 500, f"{where}: answered {code}"
            if attempt.expect == REFUSED:
                assert code in (403, 404), f"{where}: answered {code}, not 403 or 404"
            elif attempt.expect == HIDDEN:
                assert code == 404, f"{where}: a post the actor may not see answered {code}, not 404"
                assert exceptions.STATUS_NOT_FOUND in response.content.decode(), f"{where}: not 'No such post.'"
            after = snapshot(world)
            undoing = {"timelines:unlike": 0, "timelines:unrepost": 1}.get(name)
            for other in world.others(actor):
                changed = changes(
                    before[other.uid], after[other.uid], actor=actor.uid, hidden=hidden[other.uid], undoing=undoing
                )
                assert not changed, f"{where}: @{other.login}'s data changed: {changed}"
            for reported, ids in _new_report_ids(actor, reports_before).items():
                unseen = [i for i in ids if not _visible(actor, i)]
                assert not unseen, f"{where}: reported posts of uid {reported} the actor may not see: {unseen}"
            if name == "accounts:logout":
                actor.client.force_login(actor.user)
            sent[name] += 1
            triples += 1
            before = after
    assert triples >= 200 and min(sent.values()) == ROUNDS, sent


def _staff_path(name: str, pattern: URLPattern) -> str | None:
    """A path to ``name`` with made-up arguments that its pattern accepts (ids, app labels), or None."""
    wanted = sorted(pattern.pattern.regex.groupindex)
    candidates = ["1", "x", *(config.label for config in apps.get_app_configs())]
    for values in itertools.product(candidates, repeat=len(wanted)):
        try:
            return reverse(name, kwargs=dict(zip(wanted, values, strict=True)))
        except NoReverseMatch:
            continue
    return None


def test_a_member_gets_nothing_from_the_staff_only_endpoints(world: World):
    """Django's admin and django-rq's dashboard (left out of the inventory above: staff only): a member's POST
    to any of their URLs is sent to the admin's log-in page or refused (401, 403, 404, 405), and writes nothing."""
    carol = world.people["carol"]
    before = snapshot(world)
    staff = [(name, p) for name, p in named_urls() if _namespace(name) in STAFF_ONLY]
    assert len(staff) > 20
    tried, wrong = 0, []
    for name, pattern in staff:
        path = _staff_path(name, pattern)
        if path is None or name in STAFF_OPEN:
            continue
        response = carol.client.post(path, {"action": "delete_selected", "_selected_action": ["1"], "post": "yes"})
        code = response.status_code
        if code not in (302, 401, 403, 404, 405) or (
            code == 302 and not response["Location"].startswith(reverse("admin:login"))
        ):
            wrong.append((name, path, code, response.get("Location")))
        tried += 1
    assert not wrong
    assert tried >= len(staff) * 0.9
    after = snapshot(world)
    for other in world.others(carol):
        hidden = {status.id for status in _hidden_from(carol.uid, before[other.uid]["originals"])}
        assert not changes(before[other.uid], after[other.uid], actor=carol.uid, hidden=hidden), other.login
