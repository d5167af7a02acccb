"""The status a user acts on (likes it, reposts it, replies to it): it must exist and the actor must be allowed
to see it, by the same per-recipient policy (``timelines.policy``, context ``PAGE``) that shows it on a post's
own page.

A post the actor may not see (a private account's post to a stranger, a post of someone who blocks the actor
or whom the actor blocks, a suspended author's post) is ``StatusNotFound``, exactly like a post that does not
exist, so an answer never tells whether a hidden post is there.
"""

from __future__ import annotations

from timelines import exceptions, policy, store


def status_to_act_on(*, uid: int, status_id: object) -> dict[str, str]:
    """The stored hash of the status ``uid`` acts on: ``status_id`` itself, or the original when it is a
    repost. Raises ``StatusNotFound`` when it is missing or deleted, or when ``uid`` may not see it (nor, for a
    repost, the repost itself). Two round trips: the hash (and the original's), then the policy's state."""
    fields = store.statuses.get_status(status_id) if isinstance(status_id, int) and status_id > 0 else {}
    shown = [fields] if fields else []
    if fields.get("repost_of"):
        fields = store.statuses.get_status(int(fields["repost_of"]))
        shown.append(fields)
    if not fields:
        raise exceptions.StatusNotFound()
    if len(policy.visible_to(viewer=uid, statuses=shown, context=policy.PAGE)) != len(shown):
        raise exceptions.StatusNotFound()
    return fields
