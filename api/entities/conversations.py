"""Mastodon's Conversation entity from the site's conversation summaries (``selectors.ConversationSummary``): its
id, whether it is unread, the other people in it as Accounts and its last message the caller may see as a
Status (None when none is left). The people of a page are read in one round trip."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest

from api.entities.accounts import account
from api.entities.statuses import statuses
from timelines import selectors
from timelines.selectors import ConversationSummary


def conversations(request: HttpRequest, summaries: Sequence[ConversationSummary]) -> list[dict[str, Any]]:
    wanted = list(dict.fromkeys(person.id for summary in summaries for person in summary.others))
    people = {user.id: user for user in selectors.get_users(uids=wanted)} if wanted else {}
    lasts = statuses(request, [summary.last for summary in summaries if summary.last is not None])
    shaped = {status["id"]: status for status in lasts}
    return [
        {
            "id": str(summary.id),
            "unread": summary.unread,
            "accounts": [account(request, people[person.id]) for person in summary.others if person.id in people],
            "last_status": shaped.get(str(summary.last.status.id)) if summary.last is not None else None,
        }
        for summary in summaries
    ]


def conversation(request: HttpRequest, summary: ConversationSummary) -> dict[str, Any]:
    return conversations(request, [summary])[0]
