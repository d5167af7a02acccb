"""``python -m bench.delivery_events``: what a delivery pass's events cost, one per pass or one per recipient.

The choice behind ``timeline.delivery`` (``timelines.services.delivery``): a pass of ``POSTS_PER_PASS`` (1,000)
homes either publishes one event naming the 1,000 owners, or 1,000 events naming one each. Measured on an
embedded Redis in a temporary directory, with a hub in this process holding one live home subscription for each
recipient (as a server process with 1,000 open homes would): the bytes published, the time to publish them
(pipelined), and the time the hub takes to decode and dispatch them (the sinks are not attached, so the
subscriptions' queues take the events: the encoding for the browser is the same either way).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

RECIPIENTS = 1000
ROUNDS = 5


def main() -> int:
    var_dir = Path(tempfile.mkdtemp(prefix="socialsite-bench-delivery-"))
    os.environ["SOCIALSITE_VAR_DIR"] = str(var_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from socialsite import embedded_redis

    embedded = var_dir / "redis"
    os.environ["REDIS_URL"] = embedded_redis.ensure_running(embedded)
    try:
        import django

        django.setup()
        for line in measure():
            print(line)
    finally:
        embedded_redis.stop(embedded)
        shutil.rmtree(var_dir, ignore_errors=True)
    return 0


def measure() -> list[str]:
    from socialsite.redis_client import get_redis
    from streaming.hub import Hub
    from timelines import events, keys
    from timelines.keys.channels import hub_home

    status = {
        "message": "m" * 140,
        "posted": time.time(),
        "id": 9001,
        "uid": 1,
        "login": "alice",
        "name": "Alice Liddell",
    }
    recipients = list(range(2, RECIPIENTS + 2))
    per_pass = [events.delivered(events.POST, homes=recipients, status=status)]
    per_recipient = [events.delivered(events.POST, homes=[uid], status=status) for uid in recipients]
    client = get_redis()

    def publish_all(messages: list[str]) -> float:
        started = time.perf_counter()
        with client.pipeline(transaction=False) as pipe:
            for message in messages:
                pipe.publish(keys.STREAM_CHANNEL, message)
            pipe.execute()
        return time.perf_counter() - started

    async def dispatch_all(messages: list[str]) -> float:
        hub = Hub()
        subscriptions = [
            hub.subscribe(index_keys={hub_home(uid)}, matches=lambda e: True, maxsize=10_000, public=False)
            for uid in recipients
        ]
        hub._task.cancel()  # dispatched by hand here, not read from Redis
        started = time.perf_counter()
        for message in messages:
            hub.dispatch(message)
        elapsed = time.perf_counter() - started
        assert all(subscription.queue.qsize() == 1 for subscription in subscriptions)
        for subscription in subscriptions:
            subscription.close()
        return elapsed

    lines = [f"A delivery pass to {RECIPIENTS} homes, best of {ROUNDS}:"]
    for name, messages in (("one event per pass", per_pass), ("one event per recipient", per_recipient)):
        size = sum(len(message.encode()) for message in messages)
        published = min(publish_all(messages) for _ in range(ROUNDS))
        dispatched = min(asyncio.run(dispatch_all(messages)) for _ in range(ROUNDS))
        lines.append(
            f"  {name:24} {len(messages):5} event(s) {size / 1024:8.1f} KiB  publish {published * 1000:7.2f} ms"
            f"  hub decode+dispatch {dispatched * 1000:7.2f} ms"
        )
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
