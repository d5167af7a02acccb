"""HTTP routes served by daphne ahead of Django (see ``socialsite.asgi``): the streaming API and the live home.

The streaming endpoints are plain ASGI applications (``streaming.consumers``) rather than Django views, so a
stream holds no Django request machinery for its lifetime. Any other path under ``/statuses/`` answers a JSON
404 here instead of Django's HTML page, as the API's clients expect, except the site's own pages about one
status (``/statuses/<id>/...``, such as delete), which fall through to Django.
"""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack
from django.conf import settings
from django.urls import path, re_path

from streaming import consumers
from streaming.flow import keep_raw_send
from streaming.live import live_home, live_list, live_me

http_urlpatterns = [
    path("statuses/sample.json", consumers.sample),
    path("statuses/filter.json", consumers.filter_),
    path("statuses/hub.json", consumers.hub_stats),
    re_path(r"^statuses/(?!\d+/)", consumers.not_found),
    # The live pages need the session, so they are wrapped in Channels' auth middleware.
    path(settings.LIVE_HOME_PATH, keep_raw_send(AuthMiddlewareStack(live_home)), name="live-home"),
    path(settings.LIVE_LIST_PATH, keep_raw_send(AuthMiddlewareStack(live_list)), name="live-list"),
    path(settings.LIVE_ME_PATH, keep_raw_send(AuthMiddlewareStack(live_me)), name="live-me"),
]
