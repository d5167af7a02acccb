"""Browser tests: Debian's Chromium driven by Playwright against the real site served by daphne (ASGI).

The site runs as in production (``DJANGO_DEBUG=0``, static files collected and served by WhiteNoise) in a daphne
subprocess on a free port. It shares the session's Redis (``REDIS_URL``) and the test database file, so what a
test writes through the services is what the browser sees. Playwright's own browser download does not work here:
``bin/test`` installs Debian's ``chromium`` when it is missing, and these tests fail (never skip) without it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from socialsite import testing

CHROMIUM = os.environ.get("SOCIALSITE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1024, "height": 768}
# Every action (click, fill, goto) and every auto-waiting assertion (``expect``) waits up to this long for what it
# needs: the two suites of bin/test share two cores, so a page that takes 300 ms alone can take seconds. Playwright's
# own defaults (30 s for actions, 5 s for assertions) made assertions the first thing to fail on a busy machine.
WAIT_MILLISECONDS = int(testing.WAIT_SECONDS * 1000)
PHONE = {"width": 360, "height": 740}


def screenshot_dir() -> Path:
    """Where the tests leave their screenshots: ``docs/screenshots/`` (committed, shown in the README) when
    ``UPDATE_SCREENSHOTS=1``, otherwise ``test-results/screenshots/`` so a test run does not rewrite the docs."""
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        path = settings.BASE_DIR / "docs" / "screenshots"
    else:
        path = settings.BASE_DIR / "test-results" / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="package")
def site_url(django_db_setup: None) -> Iterator[str]:
    """The base URL of the site served by daphne, with production settings, for the browser tests."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="browser-tests-only-not-a-secret",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=testing.database_url(),
        DJANGO_LOG_LEVEL="WARNING",
    )
    with testing.daphne(env, probe="/accounts/login/", log_path=settings.VAR_DIR / "daphne.log") as (url, _):
        yield url


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    # Package scope, not session: while Playwright's sync API is open, an event loop counts as running in this
    # thread, and tests elsewhere that call asyncio.run() would fail.
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: bin/test installs it (apt-get install chromium).")
    # Playwright's sync API keeps an event loop running in this thread, which makes Django refuse ORM calls
    # from the test itself (sign-ups, the per-test flush). Those calls are synchronous and safe here.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    expect.set_options(timeout=WAIT_MILLISECONDS)
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def open_page(browser: Browser, site_url: str) -> Iterator[Callable[..., Page]]:
    """Open a page in a new browser context (its own cookies: one person), closed after the test. A script error
    on any page (an exception site.js did not catch) fails the test: a broken enhancement is a bug even when the
    page still works without it."""
    contexts: list[BrowserContext] = []
    script_errors: list[str] = []

    def open_(viewport: dict[str, int] = DESKTOP, *, javascript: bool = True) -> Page:
        context = browser.new_context(
            base_url=site_url, viewport=viewport, java_script_enabled=javascript, reduced_motion="reduce"
        )
        context.set_default_timeout(WAIT_MILLISECONDS)
        context.set_default_navigation_timeout(WAIT_MILLISECONDS)
        context.on("weberror", lambda error: script_errors.append(f"{error.page and error.page.url}: {error.error}"))
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()
    assert not script_errors, f"script errors on the pages: {script_errors}"
