"""The rule of the live pages (issue 19): **an open page shows exactly what a reload would show**, and nobody is
ever sent a post they may not see.

A Hypothesis state machine plays random sequences of posts (four visibilities), replies, reposts, edits, deletions,
follows and follow requests, unfollows, blocks, mutes, private-account changes, list changes, direct messages and
the suspension of one of them by five people, and runs the jobs each step queued (delivery passes past the
first, refills), while the homes of four of them, the lists of two and the first conversations their messages
start (for each participant) are open live. The pages are the real ASGI applications of ``/live/home``,
``/live/list`` and ``/live/me?conversation=<id>`` (``streaming.live``) with the real hub on a real Redis, read
in-process through Channels' ``ApplicationCommunicator``; each page's content is what ``static/js/site.js`` makes
of the events (``post`` and ``message`` insert, ``delete`` and ``unmessage`` remove, ``update`` and ``edited``
swap, ``suspend`` removes an account's posts, ``timeline`` and ``thread`` replace the first page). After every
step each open page must equal its reload (the same entries, each with its post's current text), and again once
the step's jobs ran (``selectors``, the code the pages render); and every entry a page was ever sent must be one
its reader may see by an oracle written here from the rules of visibility, conversations, suspensions, blocks and
mutes, not by the site's policy.

With ``POSTS_PER_PASS`` and ``DELIVERY_JOB_SIZE`` at 1, every post to two followers or more is finished by RQ job
passes (run in this process by the site's worker class, in burst mode), so both the inline pass and the job
passes are followed.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Coroutine
from contextlib import nullcontext
from dataclasses import dataclass, field
from html import escape
from typing import Any

import pytest
from channels.testing import ApplicationCommunicator
from django.test import override_settings
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from accounts.models import User
from socialsite import redis_client
from socialsite.testing import WAIT_SECONDS
from streaming import live
from streaming.live_encoding import entry_html
from timelines import events as timeline_events
from timelines import exceptions, limits, queue, selectors, services, store
from timelines.records import mention_pairs
from timelines.services import direct_messages, moderation
from timelines.services.publishing import publish
from timelines.worker import Worker

PEOPLE = ("alice", "bob", "carol", "dave", "eve")
BROWSING = 4  # the first four have their pages open; eve is the one the moderators suspend
EVE = 4
LIST_OWNERS = (0, 1)  # alice's and bob's lists are open too
INITIAL_MEMBERS = {0: (1, 2, EVE), 1: (3, 0)}
MAX_CONVERSATION_PAGES = 4
LEVELS = ("public", "unlisted", "private", "direct")
PAGE = limits.DEFAULT_PAGE_SIZE
STATUS_ATTRIBUTE = re.compile(r'data-status="\d+"')
# How long a step's events may take to reach every page (a few milliseconds when all is well); short, so that a
# failing example shrinks in reasonable time.
SETTLE_SECONDS = 3.0
person = st.integers(0, len(PEOPLE) - 1)
pick = st.integers(0, 10_000)  # an index into what exists, taken modulo its length


class Loop:
    """The event loop the hub and the open pages live on, in a thread of its own, so that the state machine's
    steps call the services synchronously, as a request or a job does."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float = WAIT_SECONDS) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT_SECONDS)
        self.loop.close()


