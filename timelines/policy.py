"""Who may receive what: the one per-recipient decision of socialsite (Mastodon's ``FeedManager#filter?``).

Every place a post can reach someone asks the same question, "may recipient R receive item I from author A?",
through this module: the fan-out (``services.delivery``) for each follower and each list owner, the copies and
refills (``services.author_copies``, ``services.refill``) for the timeline's owner, the page reads
(``selectors.timelines``) for the viewer, and the streams (``streaming``) for the viewer of a live home or for
the public (``recipient=None``) on ``sample.json`` and ``filter.json``. There is no other path, so a rule added
here holds everywhere at once.

The policy is an object named by ``settings.TIMELINES_POLICY`` (a dotted path), made once per process:

- ``load(recipients=..., authors=...)`` reads whatever state the decisions need, in at most one round trip,
  for a whole batch (a fan-out pass of 1,000 followers, a page of 30 statuses). ``aload`` is its asyncio twin
  for the streams, and must never block the event loop.
- ``page_state(relations, statuses=...)`` may build that state from what a page read brought back in its own
  round trip (``store.pages``), so a page costs no extra read for the policy.
- ``allows(state, recipient=..., item=...)`` is the decision itself: pure, no I/O, cheap enough to run for
  every recipient of every post; ``allows_all(state)`` says when no rule applies to the batch at all, so it needs
  no decision per item.

``Policy`` here is the base, which allows everything; the site's rules (visibilities, private accounts, blocks, mutes,
suspensions and limits) are ``timelines.privacy.PrivacyPolicy``, the default of ``SOCIALSITE_POLICY``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils.module_loading import import_string

PUBLIC = None  # the recipient of public surfaces: the streaming API, and anonymous readers

# Where an item is about to be seen; some rules depend on it (a mute hides posts from feeds, not from pages).
FEED = "feed"  # home and list timelines, the live home
NOTIFICATION = "notification"
PAGE = "page"  # a profile, a thread, someone's likes
SEARCH = "search"  # search results
LISTING = "listing"  # tag timelines and the public streams

S = TypeVar("S", bound=Mapping[str, Any])


@dataclass(frozen=True, slots=True)
class Item:
    """What is about to be delivered or shown: by whom, which status, and the status as stored when known
    (a refill knows only ids and authors)."""

    author_uid: int
    status_id: int | None = None
    kind: str = "status"  # "status", "repost", "notification.<kind>", or "profile" (the account itself)
    fields: Mapping[str, Any] = field(default_factory=dict)
    context: str = FEED

    @classmethod
    def of_status(cls, status: Mapping[str, Any], context: str = FEED) -> Item:
        return cls(author_uid=int(status["uid"]), status_id=int(status["id"]), fields=status, context=context)


class Policy:
    """The site's policy: every recipient may receive every item."""

    # The stored status fields ``allows`` reads from ``Item.fields``. Callers that know a batch only by ids and
    # authors (the copies and refills of ``services.author_copies`` and ``services.refill``) read these for each
    # status first, so the decision is made on the status as stored. A status holding none of them may be judged
    # as ``Item(author_uid=...)``, once for all such statuses of its author (a follow's copy of 1,000 posts):
    # ``allows`` must decide on the author, the recipient, the kind, the context and these fields, never on
    # ``status_id`` alone.
    status_fields: tuple[str, ...] = ()

    def load(
        self,
        *,
        recipients: Collection[int | None],
        authors: Collection[int],
        items: Sequence[Item] = (),
        followers_of: int | None = None,
    ) -> Any:
        """The state ``allows`` needs for these recipients and authors (and, when known, these items), read in
        at most one round trip. ``followers_of``: an author every recipient follows (a fan-out batch, read
        from that author's followers), so that need not be read again."""
        return None

    async def aload(
        self, *, recipients: Collection[int | None], authors: Collection[int], items: Sequence[Item] = ()
    ) -> Any:
        """``load`` for the streams, off the event loop."""
        return await sync_to_async(self.load, thread_sensitive=False)(
            recipients=recipients, authors=authors, items=items
        )

    def page_state(self, relations: Any, *, statuses: Sequence[Mapping[str, Any]]) -> Any:
        """The state for one viewer's page of ``statuses`` built from what ``store.pages`` read with the page
        in its own round trip (``store.privacy.Relations`` between the viewer and the page's authors:
        moderation flags, blocks, mutes, follows), or None when this policy needs its own ``load``. Pure: no
        I/O."""
        return None

    def allows(self, state: Any, *, recipient: int | None, item: Item) -> bool:
        """Whether ``recipient`` (None: the public) may receive ``item``. Pure: no I/O."""
        return True

    def allows_all(self, state: Any) -> bool:
        """True when ``state`` shows nothing that could refuse anything (no rule applies to the recipients,
        authors and items it was loaded for), so a batch needs no decision per item. Pure: no I/O."""
        return True


@cache
def _policy(path: str) -> Policy:
    policy = import_string(path)()
    if not isinstance(policy, Policy):
        raise TypeError(f"{path} is not a timelines.policy.Policy")
    return policy


def get_policy() -> Policy:
    """The process's policy (``settings.TIMELINES_POLICY``)."""
    return _policy(settings.TIMELINES_POLICY)


def allowed_recipients(
    *, item: Item, recipients: Sequence[int], followers_of: int | None = None, relations: Any = None
) -> list[int]:
    """The recipients of ``recipients`` that may receive ``item``, in order. One ``load`` for the batch.
    ``followers_of``: an author all ``recipients`` follow (they were read from that author's followers).
    ``relations``: ``store.privacy.Relations`` the caller has just read between the recipients and the item's
    authors (both ways); a policy that can judge from them (``page_state``) then reads nothing."""
    if not recipients:
        return []
    policy = get_policy()
    authors = [item.author_uid]
    if item.fields.get("repost_of_uid"):
        authors.append(int(item.fields["repost_of_uid"]))
    state = policy.page_state(relations, statuses=[item.fields]) if relations is not None else None
    if state is None:
        state = policy.load(recipients=recipients, authors=authors, items=(item,), followers_of=followers_of)
    if policy.allows_all(state):
        return list(recipients)
    return [recipient for recipient in recipients if policy.allows(state, recipient=recipient, item=item)]


def visible_to(*, viewer: int | None, statuses: Sequence[S], context: str = PAGE) -> list[S]:
    """The statuses of ``statuses`` that ``viewer`` (None: an anonymous reader) may see in ``context``, in
    order."""
    if not statuses:
        return []
    policy = get_policy()
    items = [Item.of_status(status, context=context) for status in statuses]
    state = policy.load(recipients=(viewer,), authors={item.author_uid for item in items}, items=items)
    if policy.allows_all(state):
        return list(statuses)
    return [
        status
        for status, item in zip(statuses, items, strict=True)
        if policy.allows(state, recipient=viewer, item=item)
    ]


def may_see(*, viewer: int | None, status: Mapping[str, Any], context: str = PAGE) -> bool:
    """Whether ``viewer`` may see one status (a post's own page)."""
    return bool(visible_to(viewer=viewer, statuses=[status], context=context))


def may_see_profile(*, viewer: int | None, author: int) -> bool:
    """Whether ``viewer`` may see the posts of ``author``'s profile (a private account shows them to its
    approved followers only; a block hides them both ways)."""
    policy = get_policy()
    state = policy.load(recipients=(viewer,), authors=(author,))
    return policy.allows_all(state) or policy.allows(
        state, recipient=viewer, item=Item(author_uid=author, kind="profile", context=PAGE)
    )
