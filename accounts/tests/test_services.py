"""Sign-up keeps the SQL account and the Redis profile together: neither exists without the other."""

from __future__ import annotations

import threading

import pytest
from django.db import DatabaseError, connection

from accounts.models import User
from accounts.services import ensure_profile, sign_up
from socialsite.redis_client import get_redis
from timelines import exceptions, keys, selectors, services

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_creates_a_linked_account_and_profile_and_keeps_secrets_out_of_redis():
    user = sign_up(login="Quinn", name="Quinn Fabray", password="a secret phrase 42", email="quinn@example.com")
    profile = selectors.get_user(uid=user.uid)
    assert (profile.login, profile.name) == ("Quinn", "Quinn Fabray")
    assert user.check_password("a secret phrase 42") and user.email == "quinn@example.com"
    dump = " ".join(f"{key} {get_redis().dump(key)!r}" for key in get_redis().scan_iter())
    assert "quinn@example.com" not in dump and "a secret phrase" not in dump and "pbkdf2" not in dump.lower()


def test_a_login_taken_in_sql_leaves_no_redis_user():
    User.objects.create_user(username="Rita", password="x-long-password")
    with pytest.raises(exceptions.LoginTaken):
        sign_up(login="rita", name="Other Rita", password="x-long-password")
    assert get_redis().hget(keys.USERS_BY_LOGIN, "rita") is None
    assert list(get_redis().scan_iter(match="user:{*}")) == []


def test_a_login_taken_in_redis_leaves_no_sql_account():
    services.create_user(login="sam", name="Sam from elsewhere")
    with pytest.raises(exceptions.LoginTaken):
        sign_up(login="Sam", name="Sam", password="x-long-password")
    assert not User.objects.filter(username__iexact="sam").exists()


REFUSE_LINKING = {
    "sqlite": [
        "CREATE TRIGGER refuse_link BEFORE UPDATE OF uid ON accounts_user "
        "BEGIN SELECT RAISE(ABORT, 'the database refuses'); END;"
    ],
    "postgresql": [
        "CREATE FUNCTION refuse_link() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'the database refuses'; END; "
        "$$ LANGUAGE plpgsql;",
        "CREATE TRIGGER refuse_link BEFORE UPDATE OF uid ON accounts_user FOR EACH ROW EXECUTE FUNCTION refuse_link();",
    ],
}
ALLOW_LINKING = {
    "sqlite": ["DROP TRIGGER refuse_link"],
    "postgresql": ["DROP TRIGGER refuse_link ON accounts_user", "DROP FUNCTION refuse_link()"],
}


def test_a_database_failure_after_the_redis_user_exists_discards_it():
    with connection.cursor() as cursor:
        for statement in REFUSE_LINKING[connection.vendor]:
            cursor.execute(statement)
    try:
        with pytest.raises(DatabaseError):
            sign_up(login="tess", name="Tess", password="x-long-password")
    finally:
        with connection.cursor() as cursor:
            for statement in ALLOW_LINKING[connection.vendor]:
                cursor.execute(statement)
    assert not User.objects.filter(username="tess").exists()
    assert get_redis().hget(keys.USERS_BY_LOGIN, "tess") is None
    assert list(get_redis().scan_iter(match="user:{*}")) == []
    # The login is free again.
    assert sign_up(login="tess", name="Tess", password="x-long-password").uid


def test_racing_sign_ups_of_one_login_give_exactly_one_account():
    barrier = threading.Barrier(8)
    outcomes: list[object] = []

    def attempt(i: int) -> None:
        barrier.wait()
        try:
            outcomes.append(sign_up(login="Uma" if i % 2 else "uma", name=f"Uma {i}", password="x-long-password"))
        except exceptions.LoginTaken as error:
            outcomes.append(error)
        finally:
            connection.close()  # the thread's own; a database server would keep it open until the session ends

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    accounts = [outcome for outcome in outcomes if isinstance(outcome, User)]
    assert len(outcomes) == 8 and len(accounts) == 1
    assert User.objects.filter(username__iexact="uma").count() == 1
    assert selectors.get_user_by_login(login="uma").id == accounts[0].uid
    assert len(list(get_redis().scan_iter(match="user:{*}"))) == 1


def test_accounts_made_without_a_profile_get_one_on_first_use():
    admin = User.objects.create_superuser(username="root", password="x-long-password")
    assert admin.uid is None
    uid = ensure_profile(admin)
    assert selectors.get_user(uid=uid).login == "root"
    assert User.objects.get(pk=admin.pk).uid == uid
    assert ensure_profile(admin) == uid
