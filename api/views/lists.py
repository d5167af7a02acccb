"""Lists, read side: the person's own lists (``/api/v1/lists``, ``/lists/:id``, ``/lists/:id/accounts``) and a
list's timeline (``/api/v1/timelines/list/:id``), from the site's lists. As on Mastodon an app sees only its
person's own lists: anyone else's is ``404 Record not found``. Changing lists from an app is not built yet."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.accounts import account
from api.entities.statuses import statuses
from api.http import endpoint, id_param, limit_param, not_found, paginated, parse_id
from timelines import exceptions, selectors
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


@endpoint("GET", scopes={"GET": "read:lists"})
def index(request: HttpRequest) -> Any:
    return [_list(user_list) for user_list in selectors.get_user_lists(uid=request.viewer_uid)]  # type: ignore[attr-defined]


@endpoint("GET", scopes={"GET": "read:lists"})
def detail(request: HttpRequest, list_id: str) -> Any:
    return _list(_own(request, list_id))


@endpoint("GET", scopes={"GET": "read:lists"})
def members(request: HttpRequest, list_id: str) -> Any:
    user_list = _own(request, list_id)
    people = selectors.get_list_members(list_id=user_list.id, count=limit_param(request, default=40, maximum=80))
    return [account(request, person) for person in people if not person.suspended]


@endpoint("GET", scopes={"GET": "read:lists"})
def timeline(request: HttpRequest, list_id: str) -> Any:
    user_list = _own(request, list_id)
    limit = limit_param(request)
    try:
        entries = selectors.get_list_status_messages(
            list_id=user_list.id,
            max_id=id_param(request, "max_id") or None,
            since_id=id_param(request, "since_id") or id_param(request, "min_id") or None,
            count=limit,
            viewer_uid=request.viewer_uid,  # type: ignore[attr-defined]
        )
    except exceptions.UnknownList:
        raise not_found() from None
    return paginated(request, statuses(request, entries), [entry.entry_id for entry in entries], limit=limit)
