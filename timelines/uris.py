"""Canonical URIs and acct names of accounts and statuses, the identities other servers will know them by.

An account's URI is ``https://<domain>/@login`` and a status's ``https://<domain>/@login/<id>``, where the domain
is ``SOCIALSITE_DOMAIN`` (default: the first name in ``DJANGO_ALLOWED_HOSTS`` that is not a pattern). They are
stable as long as the domain is, which is why they are built from the setting and never from the request's
``Host``: a page served as ``127.0.0.1`` and as ``social.example`` names one status with one URI.

Accounts of other servers (issue 22) have a ``domain`` on their profile. Their ``acct`` is ``login@domain`` and
their login is claimed in ``users:`` under that whole, lowercased form, which no local login can take (local
logins cannot contain ``@``): a local ``bob`` and ``bob@other.example`` never collide. Remote accounts keep the
URI their server gave them, so nothing here builds one for them.

Nothing here touches Redis; settings are read at call time.
"""

from __future__ import annotations

from django.conf import settings

SCHEME = "https"
# Only with SOCIALSITE_FEDERATION_INSECURE (tests and local trials on loopback, refused by check --deploy).
INSECURE_SCHEME = "http"
FALLBACK_DOMAIN = "localhost"


def scheme() -> str:
    """``https``, or ``http`` while ``SOCIALSITE_FEDERATION_INSECURE`` is on (servers on loopback without TLS)."""
    return INSECURE_SCHEME if getattr(settings, "SOCIALSITE_FEDERATION_INSECURE", False) else SCHEME


def local_domain() -> str:
    """This server's domain: ``SOCIALSITE_DOMAIN``, else the first allowed host that names one host."""
    configured = (getattr(settings, "SOCIALSITE_DOMAIN", "") or "").strip().lower()
    if configured:
        return configured
    for host in settings.ALLOWED_HOSTS:
        host = host.strip().lower()
        if host and host != "*" and not host.startswith("."):
            return host
    return FALLBACK_DOMAIN


def acct(login: str, domain: str | None = None) -> str:
    """``login`` for a local account, ``login@domain`` for another server's (Mastodon's ``acct``)."""
    return f"{login}@{domain.lower()}" if domain else login


def login_claim(login: str, domain: str | None = None) -> str:
    """The lowercased name an account's login is claimed under in ``users:``: a remote one includes its
    domain, so it can never take a local login."""
    return acct(login, domain).lower()


def origin() -> str:
    """``scheme://domain`` of every local URI. A caller naming many accounts or statuses at once (a page of the
    client API) reads it once and passes it to ``account_uri`` and ``status_uri``: reading the settings for each
    one was a tenth of a home page's entity time."""
    return f"{scheme()}://{local_domain()}"


def account_uri(login: str, *, base: str | None = None) -> str:
    """The canonical URI (and URL) of the local account ``login``; ``base``: ``origin()``, when read already."""
    return f"{base or origin()}/@{login}"


def status_uri(login: str, status_id: int, *, base: str | None = None) -> str:
    """The canonical URI (and URL) of the local status ``status_id`` by ``login``; ``base`` as for ``account_uri``."""
    return f"{base or origin()}/@{login}/{status_id}"
