"""ASGI routes of the timelines app served by Channels consumers rather than Django views.

``socialsite.asgi`` puts ``http_urlpatterns`` before the Django fallback. The live home timeline needs the
session, so its consumer is wrapped in Channels' auth middleware (cookie, session, user).
"""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack
from django.urls import path

from timelines.live import HomeTimelineConsumer

LIVE_HOME_PATH = "live/home"

http_urlpatterns = [path(LIVE_HOME_PATH, AuthMiddlewareStack(HomeTimelineConsumer.as_asgi()), name="live-home")]
