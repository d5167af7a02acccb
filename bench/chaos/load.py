"""The chaos run's load: people posting, replying, liking, following, unfollowing and reading, through HTTP only
(the client API with each person's token, and the public pages), from a few threads, every answer recorded.

A write counts as acknowledged when its HTTP answer was a success; ``verify`` later checks each acknowledged
write is there (``bench.chaos.checks``). Failures are sorted by kind (``error_kind``): the connection refused or
dropped (a web process killed), a timeout, or the HTTP status (503: Redis unavailable; any 500 is a bug).
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

REQUEST_TIMEOUT_SECONDS = 15.0
TAG = "chaos"
# How often each operation is picked (out of their sum).
WEIGHTS = {
    "post": 22,
    "celebrity post": 4,
    "reply": 10,
    "like": 14,
    "follow": 8,
    "unfollow": 4,
    "home timeline (API)": 14,
    "status (API)": 8,
    "profile page": 10,
    "tag page": 6,
}


@dataclass(frozen=True)
class Person:
    uid: int
    login: str
    token: str


@dataclass(frozen=True)
class Answer:
    status: int | None
    body: Any
    error: str | None  # the kind of failure; None for a success


def error_kind(error: BaseException) -> str:
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, TimeoutError | socket.timeout):
        return "timeout"
    if isinstance(error, ConnectionError | http.client.HTTPException | EOFError):
        return "connection dropped"
    return f"client error ({type(error).__name__})"


def request(
    base: str, method: str, path: str, *, token: str | None = None, form: dict[str, str] | None = None
) -> Answer:
    """One HTTP request on a connection of its own (a killed web process takes only the requests it holds)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=REQUEST_TIMEOUT_SECONDS)
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = None
    if form is not None:
        body = urlencode(form)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
    except (OSError, http.client.HTTPException, EOFError) as error:
        return Answer(None, None, error_kind(error))
    finally:
        connection.close()
    status = response.status
    if status >= 400:
        kind = "HTTP 503 (Redis unavailable)" if status == 503 else f"HTTP {status}"
        return Answer(status, None, kind)
    parsed: Any = None
    if response.getheader("Content-Type", "").startswith("application/json"):
        parsed = json.loads(data)
    return Answer(status, parsed, None)


@dataclass(frozen=True)
class Write:
    """An acknowledged write: what, by whom, on what, and when its answer came (``time.monotonic()``)."""

    kind: str  # post, reply, like, follow, unfollow
    uid: int
    target: int  # the status id made or liked, or the account followed
    at: float
    in_reply_to: int | None = None


@dataclass
class Record:
    """Everything the load saw, shared by its threads (under ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    answered: Counter[str] = field(default_factory=Counter)  # operation -> requests that got an HTTP answer
    succeeded: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # kind -> count
    error_times: list[float] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)
    # (follower, followee) -> every follow/unfollow attempted, in order: (operation, acknowledged)
    relations: dict[tuple[int, int], list[tuple[str, bool]]] = field(default_factory=dict)
    # Pairs with a follow or unfollow on the way: the threads never send two at once for one pair, whose order of
    # arrival would then be unknown (a follow sent last but run first would look lost behind its unfollow).
    in_flight: set[tuple[int, int]] = field(default_factory=set)
    statuses: list[tuple[int, int]] = field(default_factory=list)  # (status id, author uid) acknowledged

    def note(self, operation: str, answer: Answer) -> None:
        with self.lock:
            if answer.status is not None:
                self.answered[operation] += 1
            if answer.error is None:
                self.succeeded[operation] += 1
            else:
                self.errors[answer.error] += 1
                self.error_times.append(time.monotonic())

    @property
    def requests(self) -> int:
        return sum(self.answered.values()) + sum(
            count for kind, count in self.errors.items() if not kind.startswith("HTTP")
        )


class Load:
    """``threads`` threads, each doing random operations as random people until ``stop``."""

    def __init__(self, base: str, people: list[Person], *, threads: int, seed: int = 23) -> None:
        self.base = base
        self.people = people
        self.record = Record()
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._run, args=(random.Random(seed + i),), daemon=True) for i in range(threads)
        ]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=REQUEST_TIMEOUT_SECONDS + 5)

    def _run(self, rng: random.Random) -> None:
        operations, weights = list(WEIGHTS), list(WEIGHTS.values())
        while not self._stop.is_set():
            operation = rng.choices(operations, weights)[0]
            self.do(operation, rng)

    def post(self, person: Person, message: str, in_reply_to: int | None = None) -> Answer:
        form = {"status": message, "visibility": "public"}
        if in_reply_to is not None:
            form["in_reply_to_id"] = str(in_reply_to)
        return request(self.base, "POST", "/api/v1/statuses", token=person.token, form=form)

    def do(self, operation: str, rng: random.Random) -> None:
        record = self.record
        person = self.people[0] if operation == "celebrity post" else rng.choice(self.people)
        with record.lock:
            known = record.statuses[-200:]
        if operation in ("reply", "like", "status (API)") and not known:
            operation = "post"
        other = rng.choice([p for p in self.people if p.uid != person.uid])
        if operation in ("post", "celebrity post", "reply"):
            target = rng.choice(known)[0] if operation == "reply" else None
            message = f"{operation} by {person.login} #{TAG} {rng.getrandbits(32):08x}"
            answer = self.post(person, message, target)
            record.note(operation, answer)
            if answer.error is None:
                status_id = int(answer.body["id"])
                kind = "reply" if target is not None else "post"
                with record.lock:
                    record.statuses.append((status_id, person.uid))
                    record.writes.append(Write(kind, person.uid, status_id, time.monotonic(), target))
        elif operation == "like":
            status_id = rng.choice(known)[0]
            answer = request(self.base, "POST", f"/api/v1/statuses/{status_id}/favourite", token=person.token)
            record.note(operation, answer)
            if answer.error is None:
                with record.lock:
                    record.writes.append(Write("like", person.uid, status_id, time.monotonic()))
        elif operation in ("follow", "unfollow"):
            path = f"/api/v1/accounts/{other.uid}/{operation}"
            pair = (person.uid, other.uid)
            with record.lock:  # attempted before it is sent: an unanswered one makes the pair's state unknown
                if pair in record.in_flight:
                    return
                record.in_flight.add(pair)
                attempts = record.relations.setdefault(pair, [])
                attempts.append((operation, False))
                index = len(attempts) - 1
            try:
                answer = request(self.base, "POST", path, token=person.token)
            finally:
                with record.lock:
                    record.in_flight.discard(pair)
            record.note(operation, answer)
            if answer.error is None:
                with record.lock:
                    attempts[index] = (operation, True)
                    record.writes.append(Write(operation, person.uid, other.uid, time.monotonic()))
        elif operation == "home timeline (API)":
            record.note(operation, request(self.base, "GET", "/api/v1/timelines/home?limit=20", token=person.token))
        elif operation == "status (API)":
            status_id = rng.choice(known)[0]
            record.note(operation, request(self.base, "GET", f"/api/v1/statuses/{status_id}", token=person.token))
        elif operation == "profile page":
            record.note(operation, request(self.base, "GET", f"/@{other.login}"))
        elif operation == "tag page":
            record.note(operation, request(self.base, "GET", f"/tags/{TAG}"))
