"""The client API's endpoints in the IDOR property test (``test_idor.py``): each write sent with the actor's own
bearer token (a token acts exactly as its person in the browser would), and the API's reads, which must refuse
a POST.

A post the actor may not see is Mastodon's ``404 Record not found``, as on the site it is "No such post."."""

from __future__ import annotations

import random
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from api import oauth
from api.models import AccessToken
from media import services as media_services
from media.models import Attachment
from media.tests import images
from socialsite.tests.idor_attempts import (
    HIDDEN,
    OWN,
    REFUSED,
    Aim,
    Attempt,
    _a_conversation,
    _a_list,
    _in_conversation,
    a_post,
    visible,
)
from socialsite.tests.idor_world import Person, World
from timelines import selectors

RECORD_NOT_FOUND = "Record not found"
SCOPES = ("read", "write", "follow")

# Named API URLs that only read: a POST to any of them answers 405.
API_READS = {
    "api:server_metadata",
    "api:verify_app",
    "api:instance_v1",
    "api:instance_v2",
    "api:custom_emojis",
    "api:announcements",
    "api:filters_v1",
    "api:filters_v2",
    "api:verify_credentials",
    "api:account_lookup",
    "api:relationships",
    "api:account",
    "api:account_statuses",
    "api:context",
    "api:status_history",
    "api:status_source",
    "api:home",
    "api:public",
    "api:tag",
    "api:notifications",
    "api:blocks",
    "api:mutes",
    "api:followers",
    "api:following",
    "api:unread_count",
    "api:notification",
    "api:search",
    "api:preferences",
    "api:favourited_by",
    "api:reblogged_by",
    "api:follow_requests",
    "api:list_timeline",
    "api:account_search",
    "api:familiar_followers",
    "api:nodeinfo_links",
    "api:nodeinfo",
    "api:webfinger",
    "api:bookmarks",
    "api:conversations",
    "api:favourites",
    "api:tag_detail",
    "api:followed_tags",
    "api:openapi",
}


def token_of(person: Person) -> str:
    """A token of ``person`` (made once per test world), obtained as an app gets one: a code, exchanged."""
    token = getattr(person, "api_token", None)
    if token is None:
        application, secret = oauth.register_application(
            name="IDOR test", redirect_uris=oauth.OOB, scopes=" ".join(SCOPES)
        )
        code = oauth.issue_code(application=application, user=person.user, redirect_uri=oauth.OOB, scopes=SCOPES)
        _, token = oauth.exchange_code(
            client_id=application.client_id, client_secret=secret, code=code, redirect_uri=oauth.OOB
        )
        person.api_token = token  # type: ignore[attr-defined]
    return token


def bearer(person: Person) -> dict[str, str]:
    return {"Authorization": f"Bearer {token_of(person)}"}


def _api(actor: Person, name: str, args: list[Any], data: dict[str, Any], expect: str, what: str, **kw: Any) -> Attempt:
    return Attempt(
        reverse(name, args=args), data, expect, what, headers=bearer(actor), not_found=RECORD_NOT_FOUND, **kw
    )


def _on_post(name: str) -> Aim:
    """favourite, reblog, bookmark, and their undoing: a post the actor may not see is 404 (the API answers with
    the post, which it may not show, so even undoing is refused), else the actor's own act."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        status_id = a_post(rng, owner)
        hidden = not visible(actor, status_id)
        expect = HIDDEN if hidden else OWN
        return _api(actor, f"api:{name}", [status_id], {}, expect, f"API {name} {status_id}")

    return aim


def _delete(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Deleting or editing (PUT) the owner's post: refused, or 404 for one the actor may not see."""
    status_id = a_post(rng, owner)
    expect = REFUSED if visible(actor, status_id) else HIDDEN
    if rng.random() < 0.5:
        data = {"status": f"edited by {actor.login}"}
        what = f"API edit {status_id}"
        return _api(actor, "api:status", [status_id], data, expect, what, method="put", content_type="application/json")
    return _api(actor, "api:status", [status_id], {}, expect, f"API delete {status_id}", method="delete")


