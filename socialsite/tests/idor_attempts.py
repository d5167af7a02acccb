"""How the IDOR property test (``test_idor.py``) aims each write endpoint of the site at someone else's things:
one ``Aim`` per named URL (``WRITES``), making the request and saying which answer is right."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from socialsite.tests.idor_world import PASSWORD, Person, World, own_posts, profile_entries
from timelines import exceptions, selectors

MISSING = 10**12  # a status or list id that does not exist


# --- aiming each write endpoint at someone else's things --------------------------------------------------------

OWN = "own"  # the actor's own act (follow, like a post they may see, ...): any answer but a 5xx
REFUSED = "refused"  # someone else's post, list or account: 403, or 404 when it is missing or hidden
HIDDEN = "hidden"  # a post the actor may not see: 404, exactly as for a post that does not exist


@dataclass(frozen=True)
class Attempt:
    path: str
    data: dict[str, Any]
    expect: str
    what: str  # for the failure message
    method: str = "post"
    headers: dict[str, str] = field(default_factory=dict)  # the client API's bearer token (idor_api.py)
    not_found: str = exceptions.STATUS_NOT_FOUND  # what a 404 for a hidden post says
    content_type: str | None = None  # a body other than a form (the API's PATCH)


Aim = Callable[[random.Random, World, Person, Person], Attempt]


def a_post(rng: random.Random, owner: Person, *, reposts: bool = True) -> int:
    """One of ``owner``'s posts (or reposts), or now and then one that does not exist."""
    ids = [
        entry.repost_id or entry.status.id for entry in profile_entries(owner.uid) if reposts or entry.repost_id is None
    ]
    return rng.choice(ids) if ids and rng.random() > 0.1 else MISSING


def visible(actor: Person, status_id: int) -> bool:
    try:
        selectors.get_status(status_id=status_id, viewer_uid=actor.uid)
    except exceptions.StatusNotFound:
        return False
    return True


def _on_post(name: str) -> Aim:
    """like, unlike, repost, unrepost, bookmark, unbookmark: on a post the actor may not see, 404; else the actor's
    own act (unlike, unrepost and unbookmark only ever take back the actor's own like, repost or bookmark, whosever
    post it is)."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        status_id = a_post(rng, owner)
        expect = HIDDEN if not visible(actor, status_id) else OWN
        return Attempt(reverse(f"timelines:{name}", args=[status_id]), {}, expect, f"{name} {status_id}")

    return aim


def _delete(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    status_id = a_post(rng, owner)
    expect = REFUSED if visible(actor, status_id) else HIDDEN
    return Attempt(reverse("timelines:delete", args=[status_id]), {}, expect, f"delete {status_id}")


def _edit(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Saving a new text for the owner's post: someone else's post is refused, a hidden one is 404."""
    status_id = a_post(rng, owner, reposts=False)
    expect = REFUSED if visible(actor, status_id) else HIDDEN
    path = reverse("timelines:edit", kwargs={"login": owner.login, "status_id": status_id})
    return Attempt(path, {"message": f"edited by {actor.login}"}, expect, f"edit {status_id}")


