"""OAuth 2 as Mastodon's clients expect it (Doorkeeper's behaviour): registering apps, the authorization-code
grant with optional PKCE (S256 or plain), ``client_credentials``, revoking, and finding the token of a request.

A small module of its own over Django and the standard library (``secrets``, ``hashlib``, ``hmac``) rather
than django-oauth-toolkit: Mastodon's clients need what that library does not do by default (no PKCE
requirement, the ``oob`` redirect, custom schemes such as ``icecubesapp://``, both grants on one app, a client
secret shown once, tokens that never expire), and the flows they use fit in this file.

Errors are ``OAuthError``: RFC 6749's ``error`` code, a description and the HTTP status to answer with. The
password grant is refused (``unsupported_grant_type``), as Mastodon 4.4 does: an app never sees a password.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from api import scopes as scope_rules
from api.models import AccessToken, Application, AuthorizationCode

OOB = "urn:ietf:wg:oauth:2.0:oob"
CODE_LIFETIME = timedelta(minutes=10)
MAX_REDIRECT_URIS = 10
MAX_URI_LENGTH = 2000
MAX_NAME_LENGTH = 200
# Schemes a redirect may never use: they would run code in the browser that shows the consent page.
FORBIDDEN_SCHEMES = frozenset({"javascript", "data", "vbscript", "file"})
GRANT_TYPES = ("authorization_code", "client_credentials")


class OAuthError(Exception):
    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error = error
        self.description = description
        self.status = status


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _new_secret() -> str:
    return secrets.token_urlsafe(32)


def _clean_redirect_uris(raw: object) -> list[str]:
    if isinstance(raw, list):
        items = [str(item) for item in raw]
    elif isinstance(raw, str):
        items = raw.split()
    else:
        items = []
    uris = list(dict.fromkeys(item.strip() for item in items if item.strip()))
    if not uris or len(uris) > MAX_REDIRECT_URIS:
        raise OAuthError("invalid_request", "Validation failed: Redirect URI must be given.", 422)
    for uri in uris:
        if uri == OOB:
            continue
        parts = urlsplit(uri)
        if (
            len(uri) > MAX_URI_LENGTH
            or not parts.scheme
            or parts.scheme.lower() in FORBIDDEN_SCHEMES
            or parts.fragment
            or any(ch.isspace() or ord(ch) < 32 for ch in uri)
        ):
            raise OAuthError("invalid_request", "Validation failed: Redirect URI must be an absolute URI.", 422)
    return uris


def register_application(
    *, name: object, redirect_uris: object, scopes: object = None, website: object = None
) -> tuple[Application, str]:
    """Register an app (``POST /api/v1/apps``); returns it with its client secret, which is never shown again."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
        raise OAuthError("invalid_request", "Validation failed: Application name can't be blank.", 422)
    uris = _clean_redirect_uris(redirect_uris)
    try:
        granted = scope_rules.parse(scopes)
    except scope_rules.InvalidScope as error:
        raise OAuthError("invalid_scope", str(error), 422) from None
    site = website if isinstance(website, str) and len(website) <= MAX_URI_LENGTH else ""
    secret = _new_secret()
    application = Application.objects.create(
        name=name.strip(),
        website=site,
        redirect_uris="\n".join(uris),
        scopes=scope_rules.text(granted),
        client_id=_new_secret(),
        client_secret_digest=digest(secret),
    )
    return application, secret


def find_application(client_id: object) -> Application:
    if not isinstance(client_id, str) or not client_id or len(client_id) > 64:
        raise OAuthError("invalid_client", "Client authentication failed due to unknown client.", 401)
    application = Application.objects.filter(client_id=client_id).first()
    if application is None:
        raise OAuthError("invalid_client", "Client authentication failed due to unknown client.", 401)
    return application


def _authenticate_client(client_id: object, client_secret: object) -> Application:
    application = find_application(client_id)
    if not isinstance(client_secret, str) or not hmac.compare_digest(
        digest(client_secret), application.client_secret_digest
    ):
        raise OAuthError("invalid_client", "Client authentication failed due to unknown client.", 401)
    return application


