"""The client API's errors: Mastodon's shape, ``{"error": "..."}`` with a 4xx status, raised anywhere below an
endpoint (``api.http``) and answered there."""

from __future__ import annotations

from django.http import JsonResponse

NOT_FOUND = "Record not found"
INVALID_TOKEN = "The access token is invalid"


class ApiError(Exception):
    """An answer of ``{"error": message}`` with ``status``; raised anywhere below a view."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def not_found() -> ApiError:
    return ApiError(404, NOT_FOUND)


def error_response(status: int, message: str, **extra: object) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)
