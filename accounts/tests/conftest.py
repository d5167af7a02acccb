"""Personas for the accounts tests: alice, bob and carol as accounts that can log in (SQL) with their profiles
(Redis), a superuser ``root`` and a moderator ``mod`` in the "Moderators" group, and the helpers the
moderation tests read with."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts import permissions
from accounts.models import User
from accounts.services import sign_up
from timelines import selectors

PASSWORD = "a long enough password 42"


@pytest.fixture
def make_account(db: None) -> Callable[..., User]:
    def make(login: str, *, staff: bool = False) -> User:
        user = sign_up(login=login, name=login.title(), password=PASSWORD)
        if staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
        return user

    return make


@pytest.fixture
def alice(make_account: Callable[..., User]) -> User:
    return make_account("alice")


@pytest.fixture
def bob(make_account: Callable[..., User]) -> User:
    return make_account("bob")


@pytest.fixture
def carol(make_account: Callable[..., User]) -> User:
    return make_account("carol")


@pytest.fixture
def root(db: None) -> User:
    return User.objects.create_superuser(username="root", password=PASSWORD)


@pytest.fixture
def mod(make_account: Callable[..., User]) -> User:
    """A moderator: staff, in the "Moderators" group the data migration made."""
    user = make_account("mod")
    permissions.make_moderator(user=user)
    return User.objects.get(pk=user.pk)  # fresh: permissions are cached on the instance


def logged_in(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def home_timeline_of(user: User) -> list[int]:
    """The ids of the posts ``user`` sees on their home page, newest first."""
    return [entry.status.id for entry in selectors.get_status_messages(uid=user.uid, count=100)]


@pytest.fixture
def moderator_client(mod: User) -> Client:
    """The moderator, logged in (the admin pages' tests)."""
    return logged_in(mod)


@pytest.fixture
def root_client(root: User) -> Client:
    return logged_in(root)
