"""A policy for the tests of the per-recipient seam (``timelines.policy``): it refuses what the environment
variable ``SOCIALSITE_TEST_REFUSE`` names, so the same rule holds in the test process and in the workers and
servers it starts (they inherit the environment).

``SOCIALSITE_TEST_REFUSE`` is a comma-separated list of ``recipient:author`` pairs: ``recipient`` is a uid or
``public`` (the streaming API and anonymous readers), ``author`` a uid or ``*``. ``7:*`` refuses user 7
everything; ``public:5`` keeps user 5's posts from the public.
"""

from __future__ import annotations

import os
from typing import Any

from timelines.policy import Item, Policy

ENV = "SOCIALSITE_TEST_REFUSE"
PATH = "timelines.tests.policies.RefusingPolicy"


def refusal(recipient: int | None, author: int | str = "*") -> str:
    """One ``recipient:author`` pair of ``SOCIALSITE_TEST_REFUSE``."""
    return f"{'public' if recipient is None else recipient}:{author}"


class RefusingPolicy(Policy):
    def load(
        self, *, recipients: Any, authors: Any, items: Any = (), followers_of: Any = None
    ) -> frozenset[tuple[str, str]]:
        pairs = (entry.split(":", 1) for entry in os.environ.get(ENV, "").split(",") if ":" in entry)
        return frozenset((recipient, author) for recipient, author in pairs)

    def allows_all(self, state: Any) -> bool:
        return not state

    def allows(self, state: Any, *, recipient: int | None, item: Item) -> bool:
        who = "public" if recipient is None else str(recipient)
        return (who, "*") not in state and (who, str(item.author_uid)) not in state
