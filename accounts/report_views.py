"""Reporting from a browser: the report form (``GET /@login/report``, ``?status=<id>`` from a post's Report
link), sending it (``POST /@login/report/send``), and the thank-you page with Block and Mute
(``GET /@login/report/sent``). ``login`` may be another server's account, ``login@domain`` (issue 22): its
report names it by its profile's uid and address, and the form offers "Forward to <domain>", which sends a copy
from this server (a ``Flag``, through ``timelines.hooks.forward_report``).

Sending is one view function, ``send_report``, so a rate limit is one decorator on it. The form offers the
reported post and the person's latest posts as the viewer sees them; a post id outside those is a form
error, and the service keeps only posts the person wrote. Bad input answers 400 (form errors) or 404 (no such
person or post) and writes nothing; GET pages never write.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from accounts import exceptions, limits, reports
from accounts.forms import ReportForm
from accounts.models import User
from socialsite import ratelimits
from timelines import records, selectors, validation
from timelines.exceptions import STATUS_NOT_FOUND, UNKNOWN_USER, StatusNotFound
from timelines.views.params import query_int, user_or_404

FORM_TEMPLATE = "accounts/report.html"


def _reported(login: str) -> tuple[records.User, User | None]:
    """The profile and the account of ``login`` (None for another server's account, ``login@domain``, which
    has no SQL row here); 404 when either is missing."""
    profile = user_or_404(login)
    if profile.domain:
        return profile, None
    account = User.objects.filter(uid=profile.id).first()
    if account is None:
        raise Http404(UNKNOWN_USER)
    return profile, account


def _cannot_report_self(request: HttpRequest) -> HttpResponse:
    context = {"title": "That did not work", "message": exceptions.CANNOT_REPORT_SELF}
    return render(request, "error.html", context, status=400)


def _their_post(status_id: int, *, profile: records.User, viewer: int | None) -> records.Status | None:
    """Post ``status_id`` if ``profile`` wrote it (not a repost) and ``viewer`` may see it."""
    try:
        status = selectors.get_status(status_id=status_id, viewer_uid=viewer)
    except StatusNotFound:
        return None
    return status if status.uid == profile.id and status.repost_of is None else None


def _offered_posts(
    *, profile: records.User, viewer: int | None, reported_id: int | None = None, ticked: Iterable[int] = ()
) -> list[records.Status]:
    """The posts the form offers, without repeats: the reported post, the person's latest posts the viewer
    may see (their reposts left out), then any older ``ticked`` ones that qualify (the latest may have moved
    on since the form was shown). One Redis read per id not among the latest, so callers bound ``ticked``."""
    recent = selectors.get_status_messages(
        uid=profile.id, timeline="profile", count=limits.REPORT_FORM_RECENT_POSTS, viewer_uid=viewer
    )
    latest = [entry.status for entry in recent if entry.reposted_by is None]
    latest_ids = {status.id for status in latest}
    offered: list[records.Status] = []
    if reported_id is not None:
        reported = next((status for status in latest if status.id == reported_id), None)
        reported = reported or _their_post(reported_id, profile=profile, viewer=viewer)
        offered += [reported] if reported else []
    offered += latest
    for status_id in ticked:
        if status_id not in latest_ids and status_id != reported_id:
            offered += [status] if (status := _their_post(status_id, profile=profile, viewer=viewer)) else []
    return list({status.id: status for status in offered}.values())


def _post_id(value: object) -> int | None:
    """``value`` as a post id, or None when it is not one (such an id cannot be offered, so the form refuses
    it if it was ticked)."""
    try:
        return validation.parse_int(value)
    except ValueError:
        return None


def _render_form(
    request: HttpRequest, form: ReportForm, profile: records.User, status_id: int | None, status: int = 200
) -> HttpResponse:
    context = {"form": form, "person": profile, "status_id": status_id}
    return render(request, FORM_TEMPLATE, context, status=status)


def _file(reporter: User, profile: records.User, account: User | None, data: dict[str, Any]) -> None:
    """Store the report; for another server's account, forward a copy to its server when asked."""
    reports.file_report(
        reporter=reporter,
        profile=profile,
        account=account,
        reason=data["reason"],
        comment=data["comment"],
        status_ids=data["status_ids"],
        forward=bool(data.get("forward")),
    )


@login_required
@require_safe
def report_form(request: HttpRequest, login: str) -> HttpResponse:
    profile, account = _reported(login)
    if account is not None and account.pk == request.user.pk:
        return _cannot_report_self(request)
    viewer = request.user.uid
    status_id = query_int(request, "status")
    if status_id is not None and _their_post(status_id, profile=profile, viewer=viewer) is None:
        raise Http404(STATUS_NOT_FOUND)
    offered = _offered_posts(profile=profile, viewer=viewer, reported_id=status_id)
    initial = {"status_ids": [status_id] if status_id else []}
    form = ReportForm(initial=initial, statuses=offered, domain=profile.domain)
    return _render_form(request, form, profile, status_id)


def _report_refused(request: HttpRequest, message: str, login: str) -> HttpResponse:
    """The form again, as it was filled in, with the rate limit's message; nothing is reported."""
    profile, _account = _reported(login)
    offered = _offered_posts(profile=profile, viewer=request.user.uid, reported_id=None)
    form = ReportForm(request.POST, statuses=offered, domain=profile.domain)
    form.is_valid()  # reads only: shows what was chosen, with its errors
    form.add_error(None, message)
    return _render_form(request, form, profile, None)


@login_required
@require_POST
@ratelimits.limit("reports", page=_report_refused)
def send_report(request: HttpRequest, login: str) -> HttpResponse:
    profile, account = _reported(login)
    if account is not None and account.pk == request.user.pk:
        return _cannot_report_self(request)
    viewer = request.user.uid
    status_id = _post_id(request.POST.get("status"))
    # The form never offers more than the reported post and the latest ones: ticks past that many cannot all
    # be ones it offered, and are refused without reading them.
    ticks = request.POST.getlist("status_ids")[: limits.REPORT_FORM_RECENT_POSTS + 1]
    ticked = [status_id for value in ticks if (status_id := _post_id(value)) is not None]
    offered = _offered_posts(profile=profile, viewer=viewer, reported_id=status_id, ticked=ticked)
    form = ReportForm(request.POST, statuses=offered, domain=profile.domain)
    if status_id not in {status.id for status in offered}:
        status_id = None  # not theirs, or not visible: the form shown again does not carry it
    if form.is_valid():
        try:
            _file(request.user, profile, account, form.cleaned_data)
        except exceptions.InvalidReason as error:
            form.add_error("reason", error.message)
        except exceptions.CommentTooLong as error:
            form.add_error("comment", error.message)
        else:
            return redirect("reports:sent", login=profile.acct)
    return _render_form(request, form, profile, status_id, status=400)


@login_required
@require_safe
def report_sent(request: HttpRequest, login: str) -> HttpResponse:
    profile, account = _reported(login)
    if not reports.has_reported(reporter=request.user, reported=account, reported_uid=profile.id):
        return redirect("reports:form", login=profile.acct)
    relationship = selectors.get_relationship(viewer=request.user.uid, other=profile.id)
    return render(request, "accounts/report_sent.html", {"person": profile, "relationship": relationship})
