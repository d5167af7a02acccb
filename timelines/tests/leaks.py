"""The world of the leak tests (issue 11): alice is private, bob her approved follower, carol a stranger, dave
blocked alice, erin a public bystander. ``alice_speaks`` gives alice every kind of item a private account can
make; the tests then look for those items on every surface.

Every marker word is unique to the item kind, so a page or a stream that shows any of them has leaked it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.test import Client

from accounts.services import sign_up
from timelines import exceptions, selectors, services

PASSWORD = "a long enough password 42"
SECRET = "zebrasecret"  # in every message alice writes while private
PUBLIC = "zebrapublic"  # in erin's public control post, which matches the same tag, words and place
TAG = "leaktag"
# Paris, inside the box the filter stream asks for (lon_min,lat_min,lon_max,lat_max).
LOCATION = "48.85,2.35"
BOX = "2,48,3,49"
REPOSTERS = ("bob", "carol", "dave", "erin")


@dataclass
class People:
    uids: dict[str, int]
    clients: dict[str, Client]

    def __getattr__(self, login: str) -> int:
        try:
            return self.uids[login]
        except KeyError:
            raise AttributeError(login) from None


@dataclass
class Items:
    """What alice made while private, and the public posts around it."""

    post: int  # tags, mentions of carol and dave, a location
    own_reply: int  # a reply in her own thread
    reply_to_bob: int
    reply_to_carol: int  # a reply under a stranger's public post, mentioning her
    repost: int  # her repost of erin's public post (the repost's own id)
    bob_post: int
    carol_post: int
    erin_post: int  # reposted by alice
    refused: dict[str, str] = field(default_factory=dict)  # who tried to repost alice's post: what stopped them

    @property
    def private_ids(self) -> list[int]:
        return [self.post, self.own_reply, self.reply_to_bob, self.reply_to_carol, self.repost]

    @property
    def written(self) -> list[int]:
        """The private items with a message of their own (all but the repost)."""
        return [self.post, self.own_reply, self.reply_to_bob, self.reply_to_carol]


def make_people() -> People:
    """alice (private, approved follower bob), carol (a stranger who follows bob and erin), dave (who blocked
    alice, and follows bob and erin) and erin (public), each signed up with a logged-in test client."""
    uids: dict[str, int] = {}
    clients: dict[str, Client] = {}
    for login in ("alice", "bob", "carol", "dave", "erin"):
        uids[login] = int(sign_up(login=login, name=login.title(), password=PASSWORD).uid)
        clients[login] = Client()
        assert clients[login].login(username=login, password=PASSWORD)
    people = People(uids, clients)
    services.set_private(uid=people.alice, private=True)
    assert services.follow_user(uid=people.bob, other_uid=people.alice) == services.REQUESTED
    assert services.approve_follow_request(uid=people.alice, requester_uid=people.bob)
    for reader in (people.carol, people.dave):
        services.follow_user(uid=reader, other_uid=people.bob)
        services.follow_user(uid=reader, other_uid=people.erin)
    services.block_user(uid=people.dave, other_uid=people.alice)
    return people


def public_posts(people: People) -> tuple[int, int, int]:
    """The public posts alice answers and reposts: bob's, carol's and erin's."""
    return (
        services.post_status(uid=people.bob, message="bob says hello"),
        services.post_status(uid=people.carol, message="carol says hi"),
        services.post_status(uid=people.erin, message="erin has news"),
    )


def alice_speaks(people: People, bob_post: int, carol_post: int, erin_post: int) -> Items:
    """alice posts, replies (to herself, to bob, to carol), tags, mentions carol and dave, reposts erin; then
    everyone else tries to repost her post."""
    alice = people.alice
    post = services.post_status(uid=alice, message=f"{SECRET} plans #{TAG} with @carol and @dave", location=LOCATION)
    own_reply = services.post_status(uid=alice, message=f"{SECRET} more #{TAG}", in_reply_to=post, location=LOCATION)
    reply_to_bob = services.post_status(uid=alice, message=f"@bob {SECRET} answer", in_reply_to=bob_post)
    reply_to_carol = services.post_status(
        uid=alice, message=f"@carol {SECRET} answer #{TAG}", in_reply_to=carol_post, location=LOCATION
    )
    assert services.repost_status(uid=alice, status_id=erin_post)
    repost = next(
        entry.entry_id
        for entry in selectors.get_status_messages(uid=alice, timeline="profile", viewer_uid=alice)
        if entry.reposted_by is not None and entry.status.id == erin_post
    )
    refused = {}
    for login in REPOSTERS:
        try:
            services.repost_status(uid=people.uids[login], status_id=post)
        except exceptions.TimelineError as error:
            refused[login] = type(error).__name__
    return Items(post, own_reply, reply_to_bob, reply_to_carol, repost, bob_post, carol_post, erin_post, refused)


def article_ids(html: str) -> list[int]:
    """The entry ids of the posts a page shows (a repost's entry id is the repost's own id)."""
    return [int(found) for found in re.findall(r'<article[^>]* id="status-(\d+)"', html)]


def shows_alice(html: str | bytes, people: People, items: Items) -> list[str]:
    """What of alice's private items ``html`` (a page, or a stream's bytes) shows; empty when nothing."""
    text = html.decode() if isinstance(html, bytes) else html
    found = []
    if SECRET in text:
        found.append(f"the word {SECRET}")
    if f'data-author="{people.alice}"' in text:
        found.append("a post by alice")
    if f'data-reposter="{people.alice}"' in text:
        found.append("a repost by alice")
    found.extend(f"entry {entry}" for entry in article_ids(text) if entry in items.private_ids)
    return found


# Issue 19: erin (a public account, followed by carol and dave, not by bob) posts once in each narrower
# visibility, each mentioning bob, with the leak tag, a location and the shared word VIS_WORD; each marker word
# is unique to its post.
VIS_WORD = "quagga"
VISIBILITY_MARKS = {"unlisted": "zebraunlisted", "private": "zebrafollowers", "direct": "zebradirect"}


def erin_speaks_in_every_visibility(people: People) -> dict[str, int]:
    """erin's unlisted, followers-only and direct posts, by level."""
    return {
        level: services.post_status(
            uid=people.erin,
            message=f"{mark} {VIS_WORD} #{TAG} @bob",
            visibility=level,
            location=LOCATION,
        )
        for level, mark in VISIBILITY_MARKS.items()
    }


def shows_levels(html: str | bytes) -> set[str]:
    """The levels of erin's posts whose marker ``html`` (a page, or a stream's bytes) shows."""
    text = html.decode() if isinstance(html, bytes) else html
    return {level for level, mark in VISIBILITY_MARKS.items() if mark in text}
