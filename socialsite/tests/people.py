"""People for the page tests: a signed-up account and a test client logged in as it."""

from __future__ import annotations

from django.test import Client

from accounts.services import sign_up

PASSWORD = "correct horse battery staple"


def logged_in(login: str, name: str | None = None, *, enforce_csrf_checks: bool = False) -> tuple[Client, int]:
    """Sign ``login`` up (password ``PASSWORD``) and log a new client in with it, as the log-in form does.
    ``enforce_csrf_checks``: the client's POSTs must carry a page's token, as a browser's do."""
    user = sign_up(login=login, name=name or login.title(), password=PASSWORD)
    client = Client(enforce_csrf_checks=enforce_csrf_checks)
    assert client.login(username=login, password=PASSWORD)
    return client, int(user.uid)
