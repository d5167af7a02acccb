"""What federation keeps in SQL: this server's key pairs and what it knows of other servers' actors.

Neither mirrors Redis data. A ``KeyPair`` is a secret (DESIGN.md: secrets never go to Redis); a ``RemoteActor``
is the delivery address book of a remote account (inbox, shared inbox, public key) whose profile lives in Redis
under ``uid`` like any account's.
"""

from __future__ import annotations

from django.db import models


class KeyPair(models.Model):
    """The RSA key pair of a local account (``uid``), or of the instance actor (``uid`` 0). The private key never
    leaves the server: it only signs outgoing requests."""

    uid = models.PositiveBigIntegerField(unique=True, help_text="The account's uid; 0 for the instance actor.")
    private_key_pem = models.TextField()
    public_key_pem = models.TextField()
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Key pair of {'the instance actor' if self.uid == 0 else f'account {self.uid}'}"


class RemoteActor(models.Model):
    """Another server's actor, as its own server last described it, linked to its profile ``user:{uid}``."""

    uri = models.URLField(max_length=2048, unique=True)
    uid = models.PositiveBigIntegerField(unique=True, help_text="The profile in Redis (user:{uid}).")
    domain = models.CharField(max_length=255, db_index=True)
    username = models.CharField(max_length=255)
    inbox = models.URLField(max_length=2048)
    shared_inbox = models.URLField(max_length=2048, blank=True)
    followers_url = models.URLField(max_length=2048, blank=True)
    outbox = models.URLField(max_length=2048, blank=True)
    url = models.URLField(max_length=2048, blank=True)
    key_id = models.URLField(max_length=2048, unique=True)
    public_key_pem = models.TextField()
    fetched = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.username}@{self.domain}"

    @property
    def delivery_inbox(self) -> str:
        """Where activities for this actor go: its server's shared inbox when it has one."""
        return self.shared_inbox or self.inbox
