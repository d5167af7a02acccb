"""``GET /api/openapi.json``: the OpenAPI description of the client API (``api.openapi``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.http import endpoint
from api.openapi import describe


@endpoint("GET", auth="none")
def openapi(request: HttpRequest) -> Any:
    return describe()
