"""Federation in the admin: **Domain blocks** (``domain_blocks``: suspend, silence or reject the media of
another server, with a reason, applied at once and written in the audit log) and **Federation** (``servers``:
the servers this one knows, their accounts, follows and delivery state). Both are listed in the admin's
Moderation section (``socialsite.admin_site``)."""

from __future__ import annotations

from django.contrib import admin

from federation.admin import domain_blocks, servers
from federation.models import DomainBlock

servers.register(admin.site)
admin.site.add_to_moderation(DomainBlock, title="Domain blocks")

__all__ = ["domain_blocks", "servers"]
