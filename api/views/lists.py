"""Lists: the person's own lists (``/api/v1/lists``, ``/lists/:id``, ``/lists/:id/accounts``) and a list's
timeline (``/api/v1/timelines/list/:id``), from the site's lists, and changing them as the site's list pages do
(``services.create_user_list``, ``rename_user_list``, ``delete_user_list``, ``follow_user_list``,
``unfollow_user_list``: the same limits and rules). As on Mastodon an app sees only its person's own lists:
anyone else's is ``404 Record not found``. Unlike Mastodon, anyone may be added to a list, followed or not, as on
the site; ``replies_policy`` and ``exclusive`` are accepted and answered as ``list`` and false (the site's only
behaviour)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.accounts import account
from api.entities.statuses import statuses
from api.http import ApiError, endpoint, limit_param, list_param, not_found, paginated, parse_id, text_param
from api.paging import read_page
from timelines import exceptions, limits, selectors, services
from timelines.records import UserList


def _list(user_list: UserList) -> dict[str, Any]:
    return {"id": str(user_list.id), "title": user_list.name, "replies_policy": "list", "exclusive": False}


def _own(request: HttpRequest, list_id: str) -> UserList:
    try:
        user_list = selectors.get_user_list(list_id=parse_id(list_id))
    except exceptions.UnknownList:
        raise not_found() from None
    if user_list.uid != request.viewer_uid:  # type: ignore[attr-defined]
        raise not_found()
    return user_list


# The site's refusals as Mastodon's 422 "Validation failed".
REFUSED = (exceptions.InvalidListName, exceptions.TooManyLists, exceptions.ListFull)


def _title(request: HttpRequest) -> str:
    title = text_param(request, "title")
    if title is None:
        raise ApiError(422, "Validation failed: Title can't be blank")
    return title


@endpoint("GET", "POST", scopes={"GET": "read:lists", "POST": "write:lists"})
def index(request: HttpRequest) -> Any:
    uid = request.viewer_uid  # type: ignore[attr-defined]
    if request.method == "POST":
        try:
            list_id = services.create_user_list(uid=uid, name=_title(request))
        except REFUSED as error:
            raise ApiError(422, f"Validation failed: {error.message}") from None
        return _list(selectors.get_user_list(list_id=list_id))
    return [_list(user_list) for user_list in selectors.get_user_lists(uid=uid)]


@endpoint("GET", "PUT", "DELETE", scopes={"GET": "read:lists", "PUT": "write:lists", "DELETE": "write:lists"})
def detail(request: HttpRequest, list_id: str) -> Any:
    user_list = _own(request, list_id)
    uid = request.viewer_uid  # type: ignore[attr-defined]
    try:
        if request.method == "PUT":
            services.rename_user_list(uid=uid, list_id=user_list.id, name=_title(request))
            return _list(selectors.get_user_list(list_id=user_list.id))
        if request.method == "DELETE":
            services.delete_user_list(uid=uid, list_id=user_list.id)
            return {}
    except (exceptions.UnknownList, exceptions.NotListOwner):
        raise not_found() from None  # deleted meanwhile
    except REFUSED as error:
        raise ApiError(422, f"Validation failed: {error.message}") from None
    return _list(user_list)


def _people(request: HttpRequest) -> list[int]:
    """``account_ids[]``: the accounts to add or remove, each one that exists and is not suspended (a list of
    them, at most 80 per call as Mastodon's pages); any other is the whole call's 404, before anything changes."""
    raw = list_param(request, "account_ids")
    if not raw:
        raise ApiError(422, "Validation failed: account_ids can't be blank")
    if len(raw) > 80:
        raise ApiError(422, "Validation failed: at most 80 account_ids at a time")
    uids = list(dict.fromkeys(parse_id(value) for value in raw))
    people = selectors.get_users(uids=uids)
    if len(people) != len(uids) or any(person.suspended for person in people):
        raise not_found()
    return uids


@endpoint("GET", "POST", "DELETE", scopes={"GET": "read:lists", "POST": "write:lists", "DELETE": "write:lists"})
def members(request: HttpRequest, list_id: str) -> Any:
    user_list = _own(request, list_id)
    uid = request.viewer_uid  # type: ignore[attr-defined]
    if request.method == "GET":
        people = selectors.get_list_members(list_id=user_list.id, count=limit_param(request, default=40, maximum=80))
        return [account(request, person) for person in people if not person.suspended]
    change = services.follow_user_list if request.method == "POST" else services.unfollow_user_list
    people = _people(request)
    # All or none: a call that would take the list past its size is refused before any member is added.
    if request.method == "POST" and user_list.members + len(people) > limits.MAX_LIST_MEMBERS:
        raise ApiError(422, f"Validation failed: {exceptions.ListFull.default_message}")
    try:
        for other in people:
            change(uid=uid, other_uid=other, list_id=user_list.id)
    except (exceptions.UnknownList, exceptions.NotListOwner, exceptions.UnknownUser):
        raise not_found() from None
    except REFUSED as error:
        raise ApiError(422, f"Validation failed: {error.message}") from None
    return {}


@endpoint("GET", scopes={"GET": "read:lists"})
def timeline(request: HttpRequest, list_id: str) -> Any:
    user_list = _own(request, list_id)
    limit = limit_param(request)
    try:
        entries = read_page(
            request,
            lambda max_id, since_id, count: selectors.get_list_status_messages(
                list_id=user_list.id, max_id=max_id, since_id=since_id, count=count, viewer_uid=request.viewer_uid
            ),
            limit,
        )
    except exceptions.UnknownList:
        raise not_found() from None
    return paginated(request, statuses(request, entries), [entry.entry_id for entry in entries], limit=limit)
