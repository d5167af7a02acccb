"""The record of an uploaded picture. Kept in SQL, not Redis: it is not social data read on every page but a file's
bookkeeping (owner, file names, sizes, alt text), which the clean-up job queries by age and owner. A status keeps
only its attachments' ids, in its Redis hash (``media``)."""

from __future__ import annotations

from django.db import models

from media import limits


class Attachment(models.Model):
    IMAGE = "image"
    AVATAR = "avatar"
    HEADER = "header"
    KINDS = [(IMAGE, "Image"), (AVATAR, "Avatar"), (HEADER, "Header")]

    owner = models.BigIntegerField(db_index=True)  # the uploader's uid (timelines' user id, not a SQL user)
    kind = models.CharField(max_length=8, choices=KINDS, default=IMAGE)
    # The random part of the file's URL; file names are never the user's.
    token = models.CharField(max_length=32, unique=True)
    original = models.CharField(max_length=200)
    preview = models.CharField(max_length=200)
    content_type = models.CharField(max_length=32)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    preview_width = models.PositiveIntegerField()
    preview_height = models.PositiveIntegerField()
    description = models.CharField(max_length=limits.MAX_DESCRIPTION_LENGTH, blank=True, default="")
    blurhash = models.CharField(max_length=100, blank=True, default="")
    # The focal point (Mastodon's ``focus``): x and y from -1 to 1, (0, 0) the centre.
    focus_x = models.FloatField(default=0.0)
    focus_y = models.FloatField(default=0.0)
    # The post it belongs to, set once when it is posted; None while unattached (only its owner sees it then).
    status_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    # Processing (issue 21): a large upload is stored as it came (``source``, a name never served) and processed
    # by a job; until then it has no files to serve and no post may carry it. A refused one keeps its message.
    READY = "ready"
    PROCESSING = "processing"
    FAILED = "failed"
    STATES = [(READY, "Ready"), (PROCESSING, "Processing"), (FAILED, "Failed")]
    state = models.CharField(max_length=10, choices=STATES, default=READY)
    error = models.CharField(max_length=200, blank=True, default="")
    source = models.CharField(max_length=200, blank=True, default="")
    # Another server's image, cached here (issue 22): its address there. It starts ``processing`` with no file
    # (``deferred.reserve_remote``) until a job fetches and re-processes it; ``failed`` when it could not be.
    remote_url = models.URLField(max_length=2048, blank=True, default="")
    # The post box's post that waits for this upload (``PendingPost``), published when all its images are ready.
    pending_post = models.BigIntegerField(null=True, blank=True, db_index=True)

    @property
    def ready(self) -> bool:
        return self.state == self.READY

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} of {self.owner}"


class PendingPost(models.Model):
    """A post from the post box waiting for its images' processing: the arguments of ``post_status`` (JSON:
    message, visibility, sensitive, the post it answers) and its uploads in order. The job that finishes the last
    image publishes it and deletes this row; one whose image was refused is dropped with its uploads."""

    owner = models.BigIntegerField(db_index=True)
    fields = models.JSONField(default=dict)
    media = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"pending post {self.pk} of {self.owner}"
