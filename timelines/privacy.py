"""The site's per-recipient policy: private accounts, blocks, mutes and moderation, in one decision.

``PrivacyPolicy`` is the policy ``timelines.policy`` asks everywhere (``settings.TIMELINES_POLICY``). Its state
for a batch is one read (``store.privacy.relations``): the authors' flags and the block, mute and follow
relations between the batch's recipients and authors. The rules, Mastodon's and Twitter's:

- Everyone sees their own posts.
- A suspended author's posts reach nobody else (moderation).
- A block hides both people's posts from each other everywhere, and their notifications.
- A mute hides the muted person's posts and reposts from the muter's feeds (home, lists, live home) and
  notifications, and nothing else: their profile, threads and search still show them.
- A post's visibility (``timelines.visibility``, Mastodon's four levels) bounds who receives it: ``public`` anyone;
  ``unlisted`` anyone but never in a listing (tag timelines, the public streams), and in search only for the
  author's followers; ``private`` (followers only) the author's approved followers, never the public nor a listing
  (search finds it for them too); ``direct`` (a direct message) only the people it mentions, in their notifications
  and on its own page and conversation, never in any feed (home, list, live home), search result or listing, not
  even its author's. A post written while its author was private before visibilities existed carries the older
  ``private`` flag and is ``private``. A private account's profile shows its posts to its followers only.
- A limited author's posts reach only their existing followers: kept out of the public listings, search and
  anyone else's feeds and notifications (their profile and threads still show them).
- A repost is judged for its reposter and for the original's author alike.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from timelines import policy, store
from timelines import visibility as visibilities
from timelines.records import Status
from timelines.store.privacy import Relations


def is_restricted(fields: Mapping[str, Any]) -> bool:
    """Whether a status's visibility is narrower than public, so each recipient needs a decision."""
    # A ``Status`` record knows its level already (every status of every page comes through here).
    level = fields.visibility if isinstance(fields, Status) else visibilities.of_status(fields)
    return level != visibilities.PUBLIC


@dataclass(frozen=True, slots=True)
class PrivacyState:
    """What the rules need for a batch: the relations, and whether any item of it is narrower than public."""

    relations: Relations
    restricted_items: bool


class PrivacyPolicy(policy.Policy):
    # A direct post's mentions are not among them: a batch known only by ids (a refill, a follow's copy)
    # judges a direct post without them, so it reaches no one but its author that way (as Mastodon's
    # merge into a home never copies direct posts).
    status_fields = ("private", "visibility", "repost_of_uid")

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
        return PrivacyState(relations, any(is_restricted(item.fields) for item in items))

    def page_state(self, relations: Relations, *, statuses: Sequence[Mapping[str, Any]]) -> PrivacyState:
        # A page's relations carry the authors' moderation flags, not "private": for statuses the post's own
        # visibility decides, and only a "profile" item asks about the account.
        # Every status of every page comes through here: a ``Status`` record's level is read in place.
        for status in statuses:
            level = status.visibility if type(status) is Status else visibilities.of_status(status)
            if level != visibilities.PUBLIC:
                return PrivacyState(relations, True)
        return PrivacyState(relations, False)

    def allows_all(self, state: PrivacyState) -> bool:
        return state.relations.empty and not state.restricted_items

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
        if item.context in _NOT_FOR_MESSAGES and visibilities.of_status(item.fields) == visibilities.DIRECT:
            return False  # a direct message lives in its conversation and notifications only, even its author's
        relations = state.relations
        if not self._author(relations, recipient, item.author_uid, item):
            return False
        original = item.fields.get("repost_of_uid")
        if original and not self._author(relations, recipient, int(original), item):
            return False
        return recipient == item.author_uid or _audience_allows(relations, recipient, item)


# Where a direct message never shows, to anyone (its author included): it lives in /messages and the
# participants' notifications ("mentioned you"), and on its own page for them.
_NOT_FOR_MESSAGES = frozenset({policy.FEED, policy.SEARCH, policy.LISTING})


def _audience_allows(relations: Relations, recipient: int | None, item: policy.Item) -> bool:
    """The rule of the item's visibility, for anyone but its author."""
    level = visibilities.of_status(item.fields)
    if level == visibilities.PUBLIC:
        return True
    if item.context == policy.LISTING:
        return False  # tag timelines, trending tags and the public streams list public posts only
    if level == visibilities.UNLISTED:
        if item.context == policy.SEARCH:
            return recipient is not None and (recipient, item.author_uid) in relations.follows
        return True
    if recipient is None:
        return False
    if level == visibilities.PRIVATE:
        return (recipient, item.author_uid) in relations.follows
    return recipient in visibilities.mentioned_uids(item.fields)
