"""The URIs of this server's ActivityPub actors and collections, built from the canonical domain
(``timelines.uris``), never from a request's ``Host``.

An account's actor is its canonical URI, ``https://<domain>/@login`` (the profile page, which answers
ActivityPub to a client asking for it), and its status's object ``https://<domain>/@login/<id>``. Inboxes and
collections live under ``/users/<login>/``, as Mastodon's do; the shared inbox is ``/inbox`` and the instance
actor (which signs fetches made for no one in particular) ``/actor``.
"""

from __future__ import annotations

from timelines import uris

INSTANCE_ACTOR_NAME = "socialsite"


def base() -> str:
    return f"{uris.scheme()}://{uris.local_domain()}"


def actor(login: str) -> str:
    return uris.account_uri(login)


def key_id(actor_uri: str) -> str:
    return f"{actor_uri}#main-key"


def inbox(login: str) -> str:
    return f"{base()}/users/{login}/inbox"


def outbox(login: str) -> str:
    return f"{base()}/users/{login}/outbox"


def followers(login: str) -> str:
    return f"{base()}/users/{login}/followers"


def following(login: str) -> str:
    return f"{base()}/users/{login}/following"


def featured(login: str) -> str:
    return f"{base()}/users/{login}/collections/featured"


def shared_inbox() -> str:
    return f"{base()}/inbox"


def instance_actor() -> str:
    return f"{base()}/actor"


def status(login: str, status_id: int) -> str:
    return uris.status_uri(login, status_id)


def replies(login: str, status_id: int) -> str:
    """The ``replies`` collection of a local status (Mastodon's path)."""
    return f"{base()}/users/{login}/statuses/{status_id}/replies"


def activity(login: str, status_id: int, verb: str) -> str:
    """The id of an activity about a status (``.../activity`` for its Create, ``#delete`` for its Delete)."""
    return f"{status(login, status_id)}/{verb}"


def is_local(uri: str) -> bool:
    return uri.startswith(base() + "/")
