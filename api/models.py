"""The OAuth 2 records of the client API, in SQL: registered applications, the short-lived authorization codes
of the log-in flow, and the access tokens apps act with.

Secrets are never stored: client secrets, codes and tokens are random (256 bits) and kept as their SHA-256
digests, which is what a request is looked up by (``api.oauth``). A token belongs to a person (the
authorization-code flow) or to no one (``client_credentials``: an app acting for itself).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Application(models.Model):
    """An app registered through ``POST /api/v1/apps`` (Mastodon's Doorkeeper application)."""

    name = models.CharField(max_length=200)
    website = models.CharField(max_length=2000, blank=True)
    redirect_uris = models.TextField(help_text="One per line; urn:ietf:wg:oauth:2.0:oob shows the code to copy.")
    scopes = models.CharField(max_length=2000, help_text="The scopes the app may ask for, space-separated.")
    client_id = models.CharField(max_length=64, unique=True)
    client_secret_digest = models.CharField(max_length=64, help_text="SHA-256 of the client secret (shown once).")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    @property
    def redirect_uri_list(self) -> list[str]:
        return [uri for uri in self.redirect_uris.split("\n") if uri]

    @property
    def scope_list(self) -> tuple[str, ...]:
        return tuple(self.scopes.split())


class AuthorizationCode(models.Model):
    """A code the authorize page gave to an app, exchanged once for a token at ``POST /oauth/token``."""

    digest = models.CharField(max_length=64, unique=True)
    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="codes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="oauth_codes")
    redirect_uri = models.CharField(max_length=2000)
    scopes = models.CharField(max_length=2000)
    code_challenge = models.CharField(max_length=128, blank=True)
    code_challenge_method = models.CharField(max_length=10, blank=True)
    expires = models.DateTimeField()
    used = models.BooleanField(default=False)


class AccessToken(models.Model):
    """A bearer token. It does not expire (Mastodon's clients never refresh); revoking it ends it."""

    digest = models.CharField(max_length=64, unique=True)
    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="tokens")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="oauth_tokens"
    )
    scopes = models.CharField(max_length=2000)
    created = models.DateTimeField(auto_now_add=True)
    revoked = models.DateTimeField(null=True, blank=True)

    @property
    def scope_list(self) -> tuple[str, ...]:
        return tuple(self.scopes.split())
