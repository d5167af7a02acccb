"""No orphans: a child process of the site dies with the process that started it, even one killed by SIGKILL.

A parent killed with SIGKILL runs no clean-up, so it cannot stop its children; left alone they keep running
without a parent (RQ's scheduler kept enqueueing until Redis stopped; a daphne process would keep the port).
Linux's ``prctl(PR_SET_PDEATHSIG)``, set in the child, has the kernel send it a signal when its parent dies,
whatever killed the parent. It was chosen over the child polling its parent's pid: no thread, no delay, and it
also covers a child that is busy or blocked. The signal is SIGTERM, so the child stops as on ``kill``: RQ's
scheduler releases its lock (a new worker's scheduler takes over at once), daphne closes its connections.

The setting is per child and must be made in the child, after the fork; a parent that died before that is
caught by comparing ``os.getppid()`` with the parent's pid. Elsewhere than Linux this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int, signum: int = signal.SIGTERM) -> None:
    """In a freshly forked child of ``parent``: have Linux send ``signum`` when the parent dies; exit at once if
    it already has. Nothing elsewhere than Linux."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signum)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def preexec_die_with_parent() -> Callable[[], None] | None:
    """A ``subprocess.Popen`` ``preexec_fn`` making the child die with this process; None elsewhere than Linux
    (no ``preexec_fn`` is needed). Only for a parent that runs no other thread while it starts children."""
    if not sys.platform.startswith("linux"):
        return None
    parent = os.getpid()
    return lambda: die_with_parent(parent)