def check_authorization_request(
    *, client_id: object, redirect_uri: object, response_type: object, scope: object
) -> tuple[Application, str, tuple[str, ...]]:
    """What ``GET /oauth/authorize`` asks for, checked: (app, redirect URI, scopes). The scopes must be among
    the app's (default: all of them, as Doorkeeper does when none are asked for)."""
    application = find_application(client_id)
    uris = application.redirect_uri_list
    if redirect_uri in (None, "") and len(uris) == 1:
        redirect_uri = uris[0]
    if not isinstance(redirect_uri, str) or redirect_uri not in uris:
        raise OAuthError("invalid_redirect_uri", "The redirect uri included is not valid.")
    if response_type != "code":
        raise OAuthError("unsupported_response_type", "The authorization server does not support this response type.")
    try:
        requested = scope_rules.parse(scope, default=application.scope_list)
    except scope_rules.InvalidScope as error:
        raise OAuthError("invalid_scope", str(error)) from None
    if not scope_rules.within(requested, application.scope_list):
        raise OAuthError("invalid_scope", "The requested scope is invalid, unknown, or malformed.")
    return application, redirect_uri, requested


def issue_code(
    *,
    application: Application,
    user: object,
    redirect_uri: str,
    scopes: tuple[str, ...],
    code_challenge: str = "",
    code_challenge_method: str = "",
) -> str:
    """A new single-use authorization code for ``user``'s consent (valid ``CODE_LIFETIME``)."""
    method = code_challenge_method or ("plain" if code_challenge else "")
    if code_challenge and (method not in ("S256", "plain") or not 43 <= len(code_challenge) <= 128):
        raise OAuthError("invalid_request", "The code challenge is invalid.")
    code = _new_secret()
    AuthorizationCode.objects.create(
        digest=digest(code),
        application=application,
        user=user,
        redirect_uri=redirect_uri,
        scopes=scope_rules.text(scopes),
        code_challenge=code_challenge,
        code_challenge_method=method if code_challenge else "",
        expires=timezone.now() + CODE_LIFETIME,
    )
    return code


def _pkce_matches(grant: AuthorizationCode, verifier: object) -> bool:
    if not isinstance(verifier, str) or not 43 <= len(verifier) <= 128:
        return False
    if grant.code_challenge_method == "S256":
        computed = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    else:
        computed = verifier
    return hmac.compare_digest(computed, grant.code_challenge)


def _new_token(application: Application, user: object, scopes: str) -> tuple[AccessToken, str]:
    raw = _new_secret()
    token = AccessToken.objects.create(digest=digest(raw), application=application, user=user, scopes=scopes)
    return token, raw


def issue_token(*, application: Application, user: object, scopes: tuple[str, ...]) -> tuple[AccessToken, str]:
    """A token for ``user`` straight away (an account the app just signed up: Mastodon gives it the app's
    scopes)."""
    return _new_token(application, user, scope_rules.text(scopes))


def exchange_code(
    *, client_id: object, client_secret: object, code: object, redirect_uri: object, code_verifier: object = None
) -> tuple[AccessToken, str]:
    """The token for an authorization code (used once). With PKCE the verifier must match the challenge and
    the secret may be left out (a public client); without it the client secret is required."""
    invalid = OAuthError(
        "invalid_grant",
        "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used "
        "in the authorization request, or was issued to another client.",
    )
    application = find_application(client_id)
    if not isinstance(code, str) or not code or len(code) > 200:
        raise invalid
    with transaction.atomic():
        grant = (
            AuthorizationCode.objects.select_for_update()
            .filter(digest=digest(code), application=application, used=False, expires__gt=timezone.now())
            .first()
        )
        if grant is None or redirect_uri not in (None, "", grant.redirect_uri):
            raise invalid
        if grant.code_challenge:
            if not _pkce_matches(grant, code_verifier):
                raise invalid
            if client_secret not in (None, ""):
                _authenticate_client(client_id, client_secret)
        else:
            _authenticate_client(client_id, client_secret)
        # Marked used in the same transaction as the check: a code replayed concurrently finds it used.
        if AuthorizationCode.objects.filter(pk=grant.pk, used=False).update(used=True) != 1:
            raise invalid
        return _new_token(application, grant.user, grant.scopes)


def client_credentials(*, client_id: object, client_secret: object, scope: object) -> tuple[AccessToken, str]:
    """A token for the app itself (no person): Mastodon's app token, for ``apps/verify_credentials``."""
    application = _authenticate_client(client_id, client_secret)
    try:
        requested = scope_rules.parse(scope)
    except scope_rules.InvalidScope as error:
        raise OAuthError("invalid_scope", str(error)) from None
    if not scope_rules.within(requested, application.scope_list):
        raise OAuthError("invalid_scope", "The requested scope is invalid, unknown, or malformed.")
    return _new_token(application, None, scope_rules.text(requested))


def revoke(*, client_id: object, client_secret: object, token: object) -> None:
    """Revoke ``token`` of this client. Unknown tokens are no error (RFC 7009)."""
    application = _authenticate_client(client_id, client_secret)
    if isinstance(token, str) and 0 < len(token) <= 200:
        AccessToken.objects.filter(digest=digest(token), application=application, revoked=None).update(
            revoked=timezone.now()
        )


