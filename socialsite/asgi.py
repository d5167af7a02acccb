"""ASGI entry point: daphne serves Django pages and, through Channels, the streaming endpoints.

Channels' routes come first (the streaming API and the live home timeline, both in ``streaming``); every other
request goes to Django.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs the app registry ready)
from django.urls import re_path  # noqa: E402

from streaming.routing import http_urlpatterns as streaming_http  # noqa: E402

application = ProtocolTypeRouter({"http": URLRouter([*streaming_http, re_path(r"", django_asgi_app)])})
