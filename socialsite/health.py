"""``GET /healthz``: the process answers ``ok``.

A liveness probe for load balancers and process supervisors, and the benchmark's floor: it goes through
Django's whole middleware stack on the same server as the pages but reads neither Redis nor the session, so a
page's rate divided by this one's says how much of the server's capacity the page's own work takes.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain; charset=utf-8")
