"""No cross-user write succeeds (issue 11, "an IDOR property test"): hundreds of random (actor, action, target)
triples over every write endpoint of the site, each sent as a real request by a logged-in person.

The write endpoints come from the URL resolver: every named URL of the site is either one of ``WRITES`` (with a way
to aim it at someone else's things, in ``idor_attempts.py``) or one of ``READS`` (which must refuse a POST with
405), so a new endpoint this test does not know fails it instead of being skipped. The staff-only URLs (Django's
admin and django-rq's dashboard, ``STAFF_ONLY``) are checked apart: a member's POST never gets through; so are the
streaming routes Channels serves ahead of Django, which only read.

The property, after each triple "actor X does A to something of Y's": the answer is never a 500; acting on another
person's post, list or account is refused (403, or 404 when X may not see the post, exactly as for a post that does
not exist); and nobody else's own data changed, read back through the selectors (``idor_world.py``): their profile
and settings, their posts and reposts, whom they follow or asked to follow, their blocks, mutes, likes, lists, which
notifications they have read, their password and their reports. What X may legitimately change about them is left
out: their relation with X itself (X's block ends their follow of X; X answers their request to X), and the counters
of posts X may see (X may like them). The counters of the posts X may not see are kept.

The seed is printed with every failure; ``IDOR_SEED=<n>`` replays a run, ``IDOR_ROUNDS=<n>`` makes it longer.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator

import pytest
from django.apps import apps
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from accounts.models import Report
from media import services as media_services
from media.tests import images
from socialsite.tests.idor_api import API_READS, API_WRITES, bearer, token_of
from socialsite.tests.idor_attempts import HIDDEN, REFUSED, WRITES, visible
from socialsite.tests.idor_world import Person, World, build_world, changes, hidden_from, own_posts, snapshot
from streaming.routing import http_urlpatterns as streaming_routes
from timelines import selectors

pytestmark = pytest.mark.django_db

STAFF_ONLY = {"admin", "django_rq"}  # URL namespaces behind Django's staff check
STAFF_OPEN = {"admin:login", "admin:logout"}  # the admin's log-in form, and logging out of one's own session

# Every cycle sends each write endpoint once, in a shuffled order: 10 cycles of 27 endpoints are 270 triples.
ROUNDS = int(os.environ.get("IDOR_ROUNDS", "10"))

# Named URLs that only read: a POST to any of them answers 405.
READS = {
    "media:file",
    "reports:form",
    "reports:sent",
    "timelines:home",
    "timelines:notifications",
    "timelines:messages",
    "timelines:follow_requests",
    "timelines:blocks",
    "timelines:mutes",
    "timelines:profile",
    "timelines:status",
    "timelines:history",
    "timelines:likes",
    "timelines:bookmarks",
    "timelines:avatar",
    "timelines:followers",
    "timelines:following",
    "timelines:user_lists",
    "timelines:list_detail",
    "timelines:list_members",
    "timelines:tag",
    "timelines:search",
    "healthz",
    "api:applications",
    # Federation's documents (JSON for other servers).
    "federation:instance_actor",
    "federation:outbox",
    "federation:followers",
    "federation:following",
    "federation:featured",
    "federation:replies",
}
# Federation's inboxes take only activities signed by another server's actor (HTTP Signatures): a member's POST,
# signed by nothing but a session, is 401 and writes nothing (federation/tests/test_inbox.py covers the signed ones).
SIGNED_ONLY = {"federation:inbox", "federation:shared_inbox"}
ALL_WRITES = {**WRITES, **API_WRITES}
# Endpoints that take back the actor's own like (0) or repost (1): that counter of a post may drop by one.
UNDOING = {"timelines:unlike": 0, "timelines:unrepost": 1, "api:unfavourite": 0, "api:unreblog": 1}
ALL_READS = READS | API_READS


@pytest.fixture
def world(settings) -> World:
    """alice (private, with follower bob and a pending request from carol), bob, carol and dave (who blocks
    carol and asked to follow alice), each with posts, replies, a repost, likes, a list and notifications,
    some read."""
    settings.RATE_LIMITS_ENABLED = False  # as the rate-limit tests do: 270 requests would trip them
    return build_world()


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
    assert not (set(ALL_WRITES) & ALL_READS)
    assert names - set(ALL_WRITES) - ALL_READS - SIGNED_ONLY == set(), "new endpoints the IDOR test does not know"
    assert (set(ALL_WRITES) | ALL_READS | SIGNED_ONLY) - names == set(), "endpoints that are gone from the site"


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
        settings.LIVE_LIST_PATH,  # a list's owner only: anyone else is refused (streaming/tests/test_live_lists.py)
        settings.LIVE_ME_PATH,
    }


def test_the_read_endpoints_refuse_a_post(world: World):
    """What this test treats as read-only really is: a logged-in POST answers 405 (so it cannot write)."""
    bob = world.people["bob"]
    status_id = own_posts(bob.uid)[0].id
    list_id = selectors.get_user_lists(uid=bob.uid)[0].id
    avatar = media_services.upload(owner=bob.uid, data=images.jpeg(), kind="avatar")  # public, so a GET is 200
    values = {"login": "bob", "status_id": status_id, "list_id": list_id, "tag": "redis"}
    values |= {"token": avatar.token, "variant": "original"}
    carol = world.people["carol"]
    for name in sorted(READS):
        pattern = site_urls()[name]
        wanted = set(pattern.pattern.regex.groupindex)
        path = reverse(name, kwargs={key: values[key] for key in wanted})
        assert carol.client.get(path).status_code in (200, 302), path
        assert carol.client.post(path).status_code == 405, path


def test_the_inboxes_refuse_a_members_unsigned_post(world: World):
    """A logged-in member's POST to an inbox, a real Follow of someone else in its body, is 401 and changes
    nothing of anyone's."""
    carol = world.people["carol"]
    before = snapshot(world)
    body = {"type": "Follow", "actor": "https://elsewhere.example/users/x", "object": "https://x/@bob"}
    for name in sorted(SIGNED_ONLY):
        path = reverse(name, kwargs={"login": "bob"} if name == "federation:inbox" else {})
        assert carol.client.post(path, body, content_type="application/activity+json").status_code == 401, path
        assert carol.client.get(path).status_code == 405, path
    assert snapshot(world) == before


