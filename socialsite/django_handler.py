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
  their database connections (``DATABASE_CONN_MAX_AGE``);
- runs the client API's paths (``settings.API_PATH_PREFIX``) through a shorter chain, ``settings.API_MIDDLEWARE``:
  a bearer token is the API's only authentication (``api.http``), so the session, CSRF, auth, messages and visit
  middleware would only cost time there (issue 20: an eighth of a home timeline call's time).

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
from django.core.exceptions import MiddlewareNotUsed
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponseBase
from django.utils.module_loading import import_string


class ApiChainHandler(BaseHandler):
    """A handler whose middleware chain is ``settings.API_MIDDLEWARE``, built for sync as ``load_middleware``
    builds ``settings.MIDDLEWARE``'s (every middleware listed there is sync-capable)."""

    def load_middleware(self, is_async: bool = False) -> None:
        if is_async:
            raise ValueError("The API chain is built for sync only.")
        self._view_middleware = []
        self._template_response_middleware = []
        self._exception_middleware = []
        handler = convert_exception_to_response(self._get_response)
        for path in reversed(settings.API_MIDDLEWARE):
            try:
                instance = import_string(path)(handler)
            except MiddlewareNotUsed:
                continue
            if hasattr(instance, "process_view"):
                self._view_middleware.insert(0, instance.process_view)
            if hasattr(instance, "process_template_response"):
                self._template_response_middleware.append(instance.process_template_response)
            if hasattr(instance, "process_exception"):
                self._exception_middleware.append(instance.process_exception)
            handler = convert_exception_to_response(instance)
        self._middleware_chain = handler


class PooledThreadsASGIHandler(ASGIHandler):
    """``ASGIHandler`` lending each request one of a fixed set of threads instead of starting one."""

    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self._api = ApiChainHandler()
        self._api.load_middleware()
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
        handler = self._api if request.path_info.startswith(settings.API_PATH_PREFIX) else self
        return await sync_to_async(handler.get_response, thread_sensitive=True)(request)


def get_asgi_application() -> PooledThreadsASGIHandler:
    """``django.core.asgi.get_asgi_application`` with the pooled-threads handler."""
    import django

    django.setup(set_prefix=False)
    return PooledThreadsASGIHandler()
