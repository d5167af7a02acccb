"""What federation keeps in SQL: this server's key pairs, what it knows of other servers' actors, and the
moderators' domain blocks, with the relationships a suspending block severed.

None mirrors Redis data. A ``KeyPair`` is a secret (DESIGN.md: secrets never go to Redis); a ``RemoteActor``
is the delivery address book of a remote account (inbox, shared inbox, public key) whose profile lives in Redis
under ``uid`` like any account's; a ``DomainBlock`` is a moderation decision about a whole server, which
``federation.services.domain_blocks`` turns into the account flags the per-recipient policy reads. A
``RelationshipSeveranceEvent`` records the follows a suspending block removed (Mastodon's, of the same name), with
one ``AccountRelationshipSeveranceEvent`` per local person who lost some: the counts their notification shows.
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
    also_known_as = models.JSONField(
        default=list, blank=True, help_text="The actor's other addresses (alsoKnownAs), which a Move must name."
    )
    # The actor's ``icon`` and ``image`` as it names them, and the address each picture cached here (the profile's
    # avatar and header, ``user:{uid}``) was fetched from: a job fetches them again when they differ.
    avatar_remote_url = models.URLField(max_length=2048, blank=True, default="")
    header_remote_url = models.URLField(max_length=2048, blank=True, default="")
    avatar_cached_from = models.URLField(max_length=2048, blank=True, default="")
    header_cached_from = models.URLField(max_length=2048, blank=True, default="")
    domain_flag = models.CharField(
        max_length=16,
        blank=True,
        help_text="The moderation flag (suspended, limited) a block of the account's domain set, lifted with it.",
    )

    def __str__(self) -> str:
        return f"{self.username}@{self.domain}"

    @property
    def delivery_inbox(self) -> str:
        """Where activities for this actor go: its server's shared inbox when it has one."""
        return self.shared_inbox or self.inbox


class DomainBlock(models.Model):
    """A moderators' decision about another server (Mastodon's domain blocks). It covers the domain and its
    subdomains. ``suspend``: nothing comes in (its signed activities are refused, its documents never fetched)
    and nothing goes out, and its accounts are suspended here; ``silence``: its accounts are limited (their posts
    reach only their followers here); ``noop``: neither, for ``reject_media`` alone (its pictures are not shown)."""

    class Severity(models.TextChoices):
        SUSPEND = "suspend", "Suspend"
        SILENCE = "silence", "Silence"
        NOOP = "noop", "None (reject media only)"

    domain = models.CharField(max_length=255, unique=True)
    severity = models.CharField(max_length=16, choices=Severity.choices, default=Severity.SUSPEND)
    reject_media = models.BooleanField(default=False, help_text="Show none of its pictures.")
    reason = models.TextField(help_text="Why: kept with the block and written in the audit log.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("domain",)

    def __str__(self) -> str:
        return f"{self.domain} ({self.get_severity_display()})"


class RelationshipSeveranceEvent(models.Model):
    """The follows between people here and the accounts of ``target_name`` were severed (a suspending domain
    block, Mastodon's ``domain_block`` type). ``recorded``: the counts of each person here were taken (before any
    follow went), so a job that runs again counts nothing twice."""

    class Type(models.TextChoices):
        DOMAIN_BLOCK = "domain_block", "Domain block"

    type = models.CharField(max_length=32, choices=Type.choices, default=Type.DOMAIN_BLOCK)
    target_name = models.CharField(max_length=255)
    recorded = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Relationships with {self.target_name} severed ({self.type})"


class AccountRelationshipSeveranceEvent(models.Model):
    """What one person here (``uid``) lost in a severance: followers of theirs and accounts they followed on the
    other server. ``notified``: their notification was made (once)."""

    event = models.ForeignKey(RelationshipSeveranceEvent, on_delete=models.CASCADE, related_name="accounts")
    uid = models.PositiveBigIntegerField(db_index=True)
    followers_count = models.PositiveIntegerField(default=0)
    following_count = models.PositiveIntegerField(default=0)
    notified = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=("event", "uid"), name="one_severance_per_account")]

    def __str__(self) -> str:
        return f"Account {self.uid} lost {self.followers_count} followers, {self.following_count} followed"
