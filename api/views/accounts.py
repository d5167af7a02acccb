"""Accounts: the token's own (``verify_credentials``), anyone's by id or login, their posts, following and
unfollowing them, and relationships. Follows go through ``services.follow_user`` and its rate limit, as the
site's Follow button does."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.accounts import account, credential_account, relationship
from api.entities.statuses import statuses
from api.http import (
    ApiError,
    bool_param,
    endpoint,
    id_param,
    limit_param,
    list_param,
    next_page,
    not_found,
    paginated,
    parse_id,
    text_param,
)
from api.limits import rate_limited
from api.paging import read_page
from timelines import exceptions, policy, selectors, services
from timelines.records import User

MAX_RELATIONSHIPS = 80


def _user(raw_id: str) -> User:
    """The account ``raw_id``; unknown, bad or suspended ids are all ``404 Record not found``."""
    try:
        user = selectors.get_user(uid=parse_id(raw_id))
    except exceptions.UnknownUser:
        raise not_found() from None
    if user.suspended:
        raise not_found()
    return user


@endpoint("GET", scopes={"GET": ("read:accounts", "profile")})
def verify_credentials(request: HttpRequest) -> Any:
    uid = request.viewer_uid  # type: ignore[attr-defined]
    try:
        me = selectors.get_user(uid=uid)
    except exceptions.UnknownUser:
        raise ApiError(401, "The access token is invalid") from None
    return credential_account(request, me, follow_requests=selectors.get_follow_request_count(uid=uid))


@endpoint("GET", scopes={"GET": "read:accounts"}, auth="optional")
def detail(request: HttpRequest, account_id: str) -> Any:
    return account(request, _user(account_id))


@endpoint("GET", scopes={"GET": "read:accounts"}, auth="optional")
def lookup(request: HttpRequest) -> Any:
    acct = (text_param(request, "acct") or "").strip().removeprefix("@")
    login, _, domain = acct.partition("@")
    if not login or (domain and domain.lower() != request.get_host().lower()):
        raise not_found()
    try:
        user = selectors.get_user_by_login(login=login)
    except exceptions.UnknownUser:
        raise not_found() from None
    if user.suspended:
        raise not_found()
    return account(request, user)


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def account_statuses(request: HttpRequest, account_id: str) -> Any:
    user = _user(account_id)
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    limit = limit_param(request)
    # Pinned posts do not exist here: that list is empty.
    if bool_param(request, "pinned"):
        return paginated(request, [], [], limit=limit)
    # A private account shows its posts to approved followers only; a block hides them both ways.
    if not policy.may_see_profile(viewer=viewer, author=user.id):
        return paginated(request, [], [], limit=limit)
    entries = read_page(
        request,
        lambda max_id, since_id, count: selectors.get_status_messages(
            uid=user.id, timeline="profile", max_id=max_id, since_id=since_id, count=count, viewer_uid=viewer
        ),
        limit,
    )
    cursors = [entry.entry_id for entry in entries]
    if bool_param(request, "exclude_replies"):
        entries = [entry for entry in entries if entry.reposted_by is not None or not entry.status.is_reply]
    if bool_param(request, "exclude_reblogs"):
        entries = [entry for entry in entries if entry.reposted_by is None]
    if bool_param(request, "only_media"):
        # The account's own posts with images (as Mastodon: its reposts are left out), filtered from the page,
        # whose cursors stay those of the whole page as for the filters above.
        entries = [entry for entry in entries if entry.reposted_by is None and entry.status.media]
    return paginated(request, statuses(request, entries), cursors, limit=limit)


def _relationship(viewer: int, other: int) -> dict[str, Any]:
    return relationship(other, selectors.get_relationship(viewer=viewer, other=other))


@endpoint("POST", scopes={"POST": "write:follows"})
def follow(request: HttpRequest, account_id: str) -> Any:
    other = _user(account_id)
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    with rate_limited(request, "follows"):
        try:
            services.follow_user(uid=viewer, other_uid=other.id)
        except (exceptions.CannotFollow, exceptions.CannotFollowSelf) as error:
            raise ApiError(403, error.message) from None
        except exceptions.UnknownUser:
            raise not_found() from None
    return _relationship(viewer, other.id)


@endpoint("POST", scopes={"POST": "write:follows"})
def unfollow(request: HttpRequest, account_id: str) -> Any:
    other = _user(account_id)
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    try:
        # Unfollowing also withdraws a pending request, as the site's "Requested" button does.
        services.withdraw_follow_request(uid=viewer, other_uid=other.id)
        services.unfollow_user(uid=viewer, other_uid=other.id)
    except exceptions.CannotFollowSelf as error:
        raise ApiError(403, error.message) from None
    except exceptions.UnknownUser:
        raise not_found() from None
    return _relationship(viewer, other.id)


@endpoint("GET", scopes={"GET": "read:follows"})
def relationships(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    result = []
    for raw in list_param(request, "id")[:MAX_RELATIONSHIPS]:
        try:
            other = selectors.get_user(uid=parse_id(raw))
        except (exceptions.UnknownUser, ApiError):
            continue
        if not other.suspended:
            result.append(_relationship(viewer, other.id))
    return result


def _people(request: HttpRequest, account_id: str, reader: Any) -> Any:
    """Followers or following of an account, paged by an opaque ``max_id`` cursor (the next page's number):
    a private account shows them to its approved followers only, as its profile does."""
    user = _user(account_id)
    limit = limit_param(request, default=40, maximum=80)
    page = id_param(request, "max_id") or 1
    if not policy.may_see_profile(viewer=request.viewer_uid, author=user.id):  # type: ignore[attr-defined]
        return paginated(request, [], [], limit=limit)
    people = [person for person in reader(uid=user.id, page=page, count=limit) if not person.suspended]
    response = paginated(request, [account(request, person) for person in people], [], limit=limit)
    if len(people) >= limit:
        response["Link"] = f'<{next_page(request, page + 1)}>; rel="next"'
    return response


@endpoint("GET", scopes={"GET": "read:accounts"}, auth="optional")
def followers(request: HttpRequest, account_id: str) -> Any:
    return _people(request, account_id, selectors.get_followers)


@endpoint("GET", scopes={"GET": "read:accounts"}, auth="optional")
def following(request: HttpRequest, account_id: str) -> Any:
    return _people(request, account_id, selectors.get_following)
