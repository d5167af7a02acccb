"""The home's read marker (``services.set_home_marker``, ``selectors.get_home_marker``): per person, moved by apps
(the client API's markers; Mastodon.py drives it in ``api/tests/test_mastodon_py_lists_reports.py``), gone with
the account."""

from __future__ import annotations

import pytest

from timelines import exceptions, keys, selectors, services
from timelines.services import erasure
from timelines.tests.helpers import run_worker_burst


def test_a_home_marker_moves_counts_its_moves_and_is_the_persons_own(alice, bob):
    assert selectors.get_home_marker(uid=alice) is None
    first = services.set_home_marker(uid=alice, last_read_id=7)
    second = services.set_home_marker(uid=alice, last_read_id=5)  # an app may move it back
    assert (first.last_read_id, first.version) == (7, 1)
    assert (second.last_read_id, second.version) == (5, 2) and second.updated >= first.updated
    assert selectors.get_home_marker(uid=alice) == second
    assert selectors.get_home_marker(uid=bob) is None


def test_a_bad_id_or_an_unknown_person_moves_nothing(alice):
    services.set_home_marker(uid=alice, last_read_id=3)
    for bad in ("x", "²", "0", "-1", "1" * 5000):
        with pytest.raises(ValueError):
            services.set_home_marker(uid=alice, last_read_id=bad)  # type: ignore[arg-type]
    with pytest.raises(exceptions.UnknownUser):
        services.set_home_marker(uid=alice + 1000, last_read_id=3)
    assert selectors.get_home_marker(uid=alice).last_read_id == 3
    assert selectors.get_home_marker(uid=alice + 1000) is None


def test_deleting_an_account_deletes_its_home_marker(alice, redis_db):
    services.set_home_marker(uid=alice, last_read_id=3)
    assert redis_db.exists(keys.home_marker(alice))
    erasure.delete_account(uid=alice)
    run_worker_burst()
    assert not redis_db.exists(keys.home_marker(alice))
