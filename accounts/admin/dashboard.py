"""The admin dashboard (``/admin/dashboard/``): charts of the last 7 days, each with its total and the change
from the 7 days before (sign-ups, posts per hour, active users, reports opened and resolved), read from the
counters kept as things happen in one round trip; and gauges of the site's health: the job queue and its
failed jobs (linking to django-rq's dashboard), each Redis server's memory and keys, the API streams open on
every server, the home-timeline fan-out waiting in the queue, and the homes dropped while their owners are
away (``timelines.services.idle``). Any staff member may see it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, reverse

from accounts.admin.charts import bar_chart
from streaming import connections
from timelines import queue
from timelines.selectors import dashboard


def register(site: Any) -> None:
    site.register_page("dashboard/", dashboard_view, url_name="dashboard", title="Dashboard")


def _rq_url(name: str, **kwargs: Any) -> str:
    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:
        return ""


def dashboard_view(request: HttpRequest) -> HttpResponse:
    activity = dashboard.get_activity()
    gauges = queue.get_gauges()
    context = {
        **admin.site.each_context(request),
        "title": "Dashboard",
        "activity": activity,
        "charts": [
            bar_chart("signups", activity.signups),
            bar_chart("posts", activity.posts),
            bar_chart("active", activity.active),
            bar_chart("reports", activity.reports),
            bar_chart("resolved", activity.resolved),
        ],
        "queue": gauges,
        "rq_url": _rq_url("django_rq:home"),
        "failed_url": _rq_url("django_rq:failed_jobs", queue_index=0),
        "servers": dashboard.get_redis_servers(),
        "open_streams": connections.count_open(),
        "idle_homes": dashboard.get_idle_homes(),
    }
    return TemplateResponse(request, "admin/moderation/dashboard.html", context)
