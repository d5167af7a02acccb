"""``GET /api/v2/search``: people, hashtags and posts, from the site's search (``selectors.search``, through the
per-recipient policy); people and tags have one page (``offset`` past it is empty), posts are paged by
``max_id``. With ``resolve=true`` and a token, ``@login@domain`` or the address of a profile or post is looked
up as the Search box does (``selectors.look_up``: fetched from its server when not known here) and comes
first; the post as the policy lets the viewer see it, or not at all."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.accounts import account
from api.entities.statuses import statuses
from api.entities.tags import tag_entities
from api.http import ApiError, bool_param, endpoint, id_param, limit_param, offset_param, text_param
from api.limits import rate_limited
from timelines import exceptions, selectors

TYPES = ("accounts", "hashtags", "statuses")


@endpoint("GET", scopes={"GET": "read:search"}, auth="optional")
def search(request: HttpRequest) -> Any:
    query = text_param(request, "q") or ""
    kind = text_param(request, "type")
    if kind not in (None, "", *TYPES):
        raise ApiError(400, "type must be accounts, hashtags or statuses")
    limit = limit_param(request)
    offset = offset_param(request)
    empty: dict[str, list[Any]] = {"accounts": [], "hashtags": [], "statuses": []}
    if not query.strip():
        return empty
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    max_id = id_param(request, "max_id") or None
    first = offset == 0
    looked_up = None
    try:
        # The search page's limit, per address, applies here too.
        with rate_limited(request, "search"):
            if bool_param(request, "resolve") and viewer is not None and first and max_id is None:
                looked_up = selectors.look_up(query=query, viewer_uid=viewer)
            found = selectors.search(query=query, viewer_uid=viewer, count=limit, max_id=max_id)
    except exceptions.EmptyQuery:
        return empty
    except exceptions.InvalidQuery as error:
        if looked_up is None and kind in (None, "", "statuses"):
            raise ApiError(422, f"Validation failed: {error.message}") from None
        if looked_up is None:
            return empty
        found = None  # a long address is no query of words, but what it names is the answer
    found = selectors.with_found(found, looked_up, query=query)
    return {
        "accounts": [account(request, user) for user in found.users if not user.suspended][:limit]
        if first and kind in (None, "", "accounts")
        else [],
        "hashtags": tag_entities(request, list(found.tags)[:limit]) if first and kind in (None, "", "hashtags") else [],
        "statuses": statuses(request, list(found.statuses)) if kind in (None, "", "statuses") else [],
    }