@dataclass
class OpenPage:
    """One open live page: what site.js shows of it (entry id -> html), and every entry it was ever sent."""

    uid: int
    list_id: int | None = None
    conversation: int | None = None
    shown: dict[int, str] = field(default_factory=dict)
    sent: list[int] = field(default_factory=list)
    marker: int = 0
    communicator: Any = None
    reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        if self.conversation is not None:
            app, path, query = live.live_me, "/live/me", f"conversation={self.conversation}"
        elif self.list_id is not None:
            app, path, query = live.live_list, "/live/list", f"list={self.list_id}&since_id=0"
        else:
            app, path, query = live.live_home, "/live/home", "since_id=0"
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": "GET",
            "path": path,
            "query_string": query.encode(),
            "headers": [],
            "user": User(username=f"user{self.uid}", uid=self.uid),
        }
        self.communicator = ApplicationCommunicator(app, scope)
        await self.communicator.send_input({"type": "http.request", "body": b""})
        start = await self.communicator.receive_output(WAIT_SECONDS)
        assert start["status"] == 200, start
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        buffer = ""
        while True:
            message = await self.communicator.receive_output(3600)
            buffer += message.get("body", b"").decode()
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                fields = dict(line.partition(": ")[::2] for line in block.split("\n") if ": " in line)
                if "event" in fields:
                    self.apply(fields["event"], json.loads(fields["data"]))
            if not message.get("more_body", True):
                return

    def apply(self, event: str, data: dict[str, Any]) -> None:
        """What site.js does with each event (``startLive``, ``startMessages``); a page with no "older" link."""
        if event in ("post", "message"):
            self.sent.append(int(data["id"]))
            self.insert(int(data["id"]), data["html"])
        elif event == "unmessage":
            self.shown.pop(int(data["id"]), None)
        elif event == "edited":
            if "html" in data and int(data["id"]) in self.shown:
                self.shown[int(data["id"])] = data["html"]
        elif event == "suspend":
            by, reposted = f'data-author="{int(data["uid"])}"', f'data-reposter="{int(data["uid"])}"'
            self.shown = {
                entry_id: html for entry_id, html in self.shown.items() if by not in html and reposted not in html
            }
        elif event == "delete":
            gone = f'data-status="{int(data["id"])}"'
            self.shown = {
                entry_id: html
                for entry_id, html in self.shown.items()
                if entry_id != int(data["id"]) and gone not in html
            }
        elif event == "update":
            # The edited post's text swapped in wherever the page shows it (itself, or through reposts).
            marker = f'data-status="{int(data["id"])}"'
            for entry_id, html in self.shown.items():
                if marker in html:
                    self.shown[entry_id] = data["html"]
        elif event in ("timeline", "thread"):
            keep = {int(entry["id"]): entry["html"] for entry in data["entries"]}
            oldest = min(keep, default=0)
            for entry_id in list(self.shown):
                if entry_id not in keep and (data["complete"] or entry_id >= oldest):
                    del self.shown[entry_id]
            for entry_id, html in sorted(keep.items()):
                self.sent.append(entry_id)
                if entry_id in self.shown:
                    self.shown[entry_id] = html  # its text as it is now
                else:
                    self.insert(entry_id, html)
        elif event == "notifications" and int(data["unread"]) < 0:
            self.marker = -int(data["unread"])  # the test's own marker (below)
        elif event == "reload":
            raise AssertionError(f"page of {self.uid} cut off: {data}")

    def insert(self, entry_id: int, html: str) -> None:
        """site.js's ``insertStatus``: a post shows once, where it came newest (a repost of a post already shown
        takes its place; an older entry of a post already shown is not added)."""
        if entry_id in self.shown:
            return
        status = STATUS_ATTRIBUTE.search(html)
        same = [other for other, shown in self.shown.items() if status and status.group(0) in shown]
        if any(other > entry_id for other in same):
            return
        for other in same:
            del self.shown[other]
        self.shown[entry_id] = html

    async def close(self) -> None:
        await self.communicator.send_input({"type": "http.disconnect"})
        await self.communicator.wait(timeout=WAIT_SECONDS)
        if self.reader is not None:
            self.reader.cancel()


@dataclass
class Post:
    author: int
    visibility: str
    repost_of: int | None = None
    deleted: bool = False
    participants: frozenset[int] = frozenset()  # a direct message's: its author and the people it mentions


