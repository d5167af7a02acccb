"""Mentions of other servers' accounts in local posts (``@login@domain``): which stored mentions are remote,
which mentions of a post's text are not known here yet, and looking those up (WebFinger, in jobs: never in the
request that posts). A post mentioning an unknown account is posted at once; its fan-out job looks the account up
and stores it with the post's mentions, so its Note tags it and it is delivered. ``post_status`` asks for the
look-ups (``timelines.hooks.look_up_accounts``) and refuses a direct message until its people are known.
"""

from __future__ import annotations

from typing import Any

from federation import queue
from federation.services import actors
from timelines import store as timelines_store
from timelines import text, uris
from timelines import visibility as visibilities
from timelines.records import mention_pairs


def remote_mentions(fields: Any) -> list[int]:
    """The uids of the other servers' accounts a status mentions (their stored login is ``login@domain``)."""
    return [uid for uid, login in mention_pairs(fields.get("mentions")) if text.is_remote_mention(login)]


def unresolved(fields: Any) -> list[str]:
    """The ``login@domain`` mentions of a status's text that its stored mentions do not name (not known here
    when it was posted). No I/O."""
    message = str(fields.get("message") or "")
    if "@" not in message or fields.get("repost_of"):
        return []
    own = "@" + uris.local_domain()
    named = {login.lower() for _, login in mention_pairs(fields.get("mentions"))}
    return [
        login
        for login in text.mentioned_logins(message)
        if text.is_remote_mention(login) and not login.endswith(own) and login not in named
    ]


def resolve_mentions(status_id: int, fields: dict[str, str]) -> dict[str, str]:
    """Look up (WebFinger) the accounts of other servers a status mentions that were unknown when it was
    posted, and store them with its mentions, so its Note tags them and they receive it. Returns the fields as
    they are now. A direct post never has any (``post_status`` refuses it until they are known)."""
    unknown = unresolved(fields)
    if not unknown or visibilities.of_status(fields) == visibilities.DIRECT:
        return fields
    pairs = [fields["mentions"]] if fields.get("mentions") else []
    for acct in unknown[: text.MAX_MENTIONS]:
        try:
            found = actors.resolve_acct(acct)
        except actors.ActorError:
            continue
        pairs.append(f"{found.uid}:{found.username.lower()}@{found.domain}")
    mentions = ",".join(pairs)
    if mentions and mentions != fields.get("mentions"):
        if not timelines_store.statuses.set_field_if_exists(status_id, "mentions", mentions):
            return fields
        fields = {**fields, "mentions": mentions}
    return fields


def look_up_accounts(accts: list[str]) -> None:
    """Look up the accounts of other servers a post mentions, each in a job (WebFinger, then the actor)."""
    for acct in accts:
        queue.enqueue_lookup(acct=acct)
