"""The client API's JSON answers (``api.json_body``, orjson) say what ``JsonResponse`` said: the same values,
Django's lazy strings and dates included, and what orjson refuses still answered by the standard encoder."""

from __future__ import annotations

import datetime
import json

from django.http import JsonResponse
from django.utils.translation import gettext_lazy

from api.json_body import json_response


def test_the_same_json_as_jsonresponse_even_where_orjson_cannot_write_it():
    data = [
        {"id": "1", "content": "<p>caf\u00e9 \U0001f600</p>", "count": 3, "ratio": 0.5, "none": None, "flags": [True]},
        {"lazy": gettext_lazy("Record not found"), "when": datetime.datetime(2026, 11, 28, 17, 0, tzinfo=datetime.UTC)},
        {7: "a key that is a number"},
        {"huge": 2**70},
    ]
    for item in data:
        ours = json_response(item, status=206)
        theirs = JsonResponse(item, safe=False, status=206)
        assert ours.status_code == 206
        assert ours["Content-Type"] == "application/json"
        assert json.loads(ours.content) == json.loads(theirs.content)
