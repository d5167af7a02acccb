"""After the chaos: is every acknowledged write still there? Asked through the client API, as its authors would
see it: each post and reply (``GET /api/v1/statuses/<id>``, a reply still answering the post it answered), each
like (the status shows ``favourited`` to the one who liked it), and each follow or unfollow whose last attempt on
that pair was acknowledged (``/api/v1/accounts/relationships``; a pair whose last attempt went unanswered may be
either way and is not counted)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import urlencode

from bench.chaos.load import Answer, Person, Record, Write, request

THREADS = 8
ATTEMPTS = 5


@dataclass
class Lost:
    """Acknowledged writes not found afterwards, by kind; ``writes`` lists them."""

    checked: dict[str, int] = field(default_factory=dict)
    writes: list[Write] = field(default_factory=list)

    def count(self, kind: str | None = None) -> int:
        return sum(1 for write in self.writes if kind is None or write.kind == kind)


def _get(base: str, path: str, token: str) -> Answer:
    """A GET retried while the site is not answering (the check runs after recovery, so this is rare)."""
    for attempt in range(ATTEMPTS):
        answer = request(base, "GET", path, token=token)
        if answer.status is not None and answer.status < 500:
            return answer
        time.sleep(0.2 * (attempt + 1))
    return answer


def _status_kept(base: str, write: Write, tokens: dict[int, str]) -> bool:
    answer = _get(base, f"/api/v1/statuses/{write.target}", tokens[write.uid])
    if answer.error is not None:
        return False
    if write.kind == "like":
        return bool(answer.body.get("favourited"))
    if write.kind == "reply":
        return answer.body.get("in_reply_to_id") == str(write.in_reply_to)
    return True


def _relations_kept(base: str, follower: int, expected: dict[int, bool], tokens: dict[int, str]) -> set[int]:
    """The followees of ``follower`` whose relation is not the ``expected`` one (True: following)."""
    query = urlencode([("id[]", str(uid)) for uid in expected])
    answer = _get(base, f"/api/v1/accounts/relationships?{query}", tokens[follower])
    if answer.error is not None:
        return set(expected)
    found = {int(item["id"]): bool(item["following"]) for item in answer.body}
    return {uid for uid, following in expected.items() if found.get(uid) != following}


def verify(base: str, people: list[Person], record: Record) -> Lost:
    tokens = {person.uid: person.token for person in people}
    lost = Lost()
    statuses = [write for write in record.writes if write.kind in ("post", "reply", "like")]
    for kind in ("post", "reply", "like"):
        lost.checked[kind] = sum(1 for write in statuses if write.kind == kind)
    # The expected relation of each pair: its last attempt, if that one was acknowledged.
    expected: dict[int, dict[int, bool]] = {}
    for (follower, followee), attempts in record.relations.items():
        operation, acknowledged = attempts[-1]
        if acknowledged:
            expected.setdefault(follower, {})[followee] = operation == "follow"
    lost.checked["follow or unfollow"] = sum(len(pairs) for pairs in expected.values())
    last_write = {(write.uid, write.target): write for write in record.writes if write.kind in ("follow", "unfollow")}
    with ThreadPoolExecutor(THREADS) as pool:
        kept = list(pool.map(lambda write: _status_kept(base, write, tokens), statuses))
        wrong = list(pool.map(lambda item: _relations_kept(base, item[0], item[1], tokens), expected.items()))
    lost.writes += [write for write, ok in zip(statuses, kept, strict=True) if not ok]
    for (follower, _), followees in zip(expected.items(), wrong, strict=True):
        lost.writes += [last_write[(follower, followee)] for followee in sorted(followees)]
    return lost