def _reply(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    status_id = a_post(rng, owner, reposts=False)
    expect = OWN if visible(actor, status_id) else HIDDEN
    path = reverse("timelines:reply", kwargs={"login": owner.login, "status_id": status_id})
    return Attempt(path, {"message": f"@{owner.login} a reply by {actor.login}"}, expect, f"reply to {status_id}")


def _on_person(name: str) -> Aim:
    """follow, unfollow (which also withdraws a request), block, unblock, mute, unmute: the owner, or someone
    the owner asked to follow (the actor can only ever withdraw their own request)."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        asked = [
            p for p in world.others(owner) if owner.uid in {u.id for u in selectors.get_follow_requests(uid=p.uid)}
        ]
        target = rng.choice(asked) if asked and rng.random() < 0.5 else owner
        return Attempt(reverse(f"timelines:{name}", args=[target.login]), {}, OWN, f"{name} @{target.login}")

    return aim


def _answer_request(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """Approve or reject the owner's request: it acts only on a request addressed to the actor."""
    answer = rng.choice(["approve", "reject"])
    path = reverse("timelines:answer_follow_request", kwargs={"login": owner.login, "answer": answer})
    return Attempt(path, {}, OWN, f"{answer} @{owner.login}'s request")


def _a_list(rng: random.Random, owner: Person) -> int:
    ids = [user_list.id for user_list in selectors.get_user_lists(uid=owner.uid)]
    return rng.choice(ids) if ids and rng.random() > 0.1 else MISSING


def _on_list(name: str) -> Aim:
    """Rename, delete, add or remove a member of the owner's list: 403 (404 for a list that does not exist)."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        list_id = _a_list(rng, owner)
        member = rng.choice(list(world.people.values())).login
        data = {"name": f"taken by {actor.login}", "login": member}
        return Attempt(reverse(f"timelines:{name}", args=[list_id]), data, REFUSED, f"{name} {list_id}")

    return aim


def _pick(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """The list picker names the owner's lists: only the actor's own lists can change."""
    theirs = [str(user_list.id) for user_list in selectors.get_user_lists(uid=owner.uid)]
    member = rng.choice(list(world.people.values())).login
    data = {"shown": theirs, "member": rng.sample(theirs, k=rng.randint(0, len(theirs)))}
    return Attempt(reverse("timelines:list_pick", args=[member]), data, OWN, f"pick @{member} into {theirs}")


def _plain(name: str, data: Callable[[random.Random, Person, Person], dict[str, Any]], what: str) -> Aim:
    """An endpoint that names nobody: it can only act on the actor (their post, lists, settings, session)."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        return Attempt(reverse(name), data(rng, actor, owner), OWN, what)

    return aim


def _on_tag(name: str) -> Aim:
    """Following or unfollowing a tag names nobody: it can only change the actor's own followed tags."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        tag = rng.choice(["redis", "python", "nobody_uses_this"])
        return Attempt(reverse(f"timelines:{name}", args=[tag]), {}, OWN, f"{name} #{tag}")

    return aim


def _report(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """A report of the owner naming some of their posts, hidden ones included: only the posts the reporter may
    see can be reported (checked after the attempt)."""
    ids = [status.id for status in own_posts(owner.uid)]
    ticked = rng.sample(ids, k=min(len(ids), rng.randint(0, 3)))
    data = {"reason": rng.choice(["spam", "abuse", "other"]), "comment": f"by {actor.login}", "status_ids": ticked}
    if ticked and rng.random() < 0.5:
        data["status"] = ticked[0]
    return Attempt(reverse("reports:send", args=[owner.login]), data, OWN, f"report @{owner.login} {ticked}")


def _a_conversation(rng: random.Random, owner: Person) -> int:
    """One of ``owner``'s conversations, or now and then one that does not exist."""
    ids = [summary.id for summary in selectors.get_conversations(uid=owner.uid)]
    return rng.choice(ids) if ids and rng.random() > 0.1 else MISSING


def _in_conversation(actor: Person, conversation_id: int) -> bool:
    try:
        selectors.get_conversation(uid=actor.uid, conversation_id=conversation_id)
    except exceptions.ConversationNotFound:
        return False
    return True


def _on_conversation(name: str) -> Aim:
    """Send a message in, or mark read, one of the owner's conversations: the actor's own act when they are part
    of it, else 404 exactly as for one that does not exist."""

    def aim(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
        conversation_id = _a_conversation(rng, owner)
        expect = OWN if _in_conversation(actor, conversation_id) else REFUSED
        data = {"message": f"a message by {actor.login}"}
        return Attempt(reverse(f"timelines:{name}", args=[conversation_id]), data, expect, f"{name} {conversation_id}")

    return aim


def _message(rng: random.Random, world: World, actor: Person, owner: Person) -> Attempt:
    """A profile's Message button: a message to the owner (refused with a form error where a block stands)."""
    path = reverse("timelines:message_new", args=[owner.login])
    return Attempt(path, {"message": f"hello from {actor.login}"}, OWN, f"message @{owner.login}")


WRITES: dict[str, Aim] = {
    "accounts:signup": _plain(
        "accounts:signup",
        lambda rng, actor, owner: {
            "username": owner.login,
            "name": "Impostor",
            "email": "",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        "sign up as someone else",
    ),
    "accounts:login": _plain(
        "accounts:login",
        lambda rng, actor, owner: {"username": owner.login, "password": actor.password},
        "log in as someone else",
    ),
    "accounts:logout": _plain("accounts:logout", lambda rng, actor, owner: {}, "log out"),
    "accounts:password_change": _plain(
        "accounts:password_change",
        lambda rng, actor, owner: {
            "old_password": owner.password,
            "new_password1": "an entirely new passphrase 1",
            "new_password2": "an entirely new passphrase 1",
        },
        "change the password with someone else's",
    ),
    "reports:send": _report,
    "timelines:compose": _plain(
        "timelines:compose", lambda rng, actor, owner: {"message": f"@{owner.login} #redis hi"}, "post"
    ),
    "timelines:delete": _delete,
    "timelines:edit": _edit,
    "timelines:like": _on_post("like"),
    "timelines:unlike": _on_post("unlike"),
    "timelines:bookmark": _on_post("bookmark"),
    "timelines:unbookmark": _on_post("unbookmark"),
    "timelines:repost": _on_post("repost"),
    "timelines:unrepost": _on_post("unrepost"),
    "timelines:reply": _reply,
    "timelines:conversation": _on_conversation("conversation"),
    "timelines:conversation_read": _on_conversation("conversation_read"),
    "timelines:message_new": _message,
    "timelines:notifications_read": _plain("timelines:notifications_read", lambda *_: {}, "mark read"),
    "timelines:answer_follow_request": _answer_request,
    "timelines:follow": _on_person("follow"),
    "timelines:unfollow": _on_person("unfollow"),
    "timelines:block": _on_person("block"),
    "timelines:unblock": _on_person("unblock"),
    "timelines:mute": _on_person("mute"),
    "timelines:unmute": _on_person("unmute"),
    "timelines:follow_tag": _on_tag("follow_tag"),
    "timelines:unfollow_tag": _on_tag("unfollow_tag"),
    "timelines:list_pick": _pick,
    "timelines:list_create": _plain(
        "timelines:list_create", lambda rng, actor, owner: {"name": f"list {rng.randrange(1000)}"}, "create a list"
    ),
    "timelines:list_add_member": _on_list("list_add_member"),
    "timelines:list_remove_member": _on_list("list_remove_member"),
    "timelines:list_edit": _on_list("list_edit"),
    "timelines:list_delete": _on_list("list_delete"),
    "timelines:profile_settings": _plain(
        "timelines:profile_settings",
        lambda rng, actor, owner: {
            "name": f"Not {owner.login}",
            "bio": "edited",
            **({"private": "on"} if rng.random() < 0.5 else {}),
        },
        "edit the profile",
    ),
}
