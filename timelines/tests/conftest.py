"""Personas and helpers for the timelines tests (alice, bob, carol, and crowds of followers)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from timelines import services

_logins = itertools.count(1)


@pytest.fixture
def make_user() -> Callable[..., int]:
    def make(login: str | None = None, name: str | None = None) -> int:
        login = login or f"user{next(_logins)}"
        return services.create_user(login=login, name=name or login.title())

    return make


@pytest.fixture
def alice(make_user: Callable[..., int]) -> int:
    return make_user("alice", "Alice Liddell")


@pytest.fixture
def bob(make_user: Callable[..., int]) -> int:
    return make_user("bob", "Bob Builder")


@pytest.fixture
def carol(make_user: Callable[..., int]) -> int:
    return make_user("carol", "Carol Danvers")


@pytest.fixture
def followers_of(make_user: Callable[..., int]) -> Callable[[int, int], list[int]]:
    """Create ``n`` new users who all follow ``uid``, in order; returns their uids."""

    def create(uid: int, n: int) -> list[int]:
        uids = []
        for _ in range(n):
            follower = make_user()
            services.follow_user(uid=follower, other_uid=uid)
            uids.append(follower)
        return uids

    return create
