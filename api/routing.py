"""The client API's routes served by daphne ahead of Django (see ``socialsite.asgi``): its streams, as
server-sent events and over the WebSocket."""

from __future__ import annotations

from django.urls import re_path

from api.direct_stream import direct_stream
from api.list_stream import list_stream
from api.public_streams import hashtag, public
from api.streaming import health, notification_stream, user_stream
from api.websocket import websocket_stream
from streaming.flow import keep_raw_send

http_urlpatterns = [
    re_path(r"^api/v1/streaming/health/?$", health),
    re_path(r"^api/v1/streaming/user/?$", keep_raw_send(user_stream)),
    re_path(r"^api/v1/streaming/user/notification/?$", keep_raw_send(notification_stream)),
    re_path(r"^api/v1/streaming/public(/local)?/?$", keep_raw_send(public)),
    re_path(r"^api/v1/streaming/hashtag(/local)?/?$", keep_raw_send(hashtag)),
    re_path(r"^api/v1/streaming/direct/?$", keep_raw_send(direct_stream)),
    re_path(r"^api/v1/streaming/list/?$", keep_raw_send(list_stream)),
]

websocket_urlpatterns = [re_path(r"^api/v1/streaming/?$", websocket_stream)]
