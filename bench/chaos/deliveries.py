"""``python -m bench.chaos.deliveries --author UID --statuses ID... --skip UID...``: how many of the author's
followers (those in ``--skip`` left out: the load's people, who may unfollow) lack each status in their home
timeline, printed as JSON ``{"followers": N, "missing": M}`` (M summed over the statuses).

Run in the site's environment after the chaos: the statuses of the account with bulk followers were delivered
past the first pass by RQ jobs, so a job lost with a killed worker (or a killed Redis) shows here. Reads only,
with pipelined ZSCOREs (one slot per command, so it runs on the cluster too).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

PIPELINE = 5_000


def missing(author: int, status_ids: list[int], skip: set[int]) -> tuple[int, int]:
    from socialsite.redis_client import get_redis
    from timelines import keys

    client = get_redis()
    fans = [int(uid) for uid in client.zrange(keys.followers(author), 0, -1) if int(uid) not in skip]
    pairs = [(fan, status_id) for status_id in status_ids for fan in fans]
    absent = 0
    for start in range(0, len(pairs), PIPELINE):
        with client.pipeline(transaction=False) as pipe:
            for fan, status_id in pairs[start : start + PIPELINE]:
                pipe.zscore(keys.home_timeline(fan), str(status_id))
            absent += sum(1 for score in pipe.execute() if score is None)
    return len(fans), absent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos.deliveries", description=__doc__.splitlines()[0])
    parser.add_argument("--author", type=int, required=True)
    parser.add_argument("--statuses", type=int, nargs="*", default=[])
    parser.add_argument("--skip", type=int, nargs="*", default=[])
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
    import django

    django.setup()
    followers, absent = missing(args.author, args.statuses, set(args.skip))
    print(json.dumps({"followers": followers, "missing": absent}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
