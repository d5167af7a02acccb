"""Django's admin app with the site's own admin site (``socialsite.admin_site``) as its default, named in
``INSTALLED_APPS`` instead of ``django.contrib.admin``. In a module of its own, not ``apps.py``, so that
Django does not take it for the ``socialsite`` app's configuration."""

from __future__ import annotations

from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    default_site = "socialsite.admin_site.SocialsiteAdminSite"
