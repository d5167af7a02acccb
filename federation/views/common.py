"""Answers of the federation views: ActivityPub documents, and JSON errors (never a page, never a 500)."""

from __future__ import annotations

from typing import Any

from django.http import JsonResponse

from federation import contexts


def activity_json(document: dict[str, Any], status: int = 200) -> JsonResponse:
    response = JsonResponse(document, status=status, content_type=contexts.ACTIVITY_JSON)
    response["Vary"] = "Accept"
    return response


def error(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)
