"""ASGI entry point: daphne serves Django pages and, through Channels, the streaming endpoints.

Channels' routes come first (the streaming API and the live home timeline, both in ``streaming``, and the client
API's streams and WebSocket in ``api``); every other request goes to Django. Around everything:
``TrustedProxyMiddleware`` (the real client address, from trusted proxies only), ``SecurityHeadersMiddleware``
(the security headers on streams and JSON errors too) and ``AllowedHostsMiddleware`` (``ALLOWED_HOSTS`` for every
route, not only Django's pages).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
# A web server never starts the embedded Redis itself: that runs a subprocess and waits, which would stall every
# request of the process; ``manage.py serve`` starts it before the web server (socialsite.redis_client).
os.environ.setdefault("SOCIALSITE_EMBEDDED_REDIS_AUTOSTART", "0")
from socialsite.django_handler import get_asgi_application

django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs the app registry ready)
from django.urls import re_path  # noqa: E402

from api.routing import http_urlpatterns as api_streaming_http  # noqa: E402
from api.routing import websocket_urlpatterns as api_websockets  # noqa: E402
from socialsite.hosts import AllowedHostsMiddleware  # noqa: E402
from socialsite.proxies import TrustedProxyMiddleware  # noqa: E402
from socialsite.security import SecurityHeadersMiddleware  # noqa: E402
from streaming.flow import keep_raw_send  # noqa: E402
from streaming.routing import http_urlpatterns as streaming_http  # noqa: E402

# keep_raw_send outermost: the streams find daphne's own send (for flow control) under the wrapped ones. The host
# is checked inside the proxy middleware (which drops an untrusted X-Forwarded-Host) and inside the security
# headers (which the refusal carries too).
application = keep_raw_send(
    TrustedProxyMiddleware(
        SecurityHeadersMiddleware(
            AllowedHostsMiddleware(
                ProtocolTypeRouter(
                    {
                        "http": URLRouter([*streaming_http, *api_streaming_http, re_path(r"", django_asgi_app)]),
                        "websocket": URLRouter(api_websockets),
                    }
                ),
            )
        )
    )
)
