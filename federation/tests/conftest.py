"""Personas for the federation tests: local accounts signed up as on the site."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from accounts.services import sign_up

PASSWORD = "a long enough password 42"
AP = "application/activity+json"


@pytest.fixture
def make_account(db: None) -> Callable[[str], User]:
    def make(login: str) -> User:
        return sign_up(login=login, name=login.title(), password=PASSWORD)

    return make


@pytest.fixture
def alice(make_account: Callable[[str], User]) -> User:
    return make_account("alice")
