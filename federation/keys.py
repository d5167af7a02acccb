"""Every Redis key of the federation app. The social data of remote accounts and posts lives in the timelines'
own keys (``user:{uid}``, ``status:{id}``, ``followers:{uid}``...); these only index it for federation.

- ``ap:object:{<sha1 of uri>}`` (string): the local status id of a remote object, so a Create delivered twice
  stores one status and a Delete finds it. ``GET ap:object:{3f7...}`` -> ``"1042"``.
- ``ap:followers:{uid}`` (ZSET): the remote followers of local account ``uid``, scored by when they followed;
  a subset of ``followers:{uid}`` (same slot), which stays the truth: delivery skips anyone no longer in it.
  ``ZRANGE ap:followers:{7} 0 -1`` -> ``["51", "90"]``.
- ``ap:follow_requests:{uid}`` (hash): the Follow activities (JSON) of remote accounts waiting for private
  local account ``uid`` to answer, by the requester's uid, so the Accept or Reject can quote them.
- ``ap:failing:{<domain>}`` (string): when deliveries to another server began to fail without a success since
  (epoch seconds); past ``UNAVAILABLE_AFTER_SECONDS`` the server counts as unavailable and gets no deliveries until
  it is heard from again. ``GET ap:failing:{social.example}`` -> ``"1764000000.5"``.
- ``ap:failures:{<domain>}`` (string): how many deliveries to another server failed since its last success
  (reset by a success). ``GET ap:failures:{social.example}`` -> ``"4"``.
- ``ap:succeeded:{<domain>}`` (string): when another server last took a delivery or was heard from (epoch
  seconds), for the admin's Federation page. The three server keys share the domain's hash tag (one slot).
- ``ap:seen:{<sha1 of activity id>}`` (string with a TTL): an incoming activity already processed
  (``SEEN_SECONDS``), so a redelivered one changes nothing.
- ``ap:replies_fetched:{<status id>}`` (string with a TTL): the replies of a remote post were asked of its server
  less than ``federation.services.replies.COOLDOWN_SECONDS`` ago, so reloading its thread fetches nothing.
  ``TTL ap:replies_fetched:{1042}`` -> ``(integer) 812``.
- ``ap:ancestors_fetched:{<sha1 of uri>}`` (string with a TTL): the post at ``uri``, which a stored remote post
  answers and this server does not have, was asked of its server (with the posts above it) less than
  ``ANCESTORS_COOLDOWN_SECONDS`` ago, so many replies to it, or a redelivery, fetch it once.
- ``ap:orphans:{<sha1 of uri>}`` (set with a TTL, ``ORPHANS_SECONDS``): the ids of the stored remote posts that
  answer the missing post at ``uri``; the job that fetches it links them all under it.
- ``ap:inboxes:{uid}`` (hash): the inboxes (a server's shared inbox, else the personal one) of local account
  ``uid``'s remote followers, each with how many of them it serves; written in the same transaction as
  ``ap:followers:{uid}`` (same slot), so a post's fan-out reads one small hash instead of every follower.
  ``HGETALL ap:inboxes:{7}`` -> ``{"https://social.example/inbox": "212"}``.
- ``ap:follower_inbox:{uid}`` (hash): the inbox each remote follower of ``uid`` was counted under in
  ``ap:inboxes:{uid}``, so its removal takes one off the same count. ``HGET ap:follower_inbox:{7} 51`` ->
  ``"https://social.example/inbox"``.
"""

from __future__ import annotations

import hashlib

SEEN_SECONDS = 7 * 24 * 3600
# Mastodon marks a server unavailable after a week of failures, and available again when it is heard from.
UNAVAILABLE_AFTER_SECONDS = 7 * 24 * 3600
ANCESTORS_COOLDOWN_SECONDS = 15 * 60
ORPHANS_SECONDS = 24 * 60 * 60


def _digest(uri: str) -> str:
    return hashlib.sha1(uri.encode(), usedforsecurity=False).hexdigest()


def remote_object(uri: str) -> str:
    return f"ap:object:{{{_digest(uri)}}}"


def remote_followers(uid: int) -> str:
    return f"ap:followers:{{{uid}}}"


def seen_activity(activity_id: str) -> str:
    return f"ap:seen:{{{_digest(activity_id)}}}"


def replies_fetched(status_id: int) -> str:
    return f"ap:replies_fetched:{{{status_id}}}"


def ancestors_fetched(uri: str) -> str:
    return f"ap:ancestors_fetched:{{{_digest(uri)}}}"


def orphans(uri: str) -> str:
    return f"ap:orphans:{{{_digest(uri)}}}"


REMOTE_FOLLOWERS_PATTERN = "ap:followers:{*}"


def remote_inboxes(uid: int) -> str:
    return f"ap:inboxes:{{{uid}}}"


def follower_inbox(uid: int) -> str:
    return f"ap:follower_inbox:{{{uid}}}"


def follow_requests(uid: int) -> str:
    return f"ap:follow_requests:{{{uid}}}"


def failing_since(domain: str) -> str:
    return f"ap:failing:{{{domain.lower()}}}"


def failures(domain: str) -> str:
    return f"ap:failures:{{{domain.lower()}}}"


def succeeded(domain: str) -> str:
    return f"ap:succeeded:{{{domain.lower()}}}"
