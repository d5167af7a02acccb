"""``manage.py audit_timelines``: finds each kind of damage a crash or a hand edit can leave, changes nothing on
a dry run, and repairs everything with --fix."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from django.core.management import call_command

from socialsite.redis_client import get_redis
from timelines import audit, keys, limits, selectors, services, store

# The command also checks pictures, whose records are in SQL (timelines.audit_media).
pytestmark = pytest.mark.django_db


@pytest.fixture
def network(alice, bob, carol):
    """bob and carol follow alice; alice keeps a list with bob in it; everyone posted (alice edited hers once);
    alice sent bob a message."""
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=carol, other_uid=alice)
    list_id = services.create_user_list(uid=alice, name="Bob")
    services.follow_user_list(uid=alice, other_uid=bob, list_id=list_id)
    statuses = {uid: services.post_status(uid=uid, message=f"from {uid}") for uid in (alice, bob, carol)}
    services.edit_status(uid=alice, status_id=statuses[alice], message=f"from {alice}, edited")
    message, conversation = services.send_message(uid=alice, message="a direct word", to=(bob,))
    return {
        "alice": alice,
        "bob": bob,
        "carol": carol,
        "list": list_id,
        "statuses": statuses,
        "message": message,
        "conversation": conversation,
    }


def snapshot() -> dict[str, object]:
    """Every key of the social graph with its value, to show a dry run changes nothing."""
    client = get_redis()
    found: dict[str, object] = {}
    for key in client.scan_iter():
        if key.startswith(("rq:", "stats:")):  # jobs, and the dashboard's counters (binary HyperLogLogs)
            continue
        kind = client.type(key)
        if kind == "zset":
            found[key] = client.zrange(key, 0, -1, withscores=True)
        elif kind == "hash":
            found[key] = client.hgetall(key)
        elif kind == "set":
            found[key] = client.smembers(key)
        elif kind == "list":
            found[key] = client.lrange(key, 0, -1)
        else:
            found[key] = client.get(key)
    return found


def audit_output(*args: str) -> str:
    out = io.StringIO()
    call_command("audit_timelines", *args, stdout=out)
    return out.getvalue()


def problems_in(output: str, check: str) -> int:
    row = re.search(rf"^{re.escape(check)}\s+(\d+)\s+(\d+)", output, re.MULTILINE)
    assert row, output
    return int(row.group(2))


def test_a_healthy_network_has_no_problems(network):
    output = audit_output()
    assert "No problems found." in output
    for finding in audit.audit().findings:
        assert finding.problems == 0, finding


def _drift_user_counter(n: dict) -> None:
    get_redis().hset(keys.user(n["alice"]), "followers", 7)


def _drift_list_counter(n: dict) -> None:
    get_redis().hset(keys.user_list(n["list"]), "members", 3)


def _half_follow(n: dict) -> None:
    # A follow interrupted after its first step: following:{carol} has bob, followers:{bob} does not.
    get_redis().zadd(keys.following(n["carol"]), {str(n["bob"]): 1.0})


def _half_unfollow(n: dict) -> None:
    # An unfollow interrupted after its first step: only followers:{alice} still has bob.
    get_redis().zrem(keys.following(n["bob"]), n["alice"])


def _half_list_add(n: dict) -> None:
    get_redis().zrem(keys.listed_in(n["bob"]), n["list"])


def _stale_list_membership(n: dict) -> None:
    get_redis().zadd(keys.listed_in(n["carol"]), {str(n["list"]): 1.0})


def _list_missing_from_owner(n: dict) -> None:
    get_redis().zrem(keys.lists_of(n["alice"]), n["list"])


def _index_of_a_list_never_written(n: dict) -> None:
    get_redis().zadd(keys.lists_of(n["bob"]), {"4040": 1.0})


def _interrupted_list_delete(n: dict) -> None:
    # delete_user_list's first two steps only: bob's list:out still names the deleted list.
    store.lists.delete_list_if_owner(n["list"], n["alice"])
    store.graph.graph_remove(keys.lists_of(n["alice"]), keys.user(n["alice"]), n["list"], "lists")


def _overfull_home(n: dict) -> None:
    ids = [services.post_status(uid=n["alice"], message=f"{i}") for i in range(limits.HOME_TIMELINE_SIZE)]
    get_redis().zadd(keys.home_timeline(n["bob"]), {str(n["statuses"][n["bob"]]): 0.5, **{str(i): i for i in ids}})


def _zombie_in_home(n: dict) -> None:
    get_redis().zadd(keys.home_timeline(n["carol"]), {"999999": 9e9})


def _zombie_in_list(n: dict) -> None:
    get_redis().zadd(keys.list_timeline(n["list"]), {"999998": 9e9})


def _zombie_in_profile(n: dict) -> None:
    # delete_status stopped after deleting the hash: the id stays in the profile and home.
    store.statuses.delete_status_if_owner(n["statuses"][n["bob"]], n["bob"])


def _message_delivered_as_before(n: dict) -> None:
    """A direct message as the delivery before conversations left it: in its author's profile and home, in
    the mentioned follower's home, in the search index."""
    message = n["message"]
    client = get_redis()
    for key in (keys.profile_timeline(n["alice"]), keys.home_timeline(n["alice"]), keys.home_timeline(n["bob"])):
        client.zadd(key, {str(message): 9e9})
    store.search.index_words(message, ["direct", "word"])


