"""Finding accounts: ``GET /api/v1/accounts/search`` (people by login or name, as the site's search finds them;
``resolve=true`` with a token also looks ``@login@domain`` or a profile's address up as the Search box does;
``following=true`` keeps the people the token's person follows) and ``GET /api/v1/accounts/familiar_followers``
("Followed by people you follow", for up to 40 accounts at a time)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.accounts import account
from api.http import ApiError, bool_param, endpoint, limit_param, list_param, offset_param, parse_id, text_param
from api.limits import rate_limited
from timelines import exceptions, selectors
from timelines.records import User

MAX_FAMILIAR_ACCOUNTS = 40  # accounts asked about per call
FAMILIAR_PER_ACCOUNT = 40  # people named per account


@endpoint("GET", scopes={"GET": "read:accounts"}, auth="optional")
def search(request: HttpRequest) -> Any:
    query = (text_param(request, "q") or "").strip()
    limit = limit_param(request, default=40, maximum=80)
    offset = offset_param(request)
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    if not query:
        return []
    found: list[User] = []
    try:
        with rate_limited(request, "search"):  # the search page's limit, per address
            if bool_param(request, "resolve") and viewer is not None and offset == 0 and selectors.is_lookup(query):
                named = selectors.look_up(query=query, viewer_uid=viewer)
                found += [named.user] if named is not None and named.user is not None else []
            if not selectors.is_lookup(query) or not found:
                found += selectors.search_people(query=query)
    except exceptions.EmptyQuery:
        return []
    except exceptions.InvalidQuery as error:
        raise ApiError(422, f"Validation failed: {error.message}") from None
    people = list({user.id: user for user in found if not user.suspended}.values())
    if bool_param(request, "following") and viewer is not None:
        follows = selectors.get_following_flags(uid=viewer, other_uids=[user.id for user in people])
        people = [user for user in people if follows[user.id]]
    return [account(request, user) for user in people[offset : offset + limit]]


@endpoint("GET", scopes={"GET": "read:follows"})
def familiar_followers(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    result = []
    for raw in list(dict.fromkeys(list_param(request, "id")))[:MAX_FAMILIAR_ACCOUNTS]:
        try:
            other = selectors.get_user(uid=parse_id(raw))
        except (exceptions.UnknownUser, ApiError):
            continue  # as relationships: an unknown id is left out, not an error
        if other.suspended:
            continue
        people = selectors.get_familiar_followers(viewer_uid=viewer, uid=other.id, count=FAMILIAR_PER_ACCOUNT)
        result.append(
            {"id": str(other.id), "accounts": [account(request, user) for user in people if not user.suspended]}
        )
    return result
