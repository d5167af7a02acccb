"""What every endpoint of the client API shares: bearer-token authentication and scopes (``endpoint``), Mastodon's
JSON errors (``ApiError``), parameters from the query, a form or a JSON body, ids in paths, and ``Link``
pagination.

Only a bearer token authenticates: the site's session cookie is ignored here, so a page on another origin can
never act as a logged-in visitor, and the endpoints need no CSRF token. Bad input is a 4xx with
``{"error": ...}``, never a 500: ids that are not ids are ``404 Record not found``, like records that do not
exist or that the viewer may not see.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from functools import wraps
from typing import Any, Literal
from urllib.parse import urlencode

from django.contrib.auth.models import AnonymousUser
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.multipartparser import MultiPartParser, MultiPartParserError
from django.utils.datastructures import MultiValueDict
from django.views.decorators.csrf import csrf_exempt

from api import oauth
from api import scopes as scope_rules
from api.errors import INVALID_TOKEN, ApiError, error_response, not_found
from api.json_body import json_response
from api.limits import count_call
from api.models import AccessToken
from timelines import exceptions, limits, selectors, validation
from timelines.services import idle

USER_REQUIRED = "This method requires an authenticated user"
OUTSIDE_SCOPES = "This action is outside the authorized scopes"
SUSPENDED = "Your login is currently disabled"
MAX_BODY_KEYS = 100
CORS_HEADERS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key",
    "Access-Control-Expose-Headers": "Link, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset",
    "Access-Control-Allow-Methods": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
}

Auth = Literal["user", "optional", "app", "none"]


def _with_cors(response: HttpResponse) -> HttpResponse:
    for header, value in CORS_HEADERS.items():
        response[header] = value
    return response


def bearer(request: HttpRequest) -> str | None:
    """The token of an ``Authorization: Bearer`` header, "" for a malformed one, None without the header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    kind, _, value = header.partition(" ")
    return value.strip() if kind.lower() == "bearer" else ""


def _authenticate(request: HttpRequest, auth: Auth) -> AccessToken | None:
    if auth == "none":
        return None
    raw = bearer(request)
    if raw is None:
        if auth == "optional":
            return None
        raise ApiError(401, INVALID_TOKEN)
    token = oauth.find_token(raw)
    if token is None:
        raise ApiError(401, INVALID_TOKEN)
    user = token.user
    if token.user_id is None:
        if auth == "user":
            raise ApiError(422, USER_REQUIRED)
        return token
    if user is None or not user.is_active or user.uid is None:
        raise ApiError(401, INVALID_TOKEN)
    try:
        suspended = selectors.get_user_suspended(uid=user.uid)
    except exceptions.UnknownUser:
        raise ApiError(401, INVALID_TOKEN) from None
    if suspended:
        raise ApiError(403, SUSPENDED)
    return token


def _granted(token: AccessToken, wanted: str | tuple[str, ...]) -> bool:
    options = (wanted,) if isinstance(wanted, str) else wanted
    return any(scope_rules.grants(token.scope_list, option) for option in options)


