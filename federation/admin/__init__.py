"""Federation in the admin: **Remote accounts** (``remote_accounts``: other servers' accounts, with Suspend and
Limit), **Domain blocks** (``domain_blocks``: suspend, silence or reject the media of
another server, with a reason, applied at once and written in the audit log) and **Federation** (``servers``:
the servers this one knows, their accounts, follows and delivery state). Both are listed in the admin's
Moderation section (``socialsite.admin_site``)."""

from __future__ import annotations

from django.contrib import admin

from federation.admin import domain_blocks, remote_accounts, servers
from federation.models import DomainBlock, RemoteActor

servers.register(admin.site)
admin.site.add_to_moderation(DomainBlock, title="Domain blocks")
admin.site.add_to_moderation(RemoteActor, title="Remote accounts")

__all__ = ["domain_blocks", "remote_accounts", "servers"]
