"""Mastodon's client API (issue 20): one more view layer over ``timelines`` and ``accounts``, so that the apps and
libraries people already use (Mastodon.py, masto.js, Ivory, Tusky, ...) work with socialsite.

``oauth`` and ``scopes`` own the OAuth 2 applications and tokens (SQL, ``models``); ``http`` owns what every
endpoint shares (bearer authentication, scopes, JSON errors, parameters, ``Link`` pagination); ``entities``
shapes Mastodon's JSON from the selectors' records; ``views`` are the endpoints. Nothing here decides who may
see or do what: the services, the selectors and their per-recipient policy do, as for the site's pages.
"""
