"""Job entry points of federation, run by the site's RQ workers; ``federation.queue`` enqueues them."""

from __future__ import annotations

from typing import Any

from rq import get_current_job

from federation.services import (
    actor_changes,
    actors,
    ancestors,
    inbound,
    outbound,
    remote_media,
    remote_profiles,
    remote_statuses,
    replies,
    severance,
)


def process_inbound(*, activity: dict[str, Any], actor: str) -> str:
    return inbound.process(activity=activity, actor_uri=actor)


def fan_out(*, status_id: int, uid: int, deleted: dict[str, str] | None = None, version: int = 0) -> int:
    return outbound.fan_out(status_id=status_id, uid=uid, deleted=deleted, version=version)


def deliver(*, inbox: str, activity: dict[str, Any], signer: int) -> int:
    return outbound.deliver(inbox=inbox, activity=activity, signer=signer)


def backfill(*, uid: int) -> int:
    actor = actors.actor_by_uid(uid)
    return remote_statuses.backfill(author=actor) if actor is not None else 0


def look_up(*, acct: str) -> int | None:
    return actors.resolve_account_uid(acct)


def actor_update(*, uid: int) -> int:
    return actor_changes.send_update(uid=uid)


def fetch_replies(*, status_id: int) -> int:
    return replies.fetch_replies(status_id=status_id)


def fetch_ancestors(*, status_id: int, parent_uri: str) -> int:
    return ancestors.fetch_ancestors(status_id=status_id, parent_uri=parent_uri)


def _last_try() -> bool:
    """Whether the running job has no retry left (RQ's ``retries_left``; a job run outside a worker has none):
    a picture that fails now is given up rather than postponed."""
    job = get_current_job()
    return job is None or not job.retries_left


def cache_remote_images(*, status_id: int) -> int:
    return remote_media.cache_images(status_id=status_id, last_try=_last_try())


def cache_remote_pictures(*, uid: int) -> int:
    return remote_profiles.cache_pictures(uid=uid, last_try=_last_try())


def apply_media_policy(*, domain: str) -> int:
    return remote_profiles.apply_media_policy(domain=domain)


def sever_relationships(*, event_id: int) -> int:
    return severance.sever_relationships(event_id=event_id)


def refresh_actor(*, uri: str) -> int | None:
    try:
        return actors.actor_by_uri(uri, refresh=True).uid
    except actors.ActorError:  # gone or refused since: the next fetch tries again
        return None
