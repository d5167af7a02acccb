"""What search finds at an address or a name of another server (issue 22): ``@login@domain``, the address of a
profile, or the address of a post, pasted in the Search box or sent to ``/api/v2/search?resolve=true``.

This server's own addresses (``https://<domain>/@login`` and ``.../@login/<id>``) are read here. Other servers'
are asked of federation through ``timelines.hooks`` (``resolve_account``, ``resolve_url``), which fetches and
stores what is not known yet; only for someone logged in, so no stranger makes the site fetch. A post found is
read as ``viewer_uid`` would see it in a timeline, so the policy decides whether it is shown at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from timelines import exceptions, hooks, uris
from timelines.records import SearchResults, TimelineEntry, User
from timelines.selectors.statuses import get_entry, get_status
from timelines.selectors.users import get_user, get_user_by_login

# ``@login@domain`` or an address: what search looks up as another server's account or post.
REMOTE_QUERY = re.compile(r"@?[A-Za-z0-9_]{1,30}@[A-Za-z0-9.-]{1,253}(?::[0-9]{1,5})?|https?://\S{1,500}")
_LOCAL_PATH = re.compile(r"/@(?P<login>[A-Za-z0-9_]{1,30}(?:@[A-Za-z0-9.:-]{1,260})?)(?:/(?P<id>[0-9]{1,16}))?/?")


@dataclass(frozen=True, slots=True)
class Found:
    """What a query named: a person, or a post as the viewer sees it."""

    user: User | None = None
    status: TimelineEntry | None = None


def with_found(results: SearchResults | None, found: Found | None, *, query: str) -> SearchResults:
    """Search ``results`` (None: the query was no query of words, as a long address is) with what the query
    named put first, once."""
    results = results or SearchResults(query=query.strip(), users=(), tags=(), statuses=())
    if found is not None and found.user is not None:
        others = tuple(user for user in results.users if user.id != found.user.id)
        results = replace(results, users=(found.user, *others))
    if found is not None and found.status is not None:
        shown = found.status
        others_found = tuple(entry for entry in results.statuses if entry.status.id != shown.status.id)
        results = replace(results, statuses=(shown, *others_found))
    return results


def is_lookup(query: str) -> bool:
    """Whether ``query`` is a remote name or an address (no I/O)."""
    return bool(REMOTE_QUERY.fullmatch(query.strip()))


def look_up(*, query: str, viewer_uid: int | None) -> Found | None:
    """The account or post ``query`` names, for ``viewer_uid`` (None: anonymous, who gets this server's own
    addresses only); None when it names nothing found or nothing the viewer may see. Another server's may be
    fetched there first (up to the federation client's limits, about 10 s)."""
    query = query.strip()
    if not REMOTE_QUERY.fullmatch(query):
        return None
    if query.startswith(("http://", "https://")):
        named = _local(query)
        if named is None and viewer_uid is not None:
            named = hooks.resolve_url(query)
    elif viewer_uid is not None:
        uid = hooks.resolve_account(query.removeprefix("@"))
        named = ("account", uid) if uid is not None else None
    else:
        named = None
    if named is None:
        return None
    kind, identifier = named
    try:
        if kind == "status":
            return Found(status=get_entry(status_id=identifier, viewer_uid=viewer_uid))
        return Found(user=get_user(uid=identifier))
    except (exceptions.StatusNotFound, exceptions.UnknownUser):
        return None


def _local(url: str) -> tuple[str, int] | None:
    """What an address of this server names (a profile or a post, by its canonical form), without I/O beyond
    reading it; None for another server's address or one naming nothing."""
    base = f"{uris.scheme()}://{uris.local_domain()}"
    if not url.lower().startswith(base + "/"):
        return None
    match = _LOCAL_PATH.fullmatch(url[len(base) :].split("?", 1)[0].split("#", 1)[0])
    if match is None:
        return None
    try:
        user = get_user_by_login(login=match["login"])
    except exceptions.UnknownUser:
        return None
    if match["id"] is None:
        return ("account", user.id)
    try:
        # Read without a viewer only to check the author: the viewer's own read (with the policy) follows.
        status = get_status(status_id=int(match["id"]))
    except exceptions.StatusNotFound:
        return None
    return ("status", status.id) if status.uid == user.id and status.repost_of is None else None
