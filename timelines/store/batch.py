"""One pipelined round trip for the writes of several store modules that belong to one change, e.g. what a
new post leaves besides itself: its search words, the dashboard's counters and its event.

Store functions that can join a batch take ``pipe=``: given one, they queue their commands on it and return
nothing; the caller runs the batch with ``execute``. Plain commands, so a batch works on a single server and on
a cluster alike (a cluster pipeline writes once to each node it needs), and single-slot scripts through
``Batch.script``: queued on one server, run at once on a cluster, whose pipelines refuse EVALSHA. A cluster
pipeline refuses PUBLISH too, so there a batch's messages are published right after it ran, in order. See
``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from redis.exceptions import NoScriptError, RedisError

from socialsite.redis_client import get_redis, is_cluster
from timelines.store.lua import Call, queue
from timelines.store.lua import script as _script


class Batch:
    """A non-transactional pipeline (its commands are queued through it) that also takes messages."""

    def __init__(self, pipe: Any) -> None:
        self._pipe = pipe
        self._messages: list[tuple[str, str]] = []
        # The scripts queued, by their position among the batch's commands (re-run alone on NOSCRIPT).
        self._scripts: dict[int, Call] = {}
        # Every command's reply, in order, once ``execute`` ran it (a script's reply, for its caller).
        self.replies: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pipe, name)

    def publish(self, channel: str, message: str) -> None:
        if is_cluster():
            self._messages.append((channel, message))
        else:
            self._pipe.publish(channel, message)

    def script(self, name: str, keys: list[str], args: list[object]) -> int | None:
        """Queue ``scripts/<name>.lua`` (one slot); on a cluster it runs now, its errors raised to the caller.
        Returns its position among the batch's commands (its reply is ``replies[position]`` once the batch ran),
        None on a cluster."""
        if is_cluster():
            _script(name)(keys=keys, args=args)
            return None
        position = len(self._pipe)
        self._scripts[position] = (name, keys, args)
        queue(self._pipe, get_redis(), name, keys, args)
        return position


@contextmanager
def pipeline() -> Iterator[Batch]:
    with get_redis().pipeline(transaction=False) as pipe:
        yield Batch(pipe)


def execute(batch: Batch) -> list[Exception]:
    """Run the batch; the errors some of its commands answered (the others took effect). A server that cannot
    be reached raises as any command does."""
    replies = batch._pipe.execute(raise_on_error=False)
    for index, (name, keys, args) in batch._scripts.items():
        if isinstance(replies[index], NoScriptError):
            # A server restarted since the script was loaded: load it and run it again, alone.
            try:
                replies[index] = _script(name)(keys=list(keys), args=list(args))
            except RedisError as error:
                replies[index] = error
    for channel, message in batch._messages:
        get_redis().publish(channel, message)
    batch.replies = replies
    return [reply for reply in replies if isinstance(reply, Exception)]
