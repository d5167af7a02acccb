"""Reports, blocks and mutes of another server's account (issue 22, "Moderation and safety"), between two real
socialsite servers on loopback (``peers.py``).

alice on A reports bob of B and one of his posts with "Forward to <B>" ticked: A's queue holds the report,
shown as @bob@B, and B receives the Flag signed by A's instance actor as a report by A in its own queue, about
bob and that post, with alice's comment and not her name. Then alice mutes and blocks bob from his profile on
A; the Block reaches B, where bob now stands blocked by alice, and the Undo lifts it there."""

from __future__ import annotations

import pytest

from federation.tests.peers import two_servers
from socialsite.testing import wait_until

SIGN_UP = """
from accounts.services import sign_up
print(sign_up(login={login!r}, name="Someone", password="a long enough password 42").uid)
"""

BROWSER = """
from django.test import Client
from accounts.models import User
browser = Client()
browser.force_login(User.objects.get(username="alice"))
"""


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    with two_servers(tmp_path_factory.mktemp("reports")) as pair:
        yield pair


def _on_a_as_alice(a, code: str) -> str:
    return a.run(BROWSER + code)


def test_a_report_of_a_remote_post_is_queued_here_and_forwarded_to_its_server(servers):
    a, b = servers
    bob = int(b.run(SIGN_UP.format(login="bob")))
    a.run(SIGN_UP.format(login="alice"))
    post = int(b.run(f"from timelines import services; print(services.post_status(uid={bob}, message='Buy now!'))"))
    # alice finds @bob@B (search looks him up on B; his outbox brings his post to A).
    found = _on_a_as_alice(a, f'print(browser.get("/search", {{"q": "@bob@{b.domain}"}}).status_code)')
    assert found == "200"
    acct = f"bob@{b.domain}"
    latest = f"""
from timelines import selectors
bob = selectors.get_user_by_login(login={acct!r})
print(bob.id, *[e.status.id for e in selectors.get_status_messages(uid=bob.id, timeline="profile", count=5)])
"""
    assert wait_until(lambda: len(a.run(latest).split()) == 2), "bob's post did not reach A"
    _bob_on_a, post_on_a = (int(value) for value in a.run(latest).split())

    page = _on_a_as_alice(
        a,
        f"""
profile = browser.get("/@{acct}").content.decode()
print('href="/@{acct}/report"' in profile)
form = browser.get("/@{acct}/report", {{"status": {post_on_a}}})
print(form.status_code, "Forward to {b.domain}" in form.content.decode())
sent = browser.post(
    "/@{acct}/report/send",
    {{"reason": "spam", "comment": "Spam in my replies", "status": {post_on_a}, "status_ids": [{post_on_a}],
      "forward": "on"}},
)
print(sent.status_code, sent.headers.get("Location"))
""",
    )
    assert page.split() == ["True", "200", "True", "302", f"/@{acct}/report/sent"], page

    queued = a.run(
        """
from accounts.models import Report
report = Report.objects.get()
print(report.reported_name, report.reporter.username, report.status_ids, report.forwarded_to, report.comment)
"""
    )
    assert queued == f"@{acct} alice [{post_on_a}] {b.domain} Spam in my replies"

    on_b = """
from accounts.models import Report
for report in Report.objects.select_related("reporter", "reported"):
    print(report.reporter.username, report.reported.username, report.status_ids, report.comment)
"""
    assert wait_until(lambda: b.run(on_b) != ""), "B did not receive the Flag"
    assert b.run(on_b) == f"{a.domain} bob [{post}] Forwarded by {a.domain}: Spam in my replies"
    assert "alice" not in b.run(on_b)


def test_blocking_a_remote_account_from_its_profile_sends_the_block_to_its_server(servers):
    a, b = servers
    dora = int(b.run(SIGN_UP.format(login="dora")))
    a.run(SIGN_UP.format(login="erin"))
    acct = f"dora@{b.domain}"
    browser = BROWSER.replace('"alice"', '"erin"')
    looked_up = a.run(browser + f'print(browser.get("/search", {{"q": "@{acct}"}}).status_code)')
    assert looked_up == "200"
    pressed = a.run(
        browser
        + f"""
print(browser.post("/@{acct}/mute").status_code, browser.post("/@{acct}/block").status_code)
page = browser.get("/@{acct}").content.decode()
print(">Unmute</button>" in page, ">Unblock</button>" in page)
"""
    )
    assert pressed.split() == ["302", "302", "True", "True"], pressed

    blocked_on_b = f"""
from timelines import exceptions, selectors
try:
    erin = selectors.get_user_by_login(login="erin@{a.domain}")  # known on B once her Block came
    print(selectors.get_relationship(viewer={dora}, other=erin.id).blocked_by)
except exceptions.UnknownUser:
    print("unknown")
"""
    assert wait_until(lambda: b.run(blocked_on_b) == "True"), "B did not receive the Block"

    a.run(browser + f'browser.post("/@{acct}/unblock")')
    assert wait_until(lambda: b.run(blocked_on_b) == "False"), "B did not receive the Undo of the Block"
