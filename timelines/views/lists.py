"""Pages for named lists of users: someone's lists, a list's timeline and members, creating, renaming and
deleting lists, adding and removing members, and the list picker on profiles.

Like every view: check input, call services and selectors, map domain errors to a message and a 4xx, render
plain data; every change is a POST with a CSRF token, answered with a redirect. Lists are public to read and
changed only by their owner.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from socialsite.redirects import redirect_next
from timelines import exceptions, limits, selectors, services
from timelines.forms import ListNameForm, MemberForm
from timelines.records import User, UserList
from timelines.views.live_marks import rendered_mark
from timelines.views.params import list_or_404, parse_int, query_int, user_or_404, viewer_uid

PAGE_SIZE = limits.DEFAULT_PAGE_SIZE
MEMBERS_PAGE_SIZE = 50


def _forbidden(request: HttpRequest, message: str = exceptions.NOT_LIST_OWNER) -> HttpResponse:
    return render(request, "error.html", {"message": message}, status=403)


# --- reading -----------------------------------------------------------------------------------------


@require_safe
def user_lists(request: HttpRequest, login: str) -> HttpResponse:
    owner = user_or_404(login)
    return _render_user_lists(request, owner, ListNameForm())


def _render_user_lists(request: HttpRequest, owner: User, form: ListNameForm, status: int = 200) -> HttpResponse:
    context = {
        "owner": owner,
        "lists": selectors.get_user_lists(uid=owner.id),
        "is_owner": viewer_uid(request) == owner.id,
        "form": form,
        "max_lists": limits.MAX_LISTS_PER_USER,
    }
    return render(request, "timelines/lists/index.html", context, status=status)


@require_safe
def detail(request: HttpRequest, list_id: int) -> HttpResponse:
    user_list = list_or_404(list_id)
    max_id = query_int(request, "max_id")
    try:
        statuses = selectors.get_list_status_messages(
            list_id=list_id, max_id=max_id, count=PAGE_SIZE, viewer_uid=viewer_uid(request)
        )
    except exceptions.UnknownList:
        raise Http404(exceptions.UNKNOWN_LIST) from None
    is_owner = viewer_uid(request) == user_list.uid
    newest = statuses[0]["id"] if statuses else 0
    context = {
        "user_list": user_list,
        "is_owner": is_owner,
        # The owner's newest page follows what the delivery writes to the list (streaming.live).
        "live_url": (
            f"/{settings.LIVE_LIST_PATH}?list={list_id}&since_id={newest}&rendered={rendered_mark(statuses)}"
            if is_owner and not max_id
            else ""
        ),
        "statuses": statuses,
        "next_max_id": statuses[-1]["id"] if len(statuses) >= PAGE_SIZE else None,
    }
    return render(request, "timelines/lists/detail.html", context)


@require_safe
def members(request: HttpRequest, list_id: int) -> HttpResponse:
    return _render_members(request, list_or_404(list_id), MemberForm())


def _render_members(request: HttpRequest, user_list: UserList, form: MemberForm, status: int = 200) -> HttpResponse:
    page = query_int(request, "page", default=1) or 1
    try:
        people = selectors.get_list_members(list_id=user_list.id, page=page, count=MEMBERS_PAGE_SIZE)
    except exceptions.UnknownList:
        raise Http404(exceptions.UNKNOWN_LIST) from None
    context = {
        "user_list": user_list,
        "is_owner": viewer_uid(request) == user_list.uid,
        "people": people,
        "form": form,
        "page": page,
        "next_page": page + 1 if len(people) >= MEMBERS_PAGE_SIZE else None,
        "previous_page": page - 1 if page > 1 else None,
    }
    return render(request, "timelines/lists/members.html", context, status=status)


# --- changing lists ----------------------------------------------------------------------------------


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    uid = request.user.uid
    owner = selectors.get_user(uid=uid)
    form = ListNameForm(request.POST)
    if form.is_valid():
        try:
            list_id = services.create_user_list(uid=uid, name=form.cleaned_data["name"])
        except (exceptions.InvalidListName, exceptions.TooManyLists) as error:
            form.add_error("name", error.message)
        else:
            messages.success(request, "List created. Add people from their profiles or from the members page.")
            return redirect("timelines:list_detail", list_id=list_id)
    return _render_user_lists(request, owner, form, status=400)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def edit(request: HttpRequest, list_id: int) -> HttpResponse:
    user_list = list_or_404(list_id)
    uid = request.user.uid
    if user_list.uid != uid:
        return _forbidden(request)
    if request.method != "POST":
        form = ListNameForm(initial={"name": user_list.name})
        return render(request, "timelines/lists/edit.html", {"user_list": user_list, "form": form})
    form = ListNameForm(request.POST)
    if form.is_valid():
        try:
            services.rename_user_list(uid=uid, list_id=list_id, name=form.cleaned_data["name"])
        except exceptions.InvalidListName as error:
            form.add_error("name", error.message)
        except exceptions.UnknownList:
            raise Http404(exceptions.UNKNOWN_LIST) from None
        except exceptions.NotListOwner:
            return _forbidden(request)
        else:
            messages.success(request, "List renamed.")
            return redirect("timelines:list_detail", list_id=list_id)
    return render(request, "timelines/lists/edit.html", {"user_list": user_list, "form": form}, status=400)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete(request: HttpRequest, list_id: int) -> HttpResponse:
    user_list = list_or_404(list_id)
    uid = request.user.uid
    if user_list.uid != uid:
        return _forbidden(request)
    if request.method != "POST":
        return render(request, "timelines/lists/delete_confirm.html", {"user_list": user_list})
    try:
        services.delete_user_list(uid=uid, list_id=list_id)
    except exceptions.UnknownList:
        raise Http404(exceptions.UNKNOWN_LIST) from None
    except exceptions.NotListOwner:
        return _forbidden(request)
    messages.success(request, f"List “{user_list.name}” deleted.")
    return redirect("timelines:user_lists", login=request.user.username)


@login_required
@require_POST
def add_member(request: HttpRequest, list_id: int) -> HttpResponse:
    user_list = list_or_404(list_id)
    uid = request.user.uid
    if user_list.uid != uid:
        return _forbidden(request)
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            member = selectors.get_user_by_login(login=form.cleaned_data["login"])
            added = services.follow_user_list(uid=uid, other_uid=member.id, list_id=list_id)
        except (exceptions.UnknownUser, exceptions.ListFull) as error:
            form.add_error("login", error.message)
        except exceptions.UnknownList:
            raise Http404(exceptions.UNKNOWN_LIST) from None
        except exceptions.NotListOwner:
            return _forbidden(request)
        else:
            if added:
                messages.success(request, f"Added @{member.login} to “{user_list.name}”.")
            return redirect_next(request, reverse("timelines:list_members", args=[list_id]))
    return _render_members(request, user_list, form, status=400)


@login_required
@require_POST
def remove_member(request: HttpRequest, list_id: int) -> HttpResponse:
    user_list = list_or_404(list_id)
    uid = request.user.uid
    if user_list.uid != uid:
        return _forbidden(request)
    form = MemberForm(request.POST)
    if not form.is_valid():
        return _render_members(request, user_list, form, status=400)
    member = user_or_404(form.cleaned_data["login"])
    try:
        removed = services.unfollow_user_list(uid=uid, other_uid=member.id, list_id=list_id)
    except exceptions.UnknownList:
        raise Http404(exceptions.UNKNOWN_LIST) from None
    except exceptions.NotListOwner:
        return _forbidden(request)
    if removed:
        messages.success(request, f"Removed @{member.login} from “{user_list.name}”.")
    return redirect_next(request, reverse("timelines:list_members", args=[list_id]))


@login_required
@require_POST
def pick(request: HttpRequest, login: str) -> HttpResponse:
    """The list picker on a profile: ``shown`` names the lists the form offered, ``member`` the ones ticked.
    Only offered lists change, so a list created in another tab meanwhile is left alone."""
    member = user_or_404(login)
    uid = request.user.uid
    shown = {parse_int(raw, "shown") for raw in request.POST.getlist("shown")}
    ticked = {parse_int(raw, "member") for raw in request.POST.getlist("member")}
    if not ticked <= shown:
        raise BadRequest("Only lists offered by the form can be ticked.")
    changed = 0
    for choice in selectors.get_list_choices(uid=uid, member_uid=member.id):
        wanted = choice.list.id in ticked
        if choice.list.id not in shown or wanted == choice.is_member:
            continue
        try:
            if wanted:
                services.follow_user_list(uid=uid, other_uid=member.id, list_id=choice.list.id)
            else:
                services.unfollow_user_list(uid=uid, other_uid=member.id, list_id=choice.list.id)
        except exceptions.UnknownList:
            continue  # deleted in another tab meanwhile
        except exceptions.ListFull as error:
            messages.error(request, f"“{choice.list.name}”: {error.message}")
            continue
        changed += 1
    if changed:
        messages.success(request, f"Updated the lists of @{member.login}.")
    return redirect_next(request, reverse("timelines:profile", args=[member.login]))