def test_the_api_read_endpoints_refuse_a_post(world: World):
    """The same for the client API's reads, called with a token: a GET answers, a POST is 405."""
    bob = world.people["bob"]
    status_id = own_posts(bob.uid)[0].id
    values = {
        "account_id": bob.uid,
        "status_id": status_id,
        "name": "redis",
        "notification_id": 1,
        "list_id": selectors.get_user_lists(uid=bob.uid)[0].id,
    }
    carol = world.people["carol"]
    token_of(carol)
    for name in sorted(API_READS):
        pattern = site_urls()[name]
        wanted = set(pattern.pattern.regex.groupindex)
        path = reverse(name, kwargs={key: values[key] for key in wanted})
        # verify_app wants an app's token (422 with a person's), a notification may be someone else's (404):
        # answers all the same.
        answer = carol.client.get(path, {"acct": "bob", "q": "hello", "resource": "acct:bob"}, headers=bearer(carol))
        assert answer.status_code in (200, 404, 422), path
        assert carol.client.post(path, headers=bearer(carol)).status_code == 405, path


# --- the property ---------------------------------------------------------------------------------------------------


def _new_report_ids(actor: Person, before: dict[int, list[int]]) -> dict[int, list[int]]:
    now = {report.reported_id: list(report.status_ids) for report in Report.objects.filter(reporter=actor.user)}
    return {reported: [i for i in ids if i not in before.get(reported, [])] for reported, ids in now.items()}


def test_no_cross_user_write_succeeds(world: World):
    seed = int(os.environ.get("IDOR_SEED") or random.randrange(2**32))
    print(f"IDOR seed: {seed} (IDOR_SEED={seed} replays this run)")
    rng = random.Random(seed)
    people = list(world.people.values())
    names = sorted(ALL_WRITES)
    assert set(names) == set(site_urls()) - ALL_READS - SIGNED_ONLY
    sent: dict[str, int] = dict.fromkeys(names, 0)
    triples = 0
    before = snapshot(world)
    for _cycle in range(ROUNDS):
        rng.shuffle(names)
        for name in names:
            actor = rng.choice(people)
            owner = rng.choice(world.others(actor))
            attempt = ALL_WRITES[name](rng, world, actor, owner)
            where = f"seed {seed}, triple {triples}: @{actor.login} -> {name} ({attempt.what}) of @{owner.login}"
            hidden = {
                other.uid: {s.id for s in hidden_from(actor.uid, before[other.uid]["originals"])}
                for other in world.others(actor)
            }
            reports_before = {r.reported_id: list(r.status_ids) for r in Report.objects.filter(reporter=actor.user)}

            send = getattr(actor.client, attempt.method)
            body = {"content_type": attempt.content_type} if attempt.content_type else {}
            response = send(attempt.path, attempt.data, headers=attempt.headers, **body)

            code = response.status_code
            assert code < 500, f"{where}: answered {code}"
            if attempt.expect == REFUSED:
                assert code in (403, 404), f"{where}: answered {code}, not 403 or 404"
            elif attempt.expect == HIDDEN:
                assert code == 404, f"{where}: a post the actor may not see answered {code}, not 404"
                assert attempt.not_found in response.content.decode(), f"{where}: not {attempt.not_found!r}"
            after = snapshot(world)
            undoing = UNDOING.get(name)
            for other in world.others(actor):
                changed = changes(
                    before[other.uid], after[other.uid], actor=actor.uid, hidden=hidden[other.uid], undoing=undoing
                )
                assert not changed, f"{where}: @{other.login}'s data changed: {changed}"
            for reported, ids in _new_report_ids(actor, reports_before).items():
                unseen = [i for i in ids if not visible(actor, i)]
                assert not unseen, f"{where}: reported posts of uid {reported} the actor may not see: {unseen}"
            if name == "accounts:logout":
                actor.client.force_login(actor.user)
            sent[name] += 1
            triples += 1
            before = after
    assert triples >= 200 and min(sent.values()) == ROUNDS, sent
    # Nobody's token was revoked by someone else.
    for person in people:
        assert person.client.get("/api/v1/accounts/verify_credentials", headers=bearer(person)).status_code == 200


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
        hidden = {status.id for status in hidden_from(carol.uid, before[other.uid]["originals"])}
        assert not changes(before[other.uid], after[other.uid], actor=carol.uid, hidden=hidden), other.login