def _message_out_of_its_conversation(n: dict) -> None:
    get_redis().zrem(keys.conversation_messages(n["conversation"]), str(n["message"]))


def _zombie_in_a_conversation(n: dict) -> None:
    get_redis().zadd(keys.conversation_messages(n["conversation"]), {"999997": 1.0})


def _stray_unread_mark(n: dict) -> None:
    get_redis().sadd(keys.conversations_unread(n["carol"]), n["conversation"])


def _edits_counter_drift(n: dict) -> None:
    get_redis().hset(keys.status(n["statuses"][n["alice"]]), "edits", 3)


def _versions_of_a_deleted_status(n: dict) -> None:
    # The versions of a status whose hash is gone (an id handed out, so the audit's walk reaches it).
    n["gone"], _ = store.statuses.next_status_id()
    get_redis().lpush(keys.status_versions(n["gone"]), '{"message":"gone","time":1.0,"mentions":[]}')


def _versions_dropped(healthy: dict, n: dict) -> None:
    after = {key: value for key, value in snapshot().items() if key != keys.STATUS_ID_COUNTER}
    assert after == {key: value for key, value in healthy.items() if key != keys.STATUS_ID_COUNTER}


def _healthy(healthy: dict, n: dict) -> None:
    """The repair put back exactly what the services had written."""
    assert snapshot() == healthy


def _healthy_with_counters(healthy: dict, n: dict) -> None:
    """As ``_healthy``, where a repair may also write a counter that was absent as its value, 0."""
    after = snapshot()
    for key, value in after.items():
        if isinstance(value, dict) and key in healthy:
            added = {field: count for field, count in value.items() if field not in healthy[key]}
            assert set(added.values()) <= {"0"}, (key, added)
            after[key] = {field: count for field, count in value.items() if field not in added}
    assert after == healthy


def _follow_completed(healthy: dict, n: dict) -> None:
    assert selectors.is_following(uid=n["carol"], other_uid=n["bob"])
    assert [user.id for user in selectors.get_followers(uid=n["bob"])] == [n["carol"]]
    assert (selectors.get_user(uid=n["carol"]).following, selectors.get_user(uid=n["bob"]).followers) == (2, 1)


def _unfollow_completed(healthy: dict, n: dict) -> None:
    assert [user.id for user in selectors.get_followers(uid=n["alice"])] == [n["carol"]]
    assert (selectors.get_user(uid=n["alice"]).followers, selectors.get_user(uid=n["bob"]).following) == (1, 0)


def _list_delete_completed(healthy: dict, n: dict) -> None:
    assert not get_redis().exists(keys.list_members(n["list"]))
    assert not get_redis().exists(keys.listed_in(n["bob"]))
    assert (selectors.get_user(uid=n["alice"]).lists, selectors.get_user(uid=n["bob"]).listed) == (0, 0)


