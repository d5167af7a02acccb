"""Keys of statuses (book listing 8.2)::

    status:id:       HASH  last -> last status id, clock -> last posted time in microseconds; both advance
                     in one script so status ids and posted times are ordered alike
    status:{9001}    HASH  message, posted, id, uid, login, name, plus extra data such as location "lat,lon",
                     stored compactly (store/status_hash.py: no id, posted in integer microseconds, one-letter
                     names for message M, posted P, login L, name N, location G); readers get the long form
                     > HGETALL status:{9001}
                     G "51.5,-0.12"  M "hello"  P 1763800000500000  uid 42  L alice  N "Alice Liddell"
                     written before that layout: message "hello"  posted 1763800000.5  id 9001  uid 42 ...

Because status ids and ``posted`` grow together, every timeline ZSET is ordered by id as well as by time,
which is what makes ``max_id``/``since_id`` cursors exact (see store/scripts/timeline_page.lua).
"""

from __future__ import annotations

STATUS_ID_COUNTER = "status:id:"


def status(status_id: int | str) -> str:
    return f"status:{{{status_id}}}"
