"""OAuth 2 endpoints: registering apps, the authorize page (the site's log-in, then **Authorize** or **Deny**),
the token and revoke endpoints, and the server's metadata (RFC 8414). The rules are in ``api.oauth``."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from api import oauth
from api import scopes as scope_rules
from api.http import endpoint, param, text_param

SCOPE_DESCRIPTIONS = {
    "read": "read all your account's data",
    "write": "change all your account's data: post, like, repost, follow",
    "follow": "follow, block and mute people",
    "push": "receive push notifications",
    "profile": "read only your basic profile",
}


def _oauth_error(error: oauth.OAuthError) -> JsonResponse:
    response = JsonResponse({"error": error.error, "error_description": error.description}, status=error.status)
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _application(application: Any, secret: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(application.pk),
        "name": application.name,
        "website": application.website or None,
        "scopes": list(application.scope_list),
        "redirect_uri": "\n".join(application.redirect_uri_list),
        "redirect_uris": application.redirect_uri_list,
        "vapid_key": "",
    }
    if secret is not None:
        body |= {"client_id": application.client_id, "client_secret": secret, "client_secret_expires_at": 0}
    return body


@endpoint("POST", auth="none")
def apps(request: HttpRequest) -> Any:
    try:
        application, secret = oauth.register_application(
            name=param(request, "client_name"),
            redirect_uris=param(request, "redirect_uris"),
            scopes=param(request, "scopes"),
            website=param(request, "website"),
        )
    except oauth.OAuthError as error:
        return JsonResponse({"error": error.description}, status=error.status)
    return _application(application, secret)


@endpoint("GET", auth="app")
def verify_app(request: HttpRequest) -> Any:
    return _application(request.api_token.application)  # type: ignore[attr-defined]


def _form_action(redirect_uri: str) -> str:
    """A CSP source that lets the consent form's redirect reach ``redirect_uri`` (browsers apply
    ``form-action`` to the redirect that follows a form), or "" when none is needed or safe to write."""
    parts = urlsplit(redirect_uri)
    scheme = parts.scheme.lower()
    if redirect_uri == oauth.OOB or not scheme.replace("+", "").replace("-", "").replace(".", "").isalnum():
        return ""
    if scheme in ("http", "https"):
        netloc = parts.netloc
        safe = netloc and all(ch.isalnum() or ch in ".-:[]" for ch in netloc)
        return f"{scheme}://{netloc}" if safe else ""
    return f"{scheme}:"


def _redirect(uri: str, query: dict[str, str]) -> HttpResponse:
    # Not HttpResponseRedirect: it refuses app schemes (icecubesapp://), which the app registered.
    response = HttpResponse(status=302)
    separator = "&" if urlsplit(uri).query else "?"
    response["Location"] = f"{uri}{separator}{urlencode(query)}"
    return response


def _consent_page(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    response = render(request, "api/authorize.html", context, status=status)
    source = _form_action(context.get("redirect_uri", ""))
    if source:
        response["Content-Security-Policy"] = settings.CONTENT_SECURITY_POLICY.replace(
            "form-action 'self'", f"form-action 'self' {source}"
        )
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def authorize(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    try:
        application, redirect_uri, requested = oauth.check_authorization_request(
            client_id=data.get("client_id"),
            redirect_uri=data.get("redirect_uri"),
            response_type=data.get("response_type"),
            scope=data.get("scope"),
        )
    except oauth.OAuthError as error:
        # Never redirect to an address the app did not register: the error shows here.
        return render(
            request, "error.html", {"title": "This app cannot log in", "message": error.description}, status=400
        )
    state = data.get("state") or ""
    challenge = data.get("code_challenge") or ""
    method = data.get("code_challenge_method") or ""
    context: dict[str, Any] = {
        "application": application,
        "redirect_uri": redirect_uri,
        "scopes": [
            {"name": scope, "description": SCOPE_DESCRIPTIONS.get(scope.partition(":")[0], scope)}
            for scope in requested
        ],
        "scope_text": scope_rules.text(requested),
        "state": state,
        "code_challenge": challenge,
        "code_challenge_method": method,
    }
    if request.method != "POST":
        return _consent_page(request, context)
    if data.get("decision") != "authorize":
        if redirect_uri == oauth.OOB:
            return _consent_page(request, {**context, "denied": True})
        return _redirect(redirect_uri, {"error": "access_denied", **({"state": state} if state else {})})
    try:
        code = oauth.issue_code(
            application=application,
            user=request.user,
            redirect_uri=redirect_uri,
            scopes=requested,
            code_challenge=challenge,
            code_challenge_method=method,
        )
    except oauth.OAuthError as error:
        return render(
            request, "error.html", {"title": "This app cannot log in", "message": error.description}, status=400
        )
    if redirect_uri == oauth.OOB:
        return _consent_page(request, {**context, "code": code})
    return _redirect(redirect_uri, {"code": code, **({"state": state} if state else {})})


@endpoint("POST", auth="none")
def token(request: HttpRequest) -> Any:
    grant = text_param(request, "grant_type")
    client_id, client_secret = param(request, "client_id"), param(request, "client_secret")
    try:
        if grant == "authorization_code":
            issued, raw = oauth.exchange_code(
                client_id=client_id,
                client_secret=client_secret,
                code=param(request, "code"),
                redirect_uri=param(request, "redirect_uri"),
                code_verifier=param(request, "code_verifier"),
            )
        elif grant == "client_credentials":
            issued, raw = oauth.client_credentials(
                client_id=client_id, client_secret=client_secret, scope=param(request, "scope")
            )
        else:
            raise oauth.OAuthError(
                "unsupported_grant_type", "The authorization grant type is not supported by the authorization server."
            )
    except oauth.OAuthError as error:
        return _oauth_error(error)
    return oauth.token_body(issued, raw)


@endpoint("POST", auth="none")
def revoke(request: HttpRequest) -> Any:
    try:
        oauth.revoke(
            client_id=param(request, "client_id"),
            client_secret=param(request, "client_secret"),
            token=param(request, "token"),
        )
    except oauth.OAuthError as error:
        return _oauth_error(error)
    return {}


@csrf_exempt
@require_http_methods(["GET", "HEAD"])
def server_metadata(request: HttpRequest) -> JsonResponse:
    """RFC 8414: where the endpoints are and what they support (Mastodon.py reads it before logging in)."""
    base = request.build_absolute_uri("/").rstrip("/")
    response = JsonResponse(
        {
            "issuer": base + "/",
            "service_documentation": "https://docs.joinmastodon.org/",
            "authorization_endpoint": base + reverse("api:authorize"),
            "token_endpoint": base + reverse("api:token"),
            "revocation_endpoint": base + reverse("api:revoke"),
            "app_registration_endpoint": base + reverse("api:apps"),
            "scopes_supported": sorted(scope_rules.KNOWN),
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": list(oauth.GRANT_TYPES),
            "token_endpoint_auth_methods_supported": ["client_secret_post"],
            "code_challenge_methods_supported": ["S256"],
        }
    )
    response["Access-Control-Allow-Origin"] = "*"
    return response
