"""HTTP routing for daphne: the streaming API under ``/statuses/``, everything else to Django.

The streaming endpoints are plain ASGI applications (``streaming.consumers``) rather than Django views, so a
stream holds no Django request machinery for its lifetime; any other path under ``/statuses/`` answers a JSON
404 here instead of Django's HTML page, as the API's clients expect.
"""

from __future__ import annotations

from typing import Any

from channels.routing import URLRouter
from django.urls import path, re_path

from streaming import consumers


def http_router(django_application: Any) -> URLRouter:
    return URLRouter(
        [
            path("statuses/sample.json", consumers.sample),
            path("statuses/filter.json", consumers.filter_),
            path("statuses/hub.json", consumers.hub_stats),
            re_path(r"^statuses/", consumers.not_found),
            re_path(r"", django_application),
        ]
    )
