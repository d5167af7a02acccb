"""Sign-up: one account in SQL (credentials) and one profile in Redis (social data), never one alone.

Reports live in ``accounts.reports`` and are re-exported here: ``accounts.services.report(...)``.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.reports import report, resolve_report
from socialsite.redis_client import UNAVAILABLE_ERRORS
from timelines import exceptions, validation
from timelines import services as timelines_services

__all__ = ["ensure_profile", "ensure_profile_if_reachable", "report", "resolve_report", "sign_up"]

logger = logging.getLogger(__name__)


def sign_up(*, login: str, name: str, password: str | None, email: str = "") -> User:
    """Create the Django user and the Redis user together and link them; return the Django user.

    The SQL row is written inside a transaction that commits only after the Redis user exists; if anything
    fails after the Redis user was created, that user is discarded again. ``password=None`` makes an account
    that cannot log in (demo data). Raises ``LoginTaken``, ``InvalidLogin`` or ``InvalidName``.
    """
    login = validation.clean_login(login)
    name = validation.clean_name(name)
    uid: int | None = None
    try:
        with transaction.atomic():
            user = User(username=login, email=email or "")
            if password is None:
                user.set_unusable_password()
            else:
                user.set_password(password)
            try:
                with transaction.atomic():
                    user.save()
            except IntegrityError:
                raise exceptions.LoginTaken() from None
            uid = timelines_services.create_user(login=login, name=name)
            user.uid = uid
            user.save(update_fields=["uid"])
    except BaseException:
        if uid is not None:
            timelines_services.discard_user(uid=uid)
        raise
    return user


def ensure_profile(user: User) -> int:
    """The Redis uid of ``user``, creating the profile for accounts made without one (``createsuperuser``).

    Called when someone logs in and by ``ProfileMiddleware`` for a session older than its profile, never by
    page views: a GET does not write."""
    if user.uid is not None:
        return user.uid
    try:
        uid = timelines_services.create_user(login=user.username, name=user.get_full_name() or user.username)
    except exceptions.LoginTaken:
        # Another request linked this account a moment ago.
        user.refresh_from_db(fields=["uid"])
        if user.uid is None:
            raise
        return user.uid
    try:
        linked = User.objects.filter(pk=user.pk, uid__isnull=True).update(uid=uid)
    except BaseException:
        timelines_services.discard_user(uid=uid)
        raise
    if not linked:
        timelines_services.discard_user(uid=uid)
        user.refresh_from_db(fields=["uid"])
        return int(user.uid)
    user.uid = uid
    return uid


def ensure_profile_if_reachable(user: User) -> int | None:
    """``ensure_profile``, or None while Redis is unreachable: log-in must not fail on the social store, and
    the page that follows answers 503 by itself; the profile is made on a later request."""
    try:
        return ensure_profile(user)
    except UNAVAILABLE_ERRORS:
        logger.warning("Could not make the social profile of a logged-in account: Redis is unavailable.")
        return None
