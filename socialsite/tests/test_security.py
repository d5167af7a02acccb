"""Hardened deployment: the security headers and the content security policy on every response (pages through
Django, streams and JSON errors through daphne), templates that need no inline script or style, password
validators, and ``check --deploy`` clean under the README's production environment."""

from __future__ import annotations

import asyncio
import http.client
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from accounts.services import sign_up
from socialsite import testing
from socialsite.security import SecurityHeadersMiddleware, security_headers

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
# What the README's "Security settings" documents for production behind a TLS proxy.
PRODUCTION_ENV = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "a-production-key-of-more-than-fifty-characters-with-variety-0123456789",
    "DJANGO_ALLOWED_HOSTS": "social.example.com",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://social.example.com",
    "DJANGO_SECURE_SSL_REDIRECT": "1",
    "DJANGO_SESSION_COOKIE_SECURE": "1",
    "DJANGO_CSRF_COOKIE_SECURE": "1",
    "DJANGO_HSTS_SECONDS": "31536000",
    "DJANGO_HSTS_INCLUDE_SUBDOMAINS": "1",
    "DJANGO_HSTS_PRELOAD": "1",
    "DJANGO_SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto: https",
    "DJANGO_TRUSTED_PROXIES": "10.0.0.0/8",
}
TEMPLATES = Path(settings.BASE_DIR) / "templates"
SITE_JS = Path(settings.BASE_DIR) / "static" / "js" / "site.js"


def assert_security_headers(response) -> None:
    assert response["Content-Security-Policy"] == CSP
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


def test_every_kind_of_page_carries_the_security_headers():
    user = sign_up(login="ada", name="Ada", password=PASSWORD)
    member = Client()
    member.force_login(user)
    pages = {
        "/": 200,
        "/accounts/login/": 200,
        "/accounts/signup/": 200,
        "/@ada": 200,
        "/search?q=hello": 200,
        "/nobody/here": 404,
        "/@ada?max_id=x": 400,
    }
    for path, status in pages.items():
        response = Client().get(path)
        assert response.status_code == status, path
        assert_security_headers(response)
    for path in ("/", "/settings/profile", "/accounts/password/"):
        response = member.get(path)
        assert response.status_code == 200, path
        assert_security_headers(response)
    assert_security_headers(member.post("/compose", {"message": "hello"}, HTTP_HX_REQUEST="true"))


def test_the_templates_and_site_js_need_no_inline_script_style_or_eval():
    """What ``script-src 'self'; style-src 'self'`` would block: inline <script> and <style>, style and on*
    attributes, htmx's hx-on and js: values, javascript: URLs."""
    forbidden = {
        "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
        "style element": re.compile(r"<style\b", re.I),
        "style attribute": re.compile(r"\sstyle\s*=", re.I),
        "event handler attribute": re.compile(r"\son[a-z]+\s*=", re.I),
        "hx-on": re.compile(r"\bhx-on\b", re.I),
        "js: or javascript: value": re.compile(r"(?:\"|')\s*(?:js|javascript):", re.I),
    }
    found = []
    for path in [*TEMPLATES.rglob("*.html"), SITE_JS]:
        text = path.read_text()
        for what, pattern in forbidden.items():
            if path == SITE_JS and what in {"inline script", "event handler attribute"}:
                continue  # JavaScript, not markup
            found.extend(f"{path.relative_to(settings.BASE_DIR)}: {what}" for _ in pattern.finditer(text))
    assert not found
    js = SITE_JS.read_text()
    assert "eval(" not in js and "new Function" not in js
    base = (TEMPLATES / "base.html").read_text()
    assert '"allowEval":false' in base and '"includeIndicatorStyles":false' in base


def test_weak_passwords_are_refused_at_sign_up_and_password_change():
    response = Client().post("/accounts/signup/", {"username": "weak", "name": "Weak", "password1": "password"})
    assert response.status_code == 400 and "This password is too common." in response.content.decode()
    user = sign_up(login="strong", name="Strong", password=PASSWORD)
    client = Client()
    client.force_login(user)
    response = client.post(
        "/accounts/password/", {"old_password": PASSWORD, "new_password1": "12345678", "new_password2": "12345678"}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "This password is too common." in html and "This password is entirely numeric." in html


def test_check_deploy_is_clean_with_the_documented_production_environment(tmp_path):
    env = {**os.environ, **PRODUCTION_ENV, "SOCIALSITE_VAR_DIR": str(tmp_path)}
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    command = [sys.executable, manage, "check", "--deploy", "--fail-level", "WARNING"]
    result = subprocess.run(command, env=env, cwd=settings.BASE_DIR, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    # Without it (a laptop over plain http) the same check names what production must turn on.
    local = {key: value for key, value in env.items() if key not in PRODUCTION_ENV or key == "DJANGO_SECRET_KEY"}
    result = subprocess.run(command, env=local, cwd=settings.BASE_DIR, capture_output=True, text=True)
    assert result.returncode != 0
    for warning in ("W004", "W008", "W012", "W016"):
        assert f"security.{warning}" in result.stderr + result.stdout


def test_plain_asgi_responses_get_the_security_headers_they_lack():
    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [(b"X-Frame-Options", b"SAMEORIGIN")]})
        await send({"type": "http.response.body", "body": b"{}"})

    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    asyncio.run(SecurityHeadersMiddleware(app)({"type": "http", "path": "/statuses/x"}, receive, send))
    headers = sent[0]["headers"]
    names = [name.lower() for name, _ in headers]
    assert names.count(b"x-frame-options") == 1  # an app's own value is kept
    assert dict(headers)[b"content-security-policy"] == CSP.encode()
    assert {name for name, _ in security_headers()} <= set(names)


def test_with_debug_on_error_pages_go_without_the_policy_so_djangos_debug_pages_work(settings):
    settings.DEBUG = True
    debug_404 = Client().get("/nobody/here")
    assert debug_404.status_code == 404 and "Content-Security-Policy" not in debug_404
    assert debug_404["X-Frame-Options"] == "DENY"
    assert Client().get("/accounts/login/")["Content-Security-Policy"] == CSP

    async def failing_app(scope, receive, send):
        await send({"type": "http.response.start", "status": 500, "headers": []})

    sent = []

    async def send(message):
        sent.append(message)

    asyncio.run(SecurityHeadersMiddleware(failing_app)({"type": "http"}, None, send))
    names = {name for name, _ in sent[0]["headers"]}
    assert b"content-security-policy" not in names and b"x-content-type-options" in names


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_streams_and_json_errors_served_by_daphne_carry_the_security_headers():
    env = {**os.environ, "DJANGO_DEBUG": "0", "STREAMING_HUB_ENDPOINT": "1", "DJANGO_LOG_LEVEL": "WARNING"}
    env["DATABASE_URL"] = testing.database_url()
    with testing.daphne(env, probe="/statuses/hub.json") as (url, _):
        port = int(url.rsplit(":", 1)[1])
        answers = {
            "/statuses/sample.json?identifier=t&percent=100": 200,  # a stream: only its headers are read
            "/statuses/sample.json": 401,
            "/statuses/nothing.json": 404,
            "/statuses/hub.json": 200,
            "/live/home": 403,  # server-sent events, refused to an anonymous visitor
        }
        for path, status in answers.items():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                assert response.status == status, path
                assert response.getheader("Content-Security-Policy") == CSP, path
                assert response.getheader("X-Content-Type-Options") == "nosniff", path
                assert response.getheader("Referrer-Policy") == "same-origin", path
                assert response.getheader("X-Frame-Options") == "DENY", path
            finally:
                connection.close()