class LiveEqualsReload(RuleBasedStateMachine):
    """Four people, each with their home open, and the lists of alice and bob open for them."""

    loop: Loop

    def __init__(self) -> None:
        super().__init__()
        for server in redis_client.primaries():
            server.flushall()
        redis_client.get_job_redis().flushall()
        self.uids = [services.create_user(login=login, name=login.title()) for login in PEOPLE]
        self.lists = {owner: services.create_user_list(uid=self.uids[owner], name="close") for owner in LIST_OWNERS}
        self.members: dict[int, set[int]] = {owner: set() for owner in LIST_OWNERS}
        self.follows: set[tuple[int, int]] = set()  # (follower, followee) as person indexes
        self.requests: set[tuple[int, int]] = set()
        self.blocks: set[tuple[int, int]] = set()
        self.mutes: set[tuple[int, int]] = set()
        self.private: set[int] = set()
        self.suspended: set[int] = set()
        self.posts: dict[int, Post] = {}
        self.conversations: set[int] = set()
        self.steps = 0
        # A dense start (everyone follows everyone, both lists have members), so that most posts land on open
        # pages and most relation changes take something away from them.
        for a in range(len(PEOPLE)):
            for b in range(len(PEOPLE)):
                if a != b:
                    services.follow_user(uid=self.uids[a], other_uid=self.uids[b])
                    self.follows.add((a, b))
        for owner, members in INITIAL_MEMBERS.items():
            for member in members:
                services.follow_user_list(uid=self.uids[owner], other_uid=self.uids[member], list_id=self.lists[owner])
                self.members[owner].add(member)
        self.homes = [OpenPage(uid) for uid in self.uids[:BROWSING]]
        self.list_pages = {owner: OpenPage(self.uids[owner], self.lists[owner]) for owner in LIST_OWNERS}
        self.conversation_pages: list[tuple[int, OpenPage]] = []  # (reader, page)
        self.pages = [*self.homes, *self.list_pages.values()]
        for page in self.pages:
            self.loop.run(page.open())

    def teardown(self) -> None:
        for page in self.pages:
            self.loop.run(page.close())

    # --- the model's reading of the rules (the oracle) ---

    def may_see(self, reader: int, entry_id: int) -> bool:
        """Whether person ``reader`` may have entry ``entry_id`` in a home or a list they own: never a direct
        message; never anything by or reposting someone they block, who blocks them, or whom they mute; a
        followers-only post only if they follow its author (or wrote it)."""
        post = self.posts.get(entry_id)
        if post is None:
            return False
        authors = [post.author]
        if post.repost_of is not None:
            authors.append(self.posts[post.repost_of].author)
        if post.visibility == "direct":
            return False
        for author in authors:
            if author in self.suspended and author != reader:
                return False
            if author == reader:
                continue
            if (reader, author) in self.blocks or (author, reader) in self.blocks or (reader, author) in self.mutes:
                return False
        if reader == post.author or post.visibility in ("public", "unlisted"):
            return True
        return (reader, post.author) in self.follows

    def may_read_message(self, reader: int, status_id: int) -> bool:
        """Whether person ``reader``'s conversation page may have been sent message ``status_id``: a direct
        message of theirs, by someone not suspended."""
        post = self.posts.get(status_id)
        if post is None or post.visibility != "direct" or reader not in post.participants:
            return False
        return post.author == reader or post.author not in self.suspended

    def live_posts(self) -> list[int]:
        return [status_id for status_id, post in self.posts.items() if not post.deleted]

    # --- steps ---

    def _stored_visibility(self, status_id: int) -> str:
        return store.statuses.get_status(status_id).get("visibility") or "public"

    def _record(self, author: int, status_id: int) -> None:
        """A new post of the model; a direct message opens its conversation's pages, the first few."""
        stored = store.statuses.get_status(status_id)
        post = Post(author, stored.get("visibility") or "public")
        self.posts[status_id] = post
        if post.visibility != "direct":
            return
        people = {self.uids.index(uid) for uid, _ in mention_pairs(stored.get("mentions")) if uid in self.uids}
        post.participants = frozenset({author, *people})
        conversation = direct_messages.conversation_of(stored)
        if conversation is None or conversation in self.conversations:
            return
        self.conversations.add(conversation)
        for reader in sorted(post.participants):
            if reader < BROWSING and len(self.conversation_pages) < MAX_CONVERSATION_PAGES:
                page = OpenPage(self.uids[reader], conversation=conversation)
                # The page as /messages/<id> renders it, then its stream (which sends only what comes next).
                rendered = selectors.get_conversation(uid=page.uid, conversation_id=conversation).messages
                page.shown = {
                    entry.entry_id: entry_html(entry, viewer_uid=page.uid, path=f"/messages/{conversation}")
                    for entry in rendered
                }
                self.loop.run(page.open())
                self.conversation_pages.append((reader, page))
                self.pages.append(page)

    @rule(author=person, level=st.sampled_from(LEVELS), mention=st.none() | person)
    def post(self, author: int, level: str, mention: int | None) -> None:
        if author in self.suspended:
            return  # a suspended account cannot log in
        message = f"step {self.steps}" + (f" @{PEOPLE[mention]}" if mention is not None else "")
        try:
            status_id = services.post_status(uid=self.uids[author], message=message, visibility=level)
        except exceptions.TimelineError:
            return  # a private account's public post, a direct message to nobody or across a block
        self._record(author, status_id)

    @rule(author=person, to=person)
    def message(self, author: int, to: int) -> None:
        """A direct message from a profile's Message button (its text names nobody)."""
        if author in self.suspended or author == to:
            return
        try:
            status_id, _ = services.send_message(
                uid=self.uids[author], message=f"message {self.steps}", to=(self.uids[to],)
            )
        except exceptions.TimelineError:
            return  # a block, or a private account that does not follow the author
        self._record(author, status_id)

    @rule(author=person, chosen=pick)
    def reply(self, author: int, chosen: int) -> None:
        live_posts = self.live_posts()
        if not live_posts:
            return
        parent = live_posts[chosen % len(live_posts)]
        if author in self.suspended:
            return
        try:
            status_id = services.post_status(uid=self.uids[author], message="a reply", in_reply_to=parent)
        except exceptions.TimelineError:
            return
        self._record(author, status_id)

    @rule(who=person, chosen=pick)
    def repost(self, who: int, chosen: int) -> None:
        originals = [status_id for status_id in self.live_posts() if self.posts[status_id].repost_of is None]
        if not originals:
            return
        original = originals[chosen % len(originals)]
        if who in self.suspended:
            return
        try:
            made = services.repost_status(uid=self.uids[who], status_id=original)
        except exceptions.TimelineError:
            return
        if made:
            repost_id = store.reposts.repost_of_user(self.uids[who], original)
            assert repost_id is not None
            self.posts[repost_id] = Post(who, self._stored_visibility(repost_id), repost_of=original)

    @rule(chosen=pick)
    def delete(self, chosen: int) -> None:
        live_posts = self.live_posts()
        if not live_posts:
            return
        status_id = live_posts[chosen % len(live_posts)]
        if self.posts[status_id].author in self.suspended:
            return
        services.delete_status(uid=self.uids[self.posts[status_id].author], status_id=status_id)
        self.posts[status_id].deleted = True
        for post in self.posts.values():
            if post.repost_of == status_id:
                post.deleted = True  # a deleted post's reposts go with it

    @rule(chosen=pick)
    def edit(self, chosen: int) -> None:
        originals = [status_id for status_id in self.live_posts() if self.posts[status_id].repost_of is None]
        if not originals:
            return
        status_id = originals[chosen % len(originals)]
        if self.posts[status_id].author in self.suspended:
            return
        author = self.uids[self.posts[status_id].author]
        services.edit_status(uid=author, status_id=status_id, message=f"edited at step {self.steps}")

    @rule(a=person, b=person)
    def follow(self, a: int, b: int) -> None:
        try:
            outcome = services.follow_user(uid=self.uids[a], other_uid=self.uids[b])
        except exceptions.TimelineError:
            return  # themselves, or a block between them
        if outcome == services.REQUESTED:
            self.requests.add((a, b))
        else:
            self.follows.add((a, b))

    @rule(owner=person)
    def approve_requests(self, owner: int) -> None:
        for requester, followee in sorted(self.requests):
            if followee == owner:
                services.approve_follow_request(uid=self.uids[owner], requester_uid=self.uids[requester])
                self.requests.discard((requester, followee))
                self.follows.add((requester, followee))

    @rule(a=person, b=person)
    def unfollow(self, a: int, b: int) -> None:
        if a != b:
            services.unfollow_user(uid=self.uids[a], other_uid=self.uids[b])
            self.follows.discard((a, b))

    @rule(a=person, b=person, undo=st.booleans())
    def block(self, a: int, b: int, undo: bool) -> None:
        if a == b:
            return
        if undo:
            services.unblock_user(uid=self.uids[a], other_uid=self.uids[b])
            self.blocks.discard((a, b))
            return
        services.block_user(uid=self.uids[a], other_uid=self.uids[b])
        self.blocks.add((a, b))
        self.follows -= {(a, b), (b, a)}
        self.requests -= {(a, b), (b, a)}

    @rule(a=person, b=person, undo=st.booleans())
    def mute(self, a: int, b: int, undo: bool) -> None:
        if a == b:
            return
        if undo:
            services.unmute_user(uid=self.uids[a], other_uid=self.uids[b])
            self.mutes.discard((a, b))
        else:
            services.mute_user(uid=self.uids[a], other_uid=self.uids[b])
            self.mutes.add((a, b))

    @rule(who=person, private=st.booleans())
    def set_private(self, who: int, private: bool) -> None:
        services.set_private(uid=self.uids[who], private=private)
        if private:
            self.private.add(who)
        else:
            self.private.discard(who)
            for requester, followee in sorted(self.requests):
                if followee == who:  # turning public approves every pending request
                    self.requests.discard((requester, followee))
                    self.follows.add((requester, followee))

    @rule(undo=st.booleans())
    def suspend(self, undo: bool) -> None:
        """The moderators suspend eve (her own pages would close: she has none open), or lift it."""
        if undo:
            moderation.unsuspend_user(uid=self.uids[EVE])
            self.suspended.discard(EVE)
        else:
            moderation.suspend_user(uid=self.uids[EVE])
            self.suspended.add(EVE)

    @rule(owner=st.sampled_from(LIST_OWNERS), member=person, add=st.booleans())
    def change_list(self, owner: int, member: int, add: bool) -> None:
        change = services.follow_user_list if add else services.unfollow_user_list
        change(uid=self.uids[owner], other_uid=self.uids[member], list_id=self.lists[owner])
        (self.members[owner].add if add else self.members[owner].discard)(member)

    def run_jobs(self) -> None:
        """The queued delivery passes, withdrawals and refills, by the site's worker class in this process."""
        jobs = queue.get_queue()
        Worker([jobs], connection=jobs.connection).work(burst=True)

    # --- the rule ---

    @initialize()
    def settle_first(self) -> None:
        self.settle()

    @invariant()
    def every_open_page_equals_its_reload(self) -> None:
        """After the step, and again once the jobs it queued ran (the other passes of its delivery, a refill)."""
        self.settle()
        if queue.get_queue().count:
            self.run_jobs()
            self.settle()

    def reload(self, page: OpenPage) -> dict[int, str]:
        """What a reload of the page shows: each entry's id and its post's text as the page renders it."""
        if page.conversation is not None:
            entries = selectors.get_conversation(uid=page.uid, conversation_id=page.conversation).messages
        elif page.list_id is not None:
            entries = selectors.get_list_status_messages(list_id=page.list_id, count=PAGE, viewer_uid=page.uid)
        else:
            entries = selectors.get_status_messages(uid=page.uid, timeline="home", count=PAGE)
        # The text before any mention (a mention is rendered as a link).
        return {entry.entry_id: escape(entry.status.message.split(" @")[0]) for entry in entries}

    def settle(self) -> None:
        """Wait for the step's events (a marker published after them reached every page), then for every page to
        equal its reload; check that nothing a page was sent was for someone else's eyes."""
        self.steps += 1
        for uid in self.uids:
            publish(timeline_events.notifications_changed(uid=uid, unread=-self.steps))
        deadline = time.monotonic() + SETTLE_SECONDS
        reloads = {id(page): self.reload(page) for page in self.pages}

        def same(page: OpenPage) -> bool:
            reload = reloads[id(page)]
            return set(page.shown) == set(reload) and all(
                text in page.shown[entry_id] for entry_id, text in reload.items()
            )

        def settled() -> bool:
            return all(page.marker >= self.steps and same(page) for page in self.pages)

        while not self.loop.run(_on_loop(settled)):
            if time.monotonic() > deadline:
                for page in self.pages:
                    assert set(page.shown) == set(reloads[id(page)]), (
                        f"the open page of {page.uid} (list {page.list_id}) differs from its reload"
                    )
                stale = [page.uid for page in self.pages if not same(page)]
                assert not stale, f"the open pages of {stale} show an older text than their reload"
                raise AssertionError("the step's marker never reached every page")
            time.sleep(0.01)
        for index, page in enumerate(self.homes):
            for entry_id in page.sent:
                assert self.may_see(index, entry_id), f"{PEOPLE[index]} was sent {entry_id}: {self.posts.get(entry_id)}"
            page.sent.clear()
        for owner, page in self.list_pages.items():
            for entry_id in page.sent:
                assert self.may_see(owner, entry_id), f"{PEOPLE[owner]}'s list got {entry_id}"
            page.sent.clear()
        for reader, page in self.conversation_pages:
            for entry_id in page.sent:
                assert self.may_read_message(reader, entry_id), f"{PEOPLE[reader]}'s conversation got {entry_id}"
            page.sent.clear()


async def _on_loop(check: Any) -> bool:
    """``check()`` on the pages' own loop (their content is only ever touched there)."""
    return bool(check())


@pytest.fixture
def small_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every delivery to two or more is finished by job passes; the first target comes inline.
    monkeypatch.setattr(limits, "POSTS_PER_PASS", 1)
    monkeypatch.setattr(limits, "DELIVERY_JOB_SIZE", 1)


@pytest.mark.parametrize("pull_threshold", [None, 2], ids=["pushed", "pulled past 2 followers"])
def test_an_open_page_shows_exactly_what_a_reload_would_show(small_passes: None, pull_threshold: int | None) -> None:
    """Pushed posts; and with hybrid fan-out past two followers (``services.pulled``), where the dense start makes
    every post pulled (merged into homes when read) until unfollows and blocks bring its author back under."""
    LiveEqualsReload.loop = Loop()
    threshold = override_settings(FANOUT_PULL_THRESHOLD=pull_threshold) if pull_threshold else nullcontext()
    try:
        with threshold:
            run_state_machine_as_test(
                LiveEqualsReload,
                settings=settings(
                    max_examples=4,
                    stateful_step_count=25,
                    deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
                ),
            )
    finally:
        LiveEqualsReload.loop.stop()