def an_upload(owner: Person) -> int:
    """One of ``owner``'s uploads not posted yet (made when they have none)."""
    found = Attachment.objects.filter(owner=owner.uid, status_id__isnull=True).values_list("pk", flat=True).first()
    return found or media_services.upload(owner=owner.uid, data=images.jpeg((8, 8)), description="theirs").pk


def _reply(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """A reply, sometimes carrying an image of the owner's that nobody posted yet: refused, and theirs stays so."""
    status_id = a_post(rng, owner, reposts=False)
    expect = OWN if visible(actor, status_id) else HIDDEN
    data = {"status": f"@{owner.login} an API reply by {actor.login}", "in_reply_to_id": str(status_id)}
    if expect == OWN and rng.random() < 0.3:
        data["media_ids[]"] = str(an_upload(owner))
    return _api(actor, "api:statuses", [], data, expect, f"API reply to {status_id}")


def _upload(name: str) -> Aim:
    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        data = {"file": SimpleUploadedFile("a.jpg", images.jpeg((8, 8))), "description": "mine"}
        return _api(actor, name, [], data, OWN, "API upload an image")

    return aim


def _media(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Describing an upload of the owner's by its id: not found, and its alt text stays theirs."""
    media_id = an_upload(owner)
    data = {"description": f"changed by {actor.login}", "focus": "0.5,0.5"}
    return _api(
        actor,
        "api:media",
        [media_id],
        data,
        HIDDEN,
        f"API describe upload {media_id}",
        method="put",
        content_type="application/json",
    )


def _on_person(name: str) -> Aim:
    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        return _api(actor, f"api:{name}", [owner.uid], {}, OWN, f"API {name} @{owner.login}")

    return aim


def _plain(name: str, data: dict[str, Any], what: str) -> Aim:
    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        return _api(actor, name, [], data, OWN, what)

    return aim


def _on_tag(name: str) -> Aim:
    """Following a tag: not built, so an honest 404 for everyone, and nothing of anyone's changes."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        return _api(actor, f"api:{name}", ["redis"], {}, OWN, f"API {name}")

    return aim


def _register(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Signing up as someone who exists, with an app token of the actor's app: refused (the login is taken)."""
    application, secret = oauth.register_application(name="sign-up", redirect_uris=oauth.OOB, scopes="write")
    _, raw = oauth.client_credentials(client_id=application.client_id, client_secret=secret, scope="write")
    data = {"username": owner.login, "password": "an entirely new passphrase 1", "agreement": "true"}
    return Attempt(
        reverse("api:register"), data, OWN, f"API sign up as @{owner.login}", headers={"Authorization": f"Bearer {raw}"}
    )


def _update_credentials(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Editing "the" profile: only ever the token's own."""
    data = {"display_name": f"Not {owner.login}", "note": "edited", "locked": rng.random() < 0.5}
    return _api(
        actor,
        "api:update_credentials",
        [],
        data,
        OWN,
        "API edit the profile",
        method="patch",
        content_type="application/json",
    )


def _markers(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Moving "the" notifications marker, to an id of the owner's notifications: only the actor's own moves."""
    data = {"notifications[last_read_id]": str(rng.randint(1, 40))}
    return _api(actor, "api:markers", [], data, OWN, "API move the notifications marker")


def _dismiss(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Dismissing one of the owner's notifications by its id: not in the actor's feed, so nothing of theirs goes."""
    ids = [item.id for item in selectors.get_notifications(uid=owner.uid)]
    target = rng.choice(ids) if ids else 1
    return _api(actor, "api:dismiss_notification", [target], {}, OWN, f"API dismiss notification {target}")


def _on_conversation(name: str, method: str) -> Aim:
    """Mark read or remove one of the owner's conversations: the actor's own list when they are part of it, else
    404 exactly as for one that does not exist."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        conversation_id = _a_conversation(rng, owner)
        expect = OWN if _in_conversation(actor, conversation_id) else REFUSED
        what = f"API {name} {conversation_id}"
        return _api(actor, f"api:{name}", [conversation_id], {}, expect, what, method=method)

    return aim


def _on_list(name: str, methods: tuple[str, str]) -> Aim:
    """Rename (PUT) or delete the owner's list, or add or remove its members: 404 exactly as for a list that does
    not exist, and the list stays as it was."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        list_id = _a_list(rng, owner)
        member = rng.choice(list(world.people.values()))
        data = {"title": f"taken by {actor.login}"} if name == "api:list" else {"account_ids": [str(member.uid)]}
        method = rng.choice(methods)
        what = f"API {method} {name} {list_id}"
        return _api(actor, name, [list_id], data, REFUSED, what, method=method, content_type="application/json")

    return aim


def _report(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Reporting the owner and one of their posts: the actor's own report (nothing of the owner's changes; a post
    the actor may not see is left out of it)."""
    status_id = a_post(rng, owner, reposts=False)
    data = {"account_id": str(owner.uid), "status_ids[]": str(status_id), "comment": f"by {actor.login}"}
    return _api(actor, "api:reports", [], data, OWN, f"API report @{owner.login} and {status_id}")


def _revoke(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Revoking the owner's token with an app of the actor's: refused (it is not that app's token); the owner's
    token must still work afterwards (``test_idor`` checks every token at the end)."""
    application, secret = oauth.register_application(name="revoker", redirect_uris=oauth.OOB)
    data = {"client_id": application.client_id, "client_secret": secret, "token": token_of(owner)}
    return _api(actor, "api:revoke", [], data, OWN, f"API revoke @{owner.login}'s token")


def _revoke_app(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Revoking, from the actor's settings, the app the owner's token belongs to: only the actor's own tokens
    of it could end (the owner's must still work at the end)."""
    token_of(owner)
    application = AccessToken.objects.filter(user=owner.user).latest("pk").application_id
    return Attempt(reverse("api:revoke_application", args=[application]), {}, OWN, f"revoke @{owner.login}'s app")


def _authorize(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Consenting (with the actor's session) to an app: a code for the actor alone."""
    application, _ = oauth.register_application(name="consent", redirect_uris=oauth.OOB)
    data = {
        "client_id": application.client_id,
        "redirect_uri": oauth.OOB,
        "response_type": "code",
        "decision": "authorize",
    }
    return _api(actor, "api:authorize", [], data, OWN, "API authorize an app")


API_WRITES: dict[str, Aim] = {
    "api:apps": _plain("api:apps", {"client_name": "x", "redirect_uris": oauth.OOB}, "API register an app"),
    "api:token": _plain(
        "api:token", {"grant_type": "authorization_code", "code": "guess", "client_id": "x"}, "API guess a code"
    ),
    "api:revoke": _revoke,
    "api:authorize": _authorize,
    "api:statuses": _reply,
    "api:media_v1": _upload("api:media_v1"),
    "api:media_v2": _upload("api:media_v2"),
    "api:media": _media,
    "api:status": _delete,
    "api:favourite": _on_post("favourite"),
    "api:unfavourite": _on_post("unfavourite"),
    "api:reblog": _on_post("reblog"),
    "api:unreblog": _on_post("unreblog"),
    "api:bookmark": _on_post("bookmark"),
    "api:unbookmark": _on_post("unbookmark"),
    "api:conversation_read": _on_conversation("conversation_read", "post"),
    "api:conversation": _on_conversation("conversation", "delete"),
    "api:follow_tag": _on_tag("follow_tag"),
    "api:unfollow_tag": _on_tag("unfollow_tag"),
    "api:follow": _on_person("follow"),
    "api:unfollow": _on_person("unfollow"),
    "api:block": _on_person("block"),
    "api:unblock": _on_person("unblock"),
    "api:mute": _on_person("mute"),
    "api:unmute": _on_person("unmute"),
    "api:register": _register,
    "api:revoke_application": _revoke_app,
    "api:update_credentials": _update_credentials,
    "api:markers": _markers,
    "api:dismiss_notification": _dismiss,
    "api:clear_notifications": _plain("api:clear_notifications", {}, "API clear notifications"),
    "api:authorize_follow_request": _on_person("authorize_follow_request"),
    "api:reject_follow_request": _on_person("reject_follow_request"),
    "api:lists": _plain("api:lists", {"title": "mine"}, "API create a list"),
    "api:list": _on_list("api:list", ("put", "delete")),
    "api:list_accounts": _on_list("api:list_accounts", ("post", "delete")),
    "api:reports": _report,
}
