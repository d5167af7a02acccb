"""Signing up from an app (``POST /api/v1/accounts``), as Mastodon does: with the app's own token
(``client_credentials`` with ``write`` or ``write:accounts``), under the rules of the sign-up page (its form's
validators, the sign-up rate limit per address), answered with a token for the new account that carries the
app's scopes and works at once."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse

from accounts import services as accounts_services
from accounts.forms import SignUpForm
from api import oauth
from api.http import ApiError, bool_param, endpoint, text_param
from api.limits import rate_limited
from timelines import exceptions

AGREEMENT = "Validation failed: Agreement must be accepted"
# The sign-up form's fields under Mastodon's parameter names.
FIELDS = {"username": "username", "password1": "password", "email": "email"}


def _refusal(form: SignUpForm) -> JsonResponse:
    details = {
        FIELDS.get(field, field): [{"error": "ERR_INVALID", "description": str(message)} for message in messages]
        for field, messages in form.errors.items()
    }
    summary = "; ".join(str(message) for messages in form.errors.values() for message in messages)
    return JsonResponse({"error": f"Validation failed: {summary}", "details": details}, status=422)


@endpoint("POST", scopes={"POST": ("write:accounts",)}, auth="app")
def register(request: HttpRequest) -> Any:
    token = request.api_token  # type: ignore[attr-defined]
    if token.user_id is not None:
        raise ApiError(403, "This method requires an app token")
    if not bool_param(request, "agreement"):
        raise ApiError(422, AGREEMENT)
    username = text_param(request, "username") or ""
    form = SignUpForm(
        {
            "username": username,
            "name": username,
            "email": text_param(request, "email") or "",
            "password1": text_param(request, "password") or "",
        }
    )
    with rate_limited(request, "signup") as attempt:
        if not form.is_valid():
            attempt.give_back()
            return _refusal(form)
        try:
            user = accounts_services.sign_up(
                login=form.cleaned_data["username"],
                name=form.cleaned_data["name"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
            )
        except (exceptions.LoginTaken, exceptions.InvalidLogin, exceptions.InvalidName) as error:
            attempt.give_back()
            raise ApiError(422, f"Validation failed: {error.message}") from None
    issued, raw = oauth.issue_token(application=token.application, user=user, scopes=token.application.scope_list)
    return oauth.token_body(issued, raw)