def endpoint(
    *methods: str, scopes: dict[str, str | tuple[str, ...]] | None = None, auth: Auth = "user"
) -> Callable[[Callable[..., Any]], Callable[..., HttpResponse]]:
    """Make a view an API endpoint answering ``methods``. ``scopes`` maps a method to the scope it needs
    (``{"GET": "read:statuses"}``; a tuple: any of them). ``auth``: ``"user"`` needs a person's token,
    ``"optional"`` also serves anonymous callers, ``"app"`` accepts an app's own token, ``"none"`` reads no
    token (the OAuth endpoints, where the client authenticates itself). The view gets ``request.api_token``
    (or None) and ``request.viewer_uid`` (None when anonymous) and returns data for JSON or a response."""
    allowed = {method.upper() for method in methods}
    if "GET" in allowed:
        allowed.add("HEAD")
    needed = {method.upper(): scope for method, scope in (scopes or {}).items()}

    def decorator(view: Callable[..., Any]) -> Callable[..., HttpResponse]:
        @csrf_exempt
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "OPTIONS":
                return _with_cors(HttpResponse(status=204))
            if request.method not in allowed:
                response = error_response(405, "Method not allowed")
                response["Allow"] = ", ".join(sorted(allowed))
                return _with_cors(response)
            limit_headers: dict[str, str] = {}
            try:
                token = _authenticate(request, auth)
                wanted = needed.get("GET" if request.method == "HEAD" else request.method)
                if token is not None and wanted and not _granted(token, wanted):
                    raise ApiError(403, OUTSIDE_SCOPES)
                request.api_token = token  # type: ignore[attr-defined]
                # The rate limits and anything else keyed on the person count the token's owner, never the
                # session's: a cookie sent along (from another origin, say) stands for no one here.
                request.user = token.user if token is not None and token.user is not None else AnonymousUser()
                request.viewer_uid = token.user.uid if token is not None and token.user else None  # type: ignore[attr-defined]
                if request.viewer_uid is not None:  # type: ignore[attr-defined]
                    # An API call is a visit: an idle-dropped home is rebuilt before the call reads it.
                    idle.note_seen(uid=request.viewer_uid)  # type: ignore[attr-defined]
                limit_headers = count_call(request)
                result = view(request, *args, **kwargs)
            except ApiError as error:
                response = error_response(error.status, error.message)
                for header, value in {**limit_headers, **getattr(error, "headers", {})}.items():
                    response[header] = value
                return _with_cors(response)
            response = result if isinstance(result, HttpResponse) else json_response(result)
            for header, value in limit_headers.items():
                response[header] = value
            return _with_cors(response)

        # What the OpenAPI description (api.openapi) reads off each endpoint.
        wrapper.api_methods = frozenset(allowed - {"HEAD"})  # type: ignore[attr-defined]
        wrapper.api_scopes = dict(needed)  # type: ignore[attr-defined]
        wrapper.api_auth = auth  # type: ignore[attr-defined]
        return wrapper

    return decorator


def _body(request: HttpRequest) -> dict[str, Any]:
    cached = getattr(request, "_api_body", None)
    if cached is not None:
        return cached
    body: dict[str, Any] = {}
    # A GET may carry its parameters as a JSON body too, as Rails reads them for Mastodon: Mastodon.py sends
    # familiar_followers' ids that way.
    json_get = request.method == "GET" and request.content_type == "application/json"
    if request.method in ("POST", "PUT", "PATCH", "DELETE") or json_get:
        if request.content_type == "application/json":
            try:
                parsed = json.loads(request.body or b"{}")
            except (ValueError, UnicodeDecodeError):
                raise ApiError(400, "The request body is not valid JSON") from None
            if not isinstance(parsed, dict) or len(parsed) > MAX_BODY_KEYS:
                raise ApiError(400, "The request body must be a JSON object")
            body = parsed
        else:
            # Django parses form bodies of POSTs only; a PATCH or PUT (update_credentials) is read here.
            form = request.POST if request.method == "POST" else _form_body(request)
            body = {key: values if len(values) > 1 else values[0] for key, values in form.lists()}
    request._api_body = body  # type: ignore[attr-defined]
    return body


def _form_body(request: HttpRequest) -> QueryDict:
    if request.content_type == "multipart/form-data":
        return _multipart(request)[0]
    if request.content_type != "application/x-www-form-urlencoded":
        return QueryDict()
    try:
        return QueryDict(request.body, encoding=request.encoding)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "The request body is not a valid form") from None


def _multipart(request: HttpRequest) -> tuple[QueryDict, MultiValueDict]:
    """A multipart body of a PATCH or PUT (Django parses those of POSTs only): update_credentials' avatar."""
    cached = getattr(request, "_api_multipart", None)
    if cached is None:
        try:
            parser = MultiPartParser(request.META, io.BytesIO(request.body), request.upload_handlers, request.encoding)
            cached = parser.parse()
        except (MultiPartParserError, ValueError, UnicodeDecodeError):
            raise ApiError(400, "The request body is not a valid form") from None
        request._api_multipart = cached  # type: ignore[attr-defined]
    return cached


def file_param(request: HttpRequest, name: str) -> UploadedFile | None:
    """An uploaded file of a multipart body, whatever the method."""
    if request.method == "POST":
        return request.FILES.get(name)
    if request.content_type != "multipart/form-data":
        return None
    return _multipart(request)[1].get(name)


