"""Django admin for the moderators (issue 12), one module per page: ``users`` (Accounts and their actions),
``reports`` (the reports queue), ``audit`` (the audit log, Django's ``LogEntry``), ``statuses`` (posts read
from Redis) and ``dashboard`` (activity charts and gauges); ``actions`` and ``forms`` hold the reason step
every action shares. Importing this package registers them all on the admin site, whose **Moderation**
section lists them in this order (``socialsite.admin_site``).
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.models import LogEntry

from accounts.admin import audit, dashboard, reports, statuses, users
from accounts.models import Report, User

statuses.register(admin.site)
admin.site.add_to_moderation(User, title="Accounts")
admin.site.add_to_moderation(Report, title="Reports")
admin.site.add_to_moderation(LogEntry, title="Audit log")
dashboard.register(admin.site)

__all__ = ["audit", "dashboard", "reports", "statuses", "users"]
