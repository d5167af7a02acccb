"""Mastodon.py on what an app changes besides posts (issue 20), against the shared live daphne
(``conftest.site``): lists made, renamed, filled, emptied and deleted (``list_create``, ``list_update``,
``list_accounts_add``, ``list_accounts_delete``, ``list_delete``), their timeline following the members; reports
(``report``) reaching the moderators' queue as the site's form files them; and finding people
(``account_search`` with ``following``, ``account_familiar_followers``); and the home marker (``markers_set``)."""

from __future__ import annotations

import pytest
from mastodon import MastodonAPIError, MastodonNotFoundError

from accounts.models import Report
from api.tests.helpers import person
from api.tests.test_mastodon_py import log_in
from timelines import selectors

pytestmark = pytest.mark.django_db(transaction=True)


def test_mastodon_py_makes_fills_and_deletes_a_list(site):
    for login in ("lena", "milo", "nora"):
        person(login)
    lena = log_in(site, "lena", ["read", "write", "follow"])
    milo = log_in(site, "milo", ["read", "write"])
    nora = log_in(site, "nora", ["read", "write"])
    made = lena.list_create("Reading")
    assert made["title"] == "Reading"
    assert [item["title"] for item in lena.lists()] == ["Reading"]
    assert lena.list_update(made["id"], "Good reads")["title"] == "Good reads"
    lena.list_accounts_add(made["id"], [milo.me()["id"], nora.me()["id"]])
    assert {account["acct"] for account in lena.list_accounts(made["id"])} == {"milo", "nora"}
    said = milo.status_post("a book worth reading")
    assert [status["id"] for status in lena.timeline_list(made["id"])] == [said["id"]]
    lena.list_accounts_delete(made["id"], [milo.me()["id"]])
    assert [account["acct"] for account in lena.list_accounts(made["id"])] == ["nora"]
    # The site shows the same list, as the app left it.
    lists = selectors.get_user_lists(uid=int(lena.me()["id"]))
    assert [(item.name, item.members) for item in lists] == [("Good reads", 1)]
    # Someone else's list is not found, and stays as it was.
    with pytest.raises(MastodonNotFoundError):
        milo.list_update(made["id"], "taken")
    with pytest.raises(MastodonNotFoundError):
        milo.list_accounts_add(made["id"], [milo.me()["id"]])
    with pytest.raises(MastodonAPIError) as blank:
        lena.list_create("   ")
    assert blank.value.args[1] == 422
    lena.list_delete(made["id"])
    assert lena.lists() == []
    with pytest.raises(MastodonNotFoundError):
        lena.list(made["id"])


def test_mastodon_py_reports_an_account_and_its_post(site):
    person("otto")
    person("pia")
    otto = log_in(site, "otto", ["read", "write"])
    pia = log_in(site, "pia", ["read", "write"])
    rude = pia.status_post("something rude")
    hidden = pia.status_post("for my followers only", visibility="private")
    report = otto.report(pia.me()["id"], status_ids=[rude["id"], hidden["id"]], comment="Rude.", category="violation")
    assert report["category"] == "violation" and report["comment"] == "Rude." and report["forwarded"] is False
    assert report["target_account"]["acct"] == "pia" and report["action_taken"] is False
    # Only the post otto may see is kept: the followers-only one was never shown to him.
    assert [str(status_id) for status_id in report["status_ids"]] == [str(rude["id"])]
    stored = Report.objects.get(pk=int(report["id"]))
    assert stored.reporter.username == "otto" and stored.reported.username == "pia"
    assert stored.reason == Report.Reason.ABUSE and stored.status_ids == [int(rude["id"])]
    with pytest.raises(MastodonAPIError) as itself:
        otto.report(otto.me()["id"], comment="me")
    assert itself.value.args[1] == 422
    with pytest.raises(MastodonNotFoundError):
        otto.report("999999999", comment="nobody")


def test_mastodon_py_finds_people_and_followers_in_common(site):
    for login in ("quinn", "quincy", "rosa", "sven"):
        person(login)
    quinn = log_in(site, "quinn", ["read", "write", "follow"])
    rosa = log_in(site, "rosa", ["read", "write", "follow"])
    sven = log_in(site, "sven", ["read", "write", "follow"])
    quincy_id = quinn.account_lookup("quincy")["id"]
    found = rosa.account_search("quin")
    assert [account["acct"] for account in found] == ["quinn", "quincy"]
    rosa.account_follow(quincy_id)
    assert [account["acct"] for account in rosa.account_search("quin", following=True)] == ["quincy"]
    # Followed by people you follow: rosa follows sven, who follows quincy.
    rosa.account_follow(sven.me()["id"])
    sven.account_follow(quincy_id)
    familiar = rosa.account_familiar_followers([quincy_id, quinn.me()["id"]])
    assert [(item["id"], [account["acct"] for account in item["accounts"]]) for item in familiar] == [
        (str(quincy_id), ["sven"]),
        (str(quinn.me()["id"]), []),
    ]


def test_mastodon_py_keeps_a_home_marker_per_person(site):
    person("tara")
    person("ugo")
    tara = log_in(site, "tara", ["read", "write"])
    ugo = log_in(site, "ugo", ["read", "write"])
    assert tara.markers_get(["home"]) == {}
    first, second = tara.status_post("one"), tara.status_post("two")
    tara.markers_set(["home"], [first["id"]])
    moved = tara.markers_set(["home"], [second["id"]])
    assert str(moved["home"]["last_read_id"]) == str(second["id"]) and moved["home"]["version"] == 2
    # Another app of hers reads the same position; another person has none.
    again = log_in(site, "tara", ["read"]).markers_get(["home"])
    assert str(again["home"]["last_read_id"]) == str(second["id"])
    assert ugo.markers_get(["home"]) == {}
    with pytest.raises(MastodonAPIError) as bad:
        tara.markers_set(["home"], ["not-an-id"])
    assert bad.value.args[1] == 422
    assert tara.markers_get(["home"])["home"]["version"] == 2
