"""Federation's own paths. The actor and Note documents are served on the canonical URIs (``/@login``,
``/@login/<id>``) by ``federation.middleware``; inboxes and collections live here, as Mastodon's do."""

from __future__ import annotations

from django.urls import path, re_path

from federation.views import inbox, objects
from timelines import limits

app_name = "federation"

LOGIN = rf"(?P<login>[A-Za-z0-9_]{{1,{limits.MAX_LOGIN_LENGTH}}})"

urlpatterns = [
    path("inbox", inbox.shared_inbox, name="shared_inbox"),
    path("actor", objects.instance_actor, name="instance_actor"),
    re_path(rf"^users/{LOGIN}/inbox$", inbox.inbox, name="inbox"),
    re_path(rf"^users/{LOGIN}/outbox$", objects.outbox, name="outbox"),
    re_path(rf"^users/{LOGIN}/followers$", objects.followers, name="followers"),
    re_path(rf"^users/{LOGIN}/following$", objects.following, name="following"),
    re_path(rf"^users/{LOGIN}/collections/featured$", objects.featured, name="featured"),
    re_path(rf"^users/{LOGIN}/statuses/(?P<status_id>[0-9]{{1,16}})/replies$", objects.replies, name="replies"),
]
