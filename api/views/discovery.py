"""How other software finds out about the site and its people: NodeInfo 2.0 (``/.well-known/nodeinfo`` and
``/nodeinfo/2.0``) and WebFinger (``/.well-known/webfinger?resource=acct:login@host``), as Mastodon answers
them. WebFinger links to the profile page and to the account's ActivityPub actor (``rel="self"``, the federation
app's), which is its canonical URI (``timelines.uris``); NodeInfo names ``activitypub``."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

from api.entities.common import absolute, profile
from api.views.instance import SOFTWARE_VERSION
from timelines import exceptions, selectors, uris

NODEINFO_SCHEMA = "http://nodeinfo.diaspora.software/ns/schema/2.0"


def _json(body: dict, status: int = 200, content_type: str = "application/json") -> JsonResponse:
    response = JsonResponse(body, status=status, content_type=content_type)
    response["Access-Control-Allow-Origin"] = "*"
    return response


@require_safe
def nodeinfo_links(request: HttpRequest) -> JsonResponse:
    return _json({"links": [{"rel": NODEINFO_SCHEMA, "href": absolute(request, "/nodeinfo/2.0")}]})


@require_safe
def nodeinfo(request: HttpRequest) -> JsonResponse:
    users = get_user_model().objects.filter(is_active=True, uid__isnull=False).count()
    return _json(
        {
            "version": "2.0",
            "software": {"name": "socialsite", "version": SOFTWARE_VERSION},
            "protocols": ["activitypub"],
            "services": {"outbound": [], "inbound": []},
            "usage": {"users": {"total": users}},
            "openRegistrations": True,
            "metadata": {"nodeName": "socialsite"},
        }
    )


@require_safe
def webfinger(request: HttpRequest) -> JsonResponse:
    resource = request.GET.get("resource", "")
    if not resource:
        return _json({"error": "resource is required"}, 400)
    name = resource.removeprefix("acct:").removeprefix("@")
    if name.startswith(("http://", "https://")):
        name = name.rstrip("/").rsplit("/", 1)[-1].removeprefix("@")
    login, _, domain = name.partition("@")
    if domain and domain.lower() not in (request.get_host().lower(), uris.local_domain()):
        return _json({"error": "Record not found"}, 404)
    try:
        user = selectors.get_user_by_login(login=login)
    except exceptions.UnknownUser:
        return _json({"error": "Record not found"}, 404)
    if user.suspended or user.domain:
        return _json({"error": "Record not found"}, 404)
    page = profile(request, user.login)
    actor = uris.account_uri(user.login)
    return _json(
        {
            "subject": f"acct:{user.login}@{uris.local_domain()}",
            "aliases": list(dict.fromkeys([actor, page])),
            "links": [
                {"rel": "http://webfinger.net/rel/profile-page", "type": "text/html", "href": page},
                {"rel": "self", "type": "application/activity+json", "href": actor},
            ],
        },
        content_type="application/jrd+json",
    )
