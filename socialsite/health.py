"""``GET /healthz``: whether this web process can serve the site: ``ok`` while its Redis answers, else 503.

A probe for load balancers and process supervisors. It goes through Django's whole middleware stack on the same
server as the pages, but reads nothing except one PING per Redis server (``redis_client.unreachable``) and never
the session, so it stays the benchmark's floor: a page's rate divided by this one's says how much of the server's
capacity the page's own work takes. While a Redis server does not answer, every page answers 503, and so does
this probe, with a JSON body naming what is down and why (``{"status": "unavailable", "down": {"redis":
"ConnectionError: ..."}}``), so a supervisor or an operator sees the cause and not just a failing page.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_safe

from socialsite.middleware import RETRY_AFTER_SECONDS
from socialsite.redis_client import unreachable


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    down = unreachable()
    if not down:
        return HttpResponse(b"ok", content_type="text/plain; charset=utf-8")
    response = JsonResponse({"status": "unavailable", "down": down}, status=503)
    response["Retry-After"] = RETRY_AFTER_SECONDS
    return response