def param(request: HttpRequest, name: str) -> Any:
    """A parameter from the body (JSON or form), else the query string; None when absent."""
    body = _body(request)
    if name in body:
        return body[name]
    return request.GET.get(name)


def text_param(request: HttpRequest, name: str) -> str | None:
    value = param(request, name)
    if value is None:
        return None
    if isinstance(value, bool | int | float):
        return str(value).lower() if isinstance(value, bool) else str(value)
    if not isinstance(value, str):
        raise ApiError(422, f"Validation failed: {name} must be a string")
    return value


def list_param(request: HttpRequest, name: str) -> list[str]:
    """``name[]`` (or ``name``) given once or many times, in the query, a form or a JSON list."""
    body = _body(request)
    for key in (f"{name}[]", name):
        if key in body:
            value = body[key]
            values = value if isinstance(value, list) else [value]
            return [str(item) for item in values]
    return request.GET.getlist(f"{name}[]") or request.GET.getlist(name)


def bool_param(request: HttpRequest, name: str) -> bool:
    value = param(request, name)
    return value is True or (isinstance(value, str) and value.lower() in ("1", "true", "on", "yes"))


def parse_id(raw: object) -> int:
    """A record id from a path or a parameter; anything that is not one is ``404 Record not found``."""
    try:
        return validation.parse_int(raw if isinstance(raw, str) else str(raw))
    except ValueError:
        raise not_found() from None


def id_param(request: HttpRequest, name: str) -> int | None:
    """An optional id parameter (``max_id``, ``in_reply_to_id``...): a 400 when it is not one."""
    raw = text_param(request, name)
    if raw in (None, ""):
        return None
    try:
        return validation.parse_int(raw, minimum=0)
    except ValueError:
        raise ApiError(400, f"{name} must be an id") from None


def limit_param(request: HttpRequest, *, default: int = 20, maximum: int = 40) -> int:
    """``limit``: default 20, at most 40 (Mastodon clamps larger values, so do we); not a number is a 400."""
    raw = text_param(request, "limit")
    if raw in (None, ""):
        return default
    try:
        value = validation.parse_int(raw, minimum=0, maximum=limits.MAX_ID - 1)
    except ValueError:
        raise ApiError(400, "limit must be a whole number") from None
    return max(1, min(value, maximum))


def offset_param(request: HttpRequest) -> int:
    """``offset`` (Mastodon's search paging): a whole number of at most 9 digits, 0 when absent; 400 otherwise."""
    raw = text_param(request, "offset")
    if raw in (None, "", "0"):
        return 0
    if not raw.isdigit() or len(raw) > 9:
        raise ApiError(400, "offset must be a whole number")
    return int(raw)


def next_page(request: HttpRequest, max_id: int) -> str:
    """This request's URL with ``max_id`` (and no other cursor) set to ``max_id``."""
    base = request.build_absolute_uri(request.path)
    query = [
        (key, value)
        for key, values in request.GET.lists()
        if key not in ("max_id", "since_id", "min_id")
        for value in values
    ]
    return f"{base}?{urlencode([*query, ('max_id', max_id)])}"


def paginated(request: HttpRequest, data: list[dict[str, Any]], ids: list[int], *, limit: int) -> HttpResponse:
    """``data`` with Mastodon's ``Link`` header: ``rel="next"`` (older, by ``max_id``) while the page is full,
    then ``rel="prev"`` (newer, by ``min_id``). ``ids`` are the page's cursor ids, newest first."""
    response = json_response(data)
    if not ids:
        return response
    base = request.build_absolute_uri(request.path)
    kept = [(key, value) for key, value in request.GET.lists() if key not in ("max_id", "since_id", "min_id")]
    query = [(key, value) for key, values in kept for value in values]
    links = []
    if len(ids) >= limit:
        links.append(f'<{base}?{urlencode([*query, ("max_id", ids[-1])])}>; rel="next"')
    links.append(f'<{base}?{urlencode([*query, ("min_id", ids[0])])}>; rel="prev"')
    response["Link"] = ", ".join(links)
    return response
