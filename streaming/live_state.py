"""What one live page remembers (``streaming.live``): the posts it was sent, whose edits and deletions it gets, and
for a home the accounts it merges when read (``timelines.services.pulled``) with the policy's state for them.
Neither decides who may see a post: the delivery did when it sent it, and for a merged post the page asks the
policy exactly as its read does.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async

from streaming import matching
from timelines import events as timeline_events
from timelines import policy, selectors

# Statuses a page remembers having been sent, for their edits: more than an open page ever shows.
MAX_SENT = 1000


class Merged:
    """What a home merges when read (``services.pulled``): the accounts it follows whose posts are not written
    into homes, and the policy's state for judging their posts for this viewer as the read does (the delivery
    decided nothing for them). Read when the page opens and after every reset."""

    def __init__(self, uid: int | None) -> None:
        self.uid = uid
        self.authors: frozenset[int] = frozenset()
        self.registry: frozenset[int] = frozenset()
        self.state: Any = None

    async def read(self) -> None:
        if self.uid is None:
            return
        read = sync_to_async(selectors.get_followed_pulled_authors, thread_sensitive=False)
        registry, followed = await read(uid=self.uid)
        authors = frozenset(followed)
        if authors:
            related = await sync_to_async(selectors.get_related_ids, thread_sensitive=False)(uid=self.uid)
            chooser = policy.get_policy()
            self.state = await chooser.aload(recipients=(self.uid,), authors=authors | related)
        self.registry = frozenset(registry)
        self.authors = authors

    def index_keys(self) -> set[str]:
        return {matching.PULLED} if self.uid is not None else set()

    def unknown(self, event: Any) -> bool:
        """A pulled post of an account that was not in the registry when the home last read it."""
        return self.uid is not None and event.followers_of is not None and event.followers_of not in self.registry

    def shows(self, event: Any) -> bool:
        if self.uid is None or event.followers_of not in self.authors or event.kind != timeline_events.POST:
            return False
        chooser = policy.get_policy()
        return chooser.allows_all(self.state) or chooser.allows(
            self.state, recipient=self.uid, item=policy.Item.of_status(event)
        )


NOT_MERGED = Merged(None)  # a list page, or a page without posts: merges nothing


class Sent:
    """The ids of the statuses a page was sent (a repost's original too), the newest ``MAX_SENT``: an edit or a
    deletion of one of them is sent too. Not a decision of who may see what: the delivery made it when it sent
    the post. ``gone``: the deletions already sent, so a deletion reaches the page once, whether the withdrawal
    pass of its timeline or the deletion itself comes first."""

    def __init__(self) -> None:
        self.ids: dict[int, None] = {}
        self.gone: dict[int, None] = {}
        # The entries among ``ids`` that are reposts: when one goes, what the page shows in its place is read again.
        self.reposts: set[int] = set()

    def delete(self, status_id: int, *, always: bool = False) -> bool:
        """Whether to send the deletion of ``status_id``: not twice, and (unless ``always``: the withdrawal from
        this page's own timeline) only of a post the page was sent."""
        if status_id in self.gone or not (always or status_id in self.ids):
            return False
        self.forget(status_id)
        self.gone[status_id] = None
        while len(self.gone) > MAX_SENT:
            del self.gone[next(iter(self.gone))]
        return True

    def __contains__(self, status_id: int) -> bool:
        return status_id in self.ids

    def is_repost(self, entry_id: int) -> bool:
        """Whether ``entry_id`` is a repost this page was sent (and has not seen go)."""
        return entry_id in self.reposts and entry_id in self.ids

    def add(self, event: dict[str, Any]) -> None:
        original = event.get("repost_of")
        if isinstance(original, dict):
            self.update_entries([(int(event["id"]), int(original["id"]))])
        else:
            self.update([int(event["id"])])

    def update_entries(self, entries: list[tuple[int, int]]) -> None:
        """Entries read as a page shows them: (entry id, status id), a repost's entry id being its own."""
        for entry_id, status_id in entries:
            if entry_id != status_id:
                self.reposts.add(entry_id)
                self.update([entry_id])
            self.update([status_id])

    def update(self, ids: list[int]) -> None:
        for status_id in ids:
            self.ids.pop(status_id, None)
            self.ids[status_id] = None
        while len(self.ids) > MAX_SENT:
            self.reposts.discard(next(iter(self.ids)))
            del self.ids[next(iter(self.ids))]

    def forget(self, status_id: int) -> None:
        self.ids.pop(status_id, None)
        self.reposts.discard(status_id)

    def clear(self) -> None:
        self.ids.clear()
        self.reposts.clear()
