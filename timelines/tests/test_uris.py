"""Canonical URIs and room for other servers' accounts (issue 19, "Ready for other servers"): every account and
status is named ``https://<domain>/@login[/<id>]`` whatever host served the page, and a remote ``bob@domain``
never takes, nor is taken for, the local ``bob``."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from timelines import exceptions, selectors, services, uris


@override_settings(SOCIALSITE_DOMAIN="social.example")
def test_profile_and_status_pages_name_their_canonical_uri_on_the_configured_domain(alice):
    status_id = services.post_status(uid=alice, message="hello")
    profile = Client().get("/@alice", HTTP_HOST="127.0.0.1")
    page = Client().get(f"/@alice/{status_id}", HTTP_HOST="localhost")
    assert '<link rel="canonical" href="https://social.example/@alice">' in profile.text
    assert f'<link rel="canonical" href="https://social.example/@alice/{status_id}">' in page.text


@override_settings(SOCIALSITE_DOMAIN="", ALLOWED_HOSTS=[".example.org", "*", "Social.Example", "127.0.0.1"])
def test_without_a_domain_the_first_allowed_host_that_names_one_host_is_used():
    assert uris.local_domain() == "social.example"
    assert uris.account_uri("ada") == "https://social.example/@ada"


def test_a_remote_account_has_its_acct_and_never_collides_with_the_local_login(alice, make_user):
    bob = make_user("bob")
    remote = services.create_user(login="bob", name="Bob Elsewhere", domain="Other.Example")
    far = selectors.get_user(uid=remote)
    assert (far.acct, far.domain, far.local) == ("bob@other.example", "other.example", False)
    here = selectors.get_user(uid=bob)
    assert (here.acct, here.local) == ("bob", True)
    assert selectors.get_user_by_login(login="bob").id == bob  # a mention or /@bob is the local one
    post = services.post_status(uid=alice, message="hi @bob")
    assert [m for m in selectors.get_status(status_id=post).mention_logins] == ["bob"]
    assert selectors.get_unread_count(uid=bob) == 1 and selectors.get_unread_count(uid=remote) == 0
    with pytest.raises(exceptions.LoginTaken):
        services.create_user(login="BOB", name="Again", domain="other.example")
    services.create_user(login="bob", name="Bob Third", domain="third.example")


@pytest.mark.parametrize("domain", ["", "nodot", "bad_host.example", "-x.example", "a..example", "x" * 300 + ".com"])
def test_a_malformed_domain_is_refused_and_writes_nothing(domain):
    with pytest.raises(exceptions.InvalidLogin):
        services.create_user(login="zed", name="Zed", domain=domain)
    with pytest.raises(exceptions.UnknownUser):
        selectors.get_user_by_login(login="zed")
