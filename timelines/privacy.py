"""The site's per-recipient policy: private accounts, blocks, mutes and moderation, in one decision.

``PrivacyPolicy`` is the policy ``timelines.policy`` asks everywhere (``settings.TIMELINES_POLICY``). Its state
for a batch is one read (``store.privacy.relations``): the authors' flags and the block, mute and follow
relations between the batch's recipients and authors. The rules, Mastodon's and Twitter's:

- Everyone sees their own posts.
- A suspended author's posts reach nobody else (moderation).
- A block hides both people's posts from each other everywhere, and their notifications.
- A mute hides the muted person's posts and reposts from the muter's feeds (home, lists, live home) and
  notifications, and nothing else: their profile, threads and search still show them.
- A post written while its author was private (``private``) reaches only the author's approved followers
  (search finds it for them too): never the public (streams, tags, anonymous readers) and never anyone else.
  A private account's profile shows its posts to its followers only.
- A limited author's posts reach only their existing followers: kept out of the public listings, search and
  anyone else's feeds and notifications (their profile and threads still show them).
- A repost is judged for its reposter and for the original's author alike.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from timelines import policy, store
from timelines.store.privacy import Relations

_TRUE = {"1", "true", 1}


def is_private(fields: Mapping[str, Any]) -> bool:
    """Whether a status was written while its author was private."""
    return fields.get("private") in _TRUE


@dataclass(frozen=True, slots=True)
class PrivacyState:
    """What the rules need for a batch: the relations, and whether any item of it is a private post."""

    relations: Relations
    private_items: bool


class PrivacyPolicy(policy.Policy):
    status_fields = ("private", "repost_of_uid")

    def load(
        self,
        *,
        recipients: Collection[int | None],
        authors: Collection[int],
        items: Sequence[policy.Item] = (),
        followers_of: int | None = None,
    ) -> PrivacyState:
        people = [recipient for recipient in recipients if recipient is not None]
        relations = store.privacy.relations(
            list(dict.fromkeys(people)), list(dict.fromkeys(authors)), followers_of=followers_of
        )
        if not authors:
            # Any author (a stream): what applies to all of them, the moderated accounts.
            flags = {uid: frozenset({"suspended"}) for uid in store.moderation.members("suspended")}
            for uid in store.moderation.members("limited"):
                flags[uid] = flags.get(uid, frozenset()) | {"limited"}
            relations = Relations(flags, relations.blocked, relations.muted, relations.follows)
        return PrivacyState(relations, any(is_private(item.fields) for item in items))

    def page_state(self, relations: Relations, *, statuses: Sequence[Mapping[str, Any]]) -> PrivacyState:
        # A page's relations carry the authors' moderation flags, not "private": for statuses the post's own
        # ``private`` field decides, and only a "profile" item asks about the account.
        return PrivacyState(relations, any(is_private(status) for status in statuses))

    def allows_all(self, state: PrivacyState) -> bool:
        return state.relations.empty and not state.private_items

    def _author(self, state: Relations, recipient: int | None, author: int, item: policy.Item) -> bool:
        """The rules about one author of the item (its writer, or a repost's original author)."""
        if recipient == author:
            return True
        flags = state.flags.get(author, frozenset())
        if "suspended" in flags:
            return False
        if recipient is None:
            # An anonymous reader follows nobody: a private account's profile shows them no posts at all.
            if item.kind == "profile" and "private" in flags:
                return False
            return "limited" not in flags or item.context == policy.PAGE
        if (recipient, author) in state.blocked:
            return False
        muting = item.context in (policy.FEED, policy.NOTIFICATION)
        if muting and (recipient, author) in state.muted:
            return False
        following = (recipient, author) in state.follows
        if "limited" in flags and item.context != policy.PAGE and not following:
            return False
        # A private account's profile shows its posts to approved followers only.
        return not (item.kind == "profile" and "private" in flags and not following)

    def allows(self, state: PrivacyState, *, recipient: int | None, item: policy.Item) -> bool:
        relations = state.relations
        if not self._author(relations, recipient, item.author_uid, item):
            return False
        original = item.fields.get("repost_of_uid")
        if original and not self._author(relations, recipient, int(original), item):
            return False
        if is_private(item.fields) and recipient != item.author_uid:
            if recipient is None or item.context == policy.LISTING:
                return False
            return (recipient, item.author_uid) in relations.follows
        return True
