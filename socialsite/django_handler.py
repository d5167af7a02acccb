"""Django's ASGI handler, running each request's middleware and view in one go on a long-lived thread.

Every view of the site and most of its middleware are synchronous. Django's own ``ASGIHandler`` builds its
middleware chain for async, so a request crossed between the event loop and a worker thread at each boundary
between sync and async middleware (four crossings here), and it entered a fresh ``ThreadSensitiveContext`` per
request, so each request also started a thread and joined it. Profiled with py-spy under wrk at 50 connections,
that plumbing took most of the CPU of a trivial view. This handler:

- builds the middleware chain for sync, as under WSGI, and runs the whole chain, view included, in one call on a
  worker thread (``get_response_async``);
- keeps ``settings.WEB_REQUEST_THREADS`` single-thread executors and lends one to each request through asgiref's
  ``ThreadSensitiveContext(executor=...)``: a request's sync code still runs on one thread of its own, as Django
  expects (a database connection belongs to a thread), but the threads live as long as the process, and so can
  their database connections (``DATABASE_CONN_MAX_AGE``).

A request waits, without blocking the event loop, for a thread when all are lent. The GIL lets one thread run
Python at a time anyway; the others only help while a request waits on SQL or Redis. The streams and the live
home never come here: they are Channels applications running on the event loop (``socialsite.asgi``).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase


class PooledThreadsASGIHandler(ASGIHandler):
    """``ASGIHandler`` lending each request one of a fixed set of threads instead of starting one."""

    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        count = max(1, settings.WEB_REQUEST_THREADS)
        self._idle: asyncio.Queue[ThreadPoolExecutor] = asyncio.Queue()
        for index in range(count):
            self._idle.put_nowait(ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"request-{index}"))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = await self._idle.get()
        try:
            # Every task the handler starts ends before handle() returns, as the lent context requires.
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self._idle.put_nowait(executor)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # The sync chain, as WSGI runs it, in one hop to the request's thread.
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def get_asgi_application() -> PooledThreadsASGIHandler:
    """``django.core.asgi.get_asgi_application`` with the pooled-threads handler."""
    import django

    django.setup(set_prefix=False)
    return PooledThreadsASGIHandler()
