"""ASGI entry point: daphne serves Django pages and, through Channels, the streaming API."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402  (needs the app registry ready)

from streaming.routing import http_router  # noqa: E402

application = ProtocolTypeRouter({"http": http_router(django_asgi_app)})
