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

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} of {self.owner}"
