"""Hooks through which another app hears of what the timelines do, without the timelines importing it.

Federation (issue 22) is the one user: it registers its functions in its ``AppConfig.ready`` and the timelines
call them at the points named here, after their own writes succeeded. With nothing registered every call is a
no-op, so the timelines work (and their tests run) without the federation app. A hook must not raise for a
change that is already made: it queues its work (RQ) and returns.

- ``is_remote(uid)``: whether ``uid`` is another server's account, whose follows go through that server;
- ``remote_follow_requested(uid, other_uid)``: ``uid`` asked to follow remote ``other_uid`` (send the Follow);
- ``remote_unfollowed(uid, other_uid)``: ``uid`` stopped following, or withdrew its request to, remote
  ``other_uid`` (send the Undo);
- ``follower_removed(uid, follower)``: ``follower`` stopped following ``uid``, however (an Undo, a block, a
  severance): a remote follower leaves the index of ``uid``'s remote inboxes;
- ``remote_audience_key(uid)``: the ZSET of ``uid``'s followers on other servers, whose size a new post reads
  with its own writes (so ``status_delivered`` needs no round trip to learn it), or None;
- ``status_delivered(status, remote_followers)``: a new status went through the local audiences (the remote
  audience is next); ``remote_followers``: whether its author has followers on other servers, when the caller
  read it (``remote_audience_key``), else None;
- ``status_deleted(fields)``: a status was deleted (tell the servers it reached);
- ``status_edited(fields)``: a status was edited (its fields as they are now);
- ``status_liked(uid, fields, liked)``: ``uid`` liked (or with ``liked`` False, stopped liking) the status whose
  stored fields are given;
- ``follow_request_answered(uid, requester_uid, approved)``: ``uid`` approved or rejected a request to follow
  them (the requester's server is told when it is another server's account);
- ``look_up_accounts(accts)``: a post mentions these ``login@domain`` accounts of other servers, unknown here
  (look them up, in a job);
- ``profile_changed(uid)``: a local account's name, bio or privacy changed (tell the servers that follow it);
- ``account_deleted(uid)``: a local account is about to be erased (tell the servers that know it, while its
  follows are still there);
- ``remote_blocked(uid, other_uid, blocked)``: ``uid`` blocked (or with ``blocked`` False, unblocked) remote
  ``other_uid`` (send the Block, or its Undo, as Mastodon does, so that server hides ``uid`` from it too);
- ``forward_report(uid, status_ids, comment)``: send a copy of a report about remote ``uid`` (and those of its
  posts) to its server, from this server (a Flag); True when it is queued;
- ``resolve_account(acct)``: the uid of another server's account ``login@domain``, looked up on that server
  when it is not known yet (search), or None;
- ``resolve_url(url)``: what the address of another server's profile or post names, fetched and stored when it
  is not known yet (search): ``("account", uid)``, ``("status", status_id)``, or None;
- ``remote_replies_pending(status)``: whether the replies of another server's post are being fetched now (its
  page polls until they are, then shows them);
- ``remote_thread_opened(status)``: the thread of another server's post (its stored fields, with its ``uri``)
  was opened (fetch the replies missing here, in a job, at most once in a while).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

_registered: dict[str, Callable[..., Any]] = {}

NAMES = frozenset(
    {
        "is_remote",
        "remote_follow_requested",
        "remote_unfollowed",
        "follower_removed",
        "status_delivered",
        "remote_audience_key",
        "status_deleted",
        "resolve_account",
        "resolve_url",
        "remote_thread_opened",
        "remote_replies_pending",
        "follow_request_answered",
        "status_edited",
        "status_liked",
        "look_up_accounts",
        "profile_changed",
        "account_deleted",
        "remote_blocked",
        "forward_report",
    }
)


def register(name: str, function: Callable[..., Any]) -> None:
    """Register ``function`` as hook ``name`` (one of ``NAMES``), replacing any before it."""
    if name not in NAMES:
        raise ValueError(f"no hook named {name!r}")
    _registered[name] = function


def is_remote(uid: int) -> bool:
    hook = _registered.get("is_remote")
    return bool(hook(uid)) if hook else False


def remote_follow_requested(*, uid: int, other_uid: int) -> None:
    if hook := _registered.get("remote_follow_requested"):
        hook(uid=uid, other_uid=other_uid)


def remote_unfollowed(*, uid: int, other_uid: int) -> None:
    if hook := _registered.get("remote_unfollowed"):
        hook(uid=uid, other_uid=other_uid)


def remote_audience_key(uid: int) -> str | None:
    hook = _registered.get("remote_audience_key")
    return hook(uid) if hook else None


def status_delivered(status: Mapping[str, Any], *, remote_followers: bool | None = None) -> None:
    if hook := _registered.get("status_delivered"):
        hook(status, remote_followers=remote_followers)


def status_deleted(fields: Mapping[str, Any]) -> None:
    if hook := _registered.get("status_deleted"):
        hook(fields)


def resolve_account(acct: str) -> int | None:
    hook = _registered.get("resolve_account")
    return hook(acct) if hook else None


def resolve_url(url: str) -> tuple[str, int] | None:
    hook = _registered.get("resolve_url")
    return hook(url) if hook else None


def remote_thread_opened(status: Mapping[str, Any]) -> None:
    """Called for every thread page and API context: only another server's post (one with a ``uri``) goes
    on to the hook."""
    if status.get("uri") and (hook := _registered.get("remote_thread_opened")):
        hook(status)


def follower_removed(*, uid: int, follower: int) -> None:
    if hook := _registered.get("follower_removed"):
        hook(uid=uid, follower=follower)


def remote_replies_pending(status: Mapping[str, Any]) -> bool:
    """Whether the replies of another server's post (one with a ``uri``) are being fetched now; False for a
    local post, without asking federation."""
    hook = _registered.get("remote_replies_pending")
    return bool(status.get("uri") and hook and hook(status))


def follow_request_answered(*, uid: int, requester_uid: int, approved: bool) -> None:
    if hook := _registered.get("follow_request_answered"):
        hook(uid=uid, requester_uid=requester_uid, approved=approved)


def status_edited(fields: Mapping[str, Any]) -> None:
    if hook := _registered.get("status_edited"):
        hook(fields)


def status_liked(*, uid: int, fields: Mapping[str, Any], liked: bool) -> None:
    if hook := _registered.get("status_liked"):
        hook(uid=uid, fields=fields, liked=liked)


def look_up_accounts(accts: list[str]) -> None:
    if hook := _registered.get("look_up_accounts"):
        hook(accts)


def profile_changed(*, uid: int) -> None:
    if hook := _registered.get("profile_changed"):
        hook(uid=uid)


def account_deleted(*, uid: int) -> None:
    if hook := _registered.get("account_deleted"):
        hook(uid=uid)


def remote_blocked(*, uid: int, other_uid: int, blocked: bool) -> None:
    if hook := _registered.get("remote_blocked"):
        hook(uid=uid, other_uid=other_uid, blocked=blocked)


def forward_report(*, uid: int, status_ids: list[int], comment: str) -> bool:
    hook = _registered.get("forward_report")
    return bool(hook(uid=uid, status_ids=status_ids, comment=comment)) if hook else False
