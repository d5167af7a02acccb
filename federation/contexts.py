"""The JSON-LD vocabulary socialsite writes and reads, as constants.

Documents are read as plain JSON with the terms Mastodon uses (as Mastodon itself mostly does): nothing is
expanded and no ``@context`` is ever fetched, so these constants are all the context there is.
"""

from __future__ import annotations

ACTIVITYSTREAMS = "https://www.w3.org/ns/activitystreams"
SECURITY = "https://w3id.org/security/v1"
PUBLIC = "https://www.w3.org/ns/activitystreams#Public"
# The forms the public collection takes in documents that were compacted against the context.
PUBLIC_FORMS = frozenset({PUBLIC, "as:Public", "Public"})

# Mastodon's extensions used here (its context, trimmed to them).
EXTENSIONS = {
    "manuallyApprovesFollowers": "as:manuallyApprovesFollowers",
    "sensitive": "as:sensitive",
    "Hashtag": "as:Hashtag",
    "toot": "http://joinmastodon.org/ns#",
    "featured": {"@id": "toot:featured", "@type": "@id"},
    "discoverable": "toot:discoverable",
}
ACTOR_CONTEXT = [ACTIVITYSTREAMS, SECURITY, EXTENSIONS]
OBJECT_CONTEXT = [ACTIVITYSTREAMS, EXTENSIONS]

ACTIVITY_JSON = "application/activity+json"
LD_JSON = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"'
# Media types a request's Accept (or a response's Content-Type) may use for ActivityPub documents.
ACTIVITY_TYPES = ("application/activity+json", "application/ld+json")