def _home_trimmed(healthy: dict, n: dict) -> None:
    home = get_redis().zrevrange(keys.home_timeline(n["bob"]), 0, -1)
    assert len(home) == limits.HOME_TIMELINE_SIZE
    assert str(n["statuses"][n["bob"]]) not in home  # the oldest entry went


def _status_delete_completed(healthy: dict, n: dict) -> None:
    gone = str(n["statuses"][n["bob"]])
    assert get_redis().zscore(keys.profile_timeline(n["bob"]), gone) is None
    assert get_redis().zscore(keys.home_timeline(n["bob"]), gone) is None
    assert get_redis().zscore(keys.list_timeline(n["list"]), gone) is None
    assert selectors.get_user(uid=n["bob"]).posts == 0


Repaired = Callable[[dict, dict], None]
# damage -> (how to inflict it, the check that finds it, how many problems it is, the state after --fix)
DAMAGE: dict[str, tuple[Callable[[dict], None], str, int, Repaired]] = {
    "user counter": (_drift_user_counter, "counters", 1, _healthy),
    "list counter": (_drift_list_counter, "counters", 1, _healthy),
    "half follow": (_half_follow, "follower/following symmetry", 1, _follow_completed),
    "half unfollow": (_half_unfollow, "follower/following symmetry", 1, _unfollow_completed),
    "half list add": (_half_list_add, "list member symmetry", 1, _healthy),
    "stale list membership": (_stale_list_membership, "list member symmetry", 1, _healthy_with_counters),
    "list missing from its owner": (_list_missing_from_owner, "list ownership", 1, _healthy),
    "owner lists a list never written": (_index_of_a_list_never_written, "list ownership", 1, _healthy_with_counters),
    "interrupted list delete": (_interrupted_list_delete, "deleted-list leftovers", 1, _list_delete_completed),
    "overfull home": (_overfull_home, "timeline sizes", 1, _home_trimmed),
    "zombie in a home": (_zombie_in_home, "zombie ids", 1, _healthy),
    "zombie in a list": (_zombie_in_list, "zombie ids", 1, _healthy),
    # Its profile, its author's home and the list bob is in.
    "zombie in a profile": (_zombie_in_profile, "zombie ids", 3, _status_delete_completed),
    # Three timelines and the search index.
    "message delivered as before": (_message_delivered_as_before, "direct messages out of feeds", 4, _healthy),
    "message out of its conversation": (
        _message_out_of_its_conversation,
        "direct messages in conversations",
        1,
        _healthy,
    ),
    "zombie in a conversation": (_zombie_in_a_conversation, "conversation zombies", 1, _healthy),
    "stray unread mark": (_stray_unread_mark, "conversation lists and unread marks", 1, _healthy),
    "edits counter drift": (_edits_counter_drift, "status versions", 1, _healthy),
    "versions of a deleted status": (_versions_of_a_deleted_status, "status versions", 1, _versions_dropped),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_the_audit_finds_each_kind_of_damage_and_fixes_it_only_when_told(network, damage):
    inflict, check, problems, repaired = DAMAGE[damage]
    healthy = snapshot()
    inflict(network)
    before = snapshot()

    dry = audit_output()
    assert problems_in(dry, check) == problems
    assert "Dry run: nothing was changed" in dry
    assert snapshot() == before

    fixed = audit_output("--fix")
    assert problems_in(fixed, check) == problems and "Repaired" in fixed
    repaired(healthy, network)
    assert "No problems found." in audit_output()


def test_fixes_restore_what_the_services_would_have_written(network):
    n = network
    _half_follow(n)
    _half_unfollow(n)
    _interrupted_list_delete(n)
    _drift_user_counter(n)
    audit_output("--fix")

    assert selectors.is_following(uid=n["carol"], other_uid=n["bob"])
    assert [user.id for user in selectors.get_followers(uid=n["bob"])] == [n["carol"]]
    assert [user.id for user in selectors.get_followers(uid=n["alice"])] == [n["carol"]]
    alice, bob = selectors.get_user(uid=n["alice"]), selectors.get_user(uid=n["bob"])
    assert (alice.followers, alice.lists, bob.listed, bob.followers) == (1, 0, 0, 1)
    assert not get_redis().exists(keys.list_members(n["list"]), keys.listed_in(n["bob"]))