@dataclass(frozen=True, slots=True)
class AuthorizedApp:
    """An app holding live tokens of a person (``/settings/applications``)."""

    id: int
    name: str
    website: str
    scopes: tuple[str, ...]
    authorized: datetime


def authorized_applications(*, user: object) -> list[AuthorizedApp]:
    """The apps ``user`` has authorized and not revoked, newest first, each with the scopes of its tokens."""
    apps: dict[int, AuthorizedApp] = {}
    tokens = (
        AccessToken.objects.filter(user=user, revoked=None).select_related("application").order_by("-created", "-pk")
    )
    for token in tokens:
        known = apps.get(token.application_id)
        scopes = tuple(dict.fromkeys((*(known.scopes if known else ()), *token.scope_list)))
        application = token.application
        apps[token.application_id] = AuthorizedApp(
            application.pk, application.name, application.website, scopes, known.authorized if known else token.created
        )
    return list(apps.values())


def revoke_application(*, user: object, application_id: int) -> int:
    """Revoke every token ``user`` gave the app ``application_id``; how many. Nobody else's tokens change."""
    return AccessToken.objects.filter(user=user, application_id=application_id, revoked=None).update(
        revoked=timezone.now()
    )


def find_token(raw: str) -> AccessToken | None:
    """The live token whose text is ``raw``, with its person, or None. Every API call asks this, so it is one plain
    SQL read of both (the token joined to its person, read at the same moment: a revocation or a deactivation is
    seen by the next call) rather than ORM queries built each time (as ``accounts.backends`` does for sessions)."""
    if not raw or len(raw) > 200:
        return None
    read = _token_read()
    with connection.cursor() as cursor:
        cursor.execute(read.sql, [digest(raw)])
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(read.token_fields)
    token = AccessToken.from_db(connection.alias, read.token_names, read.convert(row[:split], read.token_fields))
    if token.user_id is not None:
        if row[split + read.user_pk] is None:
            return None  # the person is gone (their tokens go with them)
        user_model = get_user_model()
        values = read.convert(row[split:], read.user_fields)
        token.user = user_model.from_db(connection.alias, read.user_names, values)
    return token


@dataclass(frozen=True)
class _TokenRead:
    """The SQL of ``find_token`` and how its columns become field values, worked out once per database vendor."""

    sql: str
    token_fields: tuple[Any, ...]
    user_fields: tuple[Any, ...]
    token_names: list[str]
    user_names: list[str]
    user_pk: int  # where the person's id is among their columns (NULL: no such person)
    converters: dict[Any, tuple[Any, tuple[Any, ...]]]  # field: its column expression, its backend's converters

    def convert(self, values: tuple[Any, ...], fields: tuple[Any, ...]) -> list[Any]:
        """The row's values as the ORM would have them (SQLite's dates, booleans, ...: the backend's converters)."""
        converted = list(values)
        for i, field in enumerate(fields):
            column, converters = self.converters[field]
            for converter in converters:
                converted[i] = converter(converted[i], column, connection)
        return converted


_token_reads: dict[str, _TokenRead] = {}


def _token_read() -> _TokenRead:
    read = _token_reads.get(connection.vendor)
    if read is not None:
        return read
    quote = connection.ops.quote_name
    user_model = get_user_model()
    token_fields = tuple(AccessToken._meta.concrete_fields)
    user_fields = tuple(user_model._meta.concrete_fields)
    columns = [f"t.{quote(field.column)}" for field in token_fields]
    columns += [f"u.{quote(field.column)}" for field in user_fields]
    person = quote(AccessToken._meta.get_field("user").column)
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(AccessToken._meta.db_table)} t"
        f" LEFT JOIN {quote(user_model._meta.db_table)} u ON u.{quote(user_model._meta.pk.column)} = t.{person}"
        " WHERE t.digest = %s AND t.revoked IS NULL"
    )
    converters = {}
    for field in (*token_fields, *user_fields):
        column = field.get_col(field.model._meta.db_table)
        found = (*connection.ops.get_db_converters(column), *field.get_db_converters(connection))
        converters[field] = (column, found)
    read = _TokenRead(
        sql,
        token_fields,
        user_fields,
        [field.attname for field in token_fields],
        [field.attname for field in user_fields],
        user_fields.index(user_model._meta.pk),
        converters,
    )
    _token_reads[connection.vendor] = read
    return read


def token_body(token: AccessToken, raw: str) -> dict[str, object]:
    """Mastodon's Token entity."""
    return {
        "access_token": raw,
        "token_type": "Bearer",
        "scope": token.scopes,
        "created_at": int(token.created.timestamp()),
    }
