"""Mastodon's JSON entities (Account, Status, Notification, Relationship, Context, Instance, ...) built from the
plain records the selectors return. Pure shaping: nothing here reads or decides anything but the layout.

Ids are strings of digits, dates ``2026-01-02T03:04:05.000Z``, text Mastodon's HTML. URLs are absolute,
made from the request (``request.build_absolute_uri``).
"""
