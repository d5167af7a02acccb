"""Every limit of the social graph: timeline sizes, batch sizes, validation bounds and page sizes.

The book's limits first (``HOME_TIMELINE_SIZE``, ``POSTS_PER_PASS``), then the exercises' and the site's own.
Nothing here touches Redis; ``keys`` names the keys and these bound what they hold.
"""

from __future__ import annotations

# Book 8.3 and 8.4: a home (and list) timeline keeps its newest 1,000 entries, trimmed on every insert; a
# fan-out writes 1,000 followers inline and queues jobs of 1,000 for the rest.
HOME_TIMELINE_SIZE = 1000
POSTS_PER_PASS = 1000
# A deferred delivery job (fan-out past the first POSTS_PER_PASS) reaches this many targets: a job costs a
# dequeue, a status check and the next job's enqueue whatever its size, so jobs of 10,000 pay that ten times
# less often than jobs of 1,000. A retried job redoes at most this many idempotent writes.
DELIVERY_JOB_SIZE = 10_000

# A refill step reads the profiles of at most this many followees (or list members), so a user following
# 5,000 people never makes one step read 5,000 profiles (the book's REFILL_USERS_STEP is 50).
REFILL_USERS_STEP = 100
# How long a refill run's number is kept; far longer than any run takes.
REFILL_RUN_TTL_SECONDS = 24 * 3600

# Twitter's limits on lists.
MAX_LISTS_PER_USER = 1000
MAX_LIST_MEMBERS = 5000
MAX_LIST_NAME_LENGTH = 25

# Bookmarks (issue 20): a person keeps at most this many; past it, one must go before another is added.
MAX_BOOKMARKS = 10_000

# Tags, trending and search (issue 10). A tag's public timeline keeps its newest 10,000 posts (Mastodon
# keeps tag feeds in SQL; a capped ZSET is the Redis way), trimmed on every insert. Trending counts the uses
# of the last 24 hourly buckets; each bucket lives 25 hours, so the oldest one is still there when read.
TAG_TIMELINE_SIZE = 10_000
# The public posts kept in the site's local timeline (keys.LOCAL_TIMELINE), like a tag's.
LOCAL_TIMELINE_SIZE = 10_000
TRENDING_HOURS = 24
# Tags one person may follow (issue 20): each adds a cheap check to every post of the tag they follow.
MAX_FOLLOWED_TAGS = 1000
TRENDING_BUCKET_TTL_SECONDS = 25 * 3600
# The word index is split by status id into this many shards, each one hash slot (keys.search). Changing
# it means rebuilding the index.
SEARCH_SHARDS = 16
MAX_QUERY_LENGTH = 200
MAX_BIO_LENGTH = 160

MAX_MESSAGE_LENGTH = 280
# Versions an edited status keeps, the first one included (issue 19; Mastodon keeps every one): the edit that
# would make the 101st is refused.
MAX_STATUS_VERSIONS = 100
MAX_LOGIN_LENGTH = 20
MAX_NAME_LENGTH = 50
LOGIN_PATTERN = r"[A-Za-z0-9_]+"  # whole-string: callers use fullmatch
# Extra status fields a caller may attach (book listing 8.2's **data); anything else is refused.
MAX_EXTRA_FIELDS = 8
MAX_EXTRA_VALUE_LENGTH = 200

# Page sizes offered to readers; a larger request is clamped, not refused.
DEFAULT_PAGE_SIZE = 30
MAX_PAGE_SIZE = 200
# Familiar followers (``selectors.get_familiar_followers``): how many of the viewer's latest followees are
# checked against the other person's followers, in one ZMSCORE.
FAMILIAR_FOLLOWERS_CHECKED = 2_000

# Ids and cursors are below 2**53, so they survive a round trip through JavaScript and JSON unchanged.
MAX_ID = 2**53

# Conversations: a thread keeps the shape of at most this many replies; a post page walks up at most this many
# ancestors and indents replies at most this deep (deeper ones line up with the last level).
MAX_THREAD_SIZE = 10_000
# A conversation has at most this many participants, its author included (issue 19: "up to 20 participants").
MAX_MESSAGE_PARTICIPANTS = 20
MAX_ANCESTORS = 40
MAX_REPLY_DEPTH = 3

# Notifications kept per user (Mastodon keeps months in SQL; a Redis feed keeps the newest), trimmed on insert.
MAX_NOTIFICATIONS = 500

# Idle timelines (issue 23). A person's last visit is written at most this often per process (a page view or
# API call costs no Redis write in between), into one of IDLE_SEEN_SHARDS sorted sets; the periodic sweep
# runs every IDLE_SWEEP_EVERY_SECONDS and drops at most IDLE_SWEEP_BATCH homes per job. How long a person
# must have been away is the setting SOCIALSITE_IDLE_DAYS (default 30).
IDLE_SEEN_WRITE_EVERY_SECONDS = 3600
IDLE_SEEN_SHARDS = 16
IDLE_SWEEP_EVERY_SECONDS = 3600
IDLE_SWEEP_BATCH = 500

# Hybrid fan-out (issue 23): a home read merges the pulled posts (keys.pulled) of at most this many of the
# accounts its reader follows whose posts are not pushed, those that posted most recently; the others'
# posts are left out of that read (services.pulled says why this bound).
MAX_MERGED_PER_READ = 20
