"""What a client that sends something wrong gets from the real server: a 4xx with a JSON body, never a 500."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from urllib.parse import urlencode

import pytest

from socialsite.testing import WAIT_SECONDS
from streaming import consumers, filters
from streaming.client import open_stream

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def post_filter(server, form: dict[str, str] | bytes, query: str = "?identifier=tests", headers=None):
    body = form if isinstance(form, bytes) else urlencode(form).encode()
    return server.request("POST", "/statuses/filter.json" + query, body, headers or FORM)


def test_a_stream_without_identifier_is_401(server):
    for path in ("/statuses/sample.json", "/statuses/sample.json?identifier=", "/statuses/sample.json?identifier=+"):
        status, headers, body = server.request("GET", path)
        assert status == 401
        assert headers["Content-Type"] == "application/json"
        assert body == {"error": "identifier_missing", "message": consumers.IDENTIFIER_MISSING}
    status, _, body = post_filter(server, {"track": "redis"}, query="")
    assert status == 401 and body["error"] == "identifier_missing"


def test_an_unknown_path_under_statuses_is_a_json_404(server):
    for path in ("/statuses/firehose.json", "/statuses/", "/statuses/sample.json/extra"):
        status, headers, body = server.request("GET", path + "?identifier=tests")
        assert status == 404 and headers["Content-Type"] == "application/json"
        assert body == {"error": "not_found", "message": consumers.NOT_FOUND}


def test_the_sites_own_status_pages_still_reach_django(server):
    request = urllib.request.Request(server.url + "/statuses/7/delete", method="GET")
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(request, timeout=WAIT_SECONDS)
    except urllib.error.HTTPError as error:
        status, location = error.code, error.headers.get("Location", "")
    assert status == 302 and location.startswith("/accounts/login/")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_the_wrong_method_is_405_with_allow(server):
    status, headers, body = server.request("POST", "/statuses/sample.json?identifier=tests", b"")
    assert (status, headers["Allow"], body["error"]) == (405, "GET", "method_not_allowed")
    status, headers, body = server.request("GET", "/statuses/filter.json?identifier=tests&track=redis")
    assert (status, headers["Allow"], body["error"]) == (405, "POST", "method_not_allowed")


@pytest.mark.parametrize("percent", ["0", "101", "ten", "5.5", "-3", "1e2", "%C2%B2", "9" * 5000])
def test_a_bad_sample_percent_is_400(server, percent):
    status, _, body = server.request("GET", f"/statuses/sample.json?identifier=tests&percent={percent}")
    assert status == 400
    assert body == {"error": "malformed", "message": filters.PERCENT_INVALID}


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({}, filters.NO_PREDICATE),
        ({"track": " , ,", "follow": ""}, filters.NO_PREDICATE),
        ({"track": ",".join(f"word{i}" for i in range(filters.MAX_TRACK_PHRASES + 1))}, filters.TOO_MANY_PHRASES),
        ({"track": "x" * (filters.MAX_TRACK_PHRASE_LENGTH + 1)}, filters.PHRASE_TOO_LONG),
        ({"track": "redis,!!!"}, filters.PHRASE_WITHOUT_WORDS.format(phrase="!!!")),
        ({"follow": ",".join(f"user{i}" for i in range(filters.MAX_FOLLOW_LOGINS + 1))}, filters.TOO_MANY_LOGINS),
        ({"follow": "ada,not a login"}, None),
        ({"locations": ",".join(["-10,35,30,60"] * (filters.MAX_LOCATION_BOXES + 1))}, filters.TOO_MANY_BOXES),
        ({"locations": "-10,35,30"}, filters.BOXES_MALFORMED),
        ({"locations": "west,35,30,60"}, filters.BOXES_MALFORMED),
        ({"locations": "nan,35,30,60"}, filters.BOXES_MALFORMED),
        ({"location": "-10,35,200,60"}, None),
        ({"locations": "30,35,-10,60"}, None),
        ({"track": "redis", "delimited": "newline"}, consumers.DELIMITED_INVALID),
    ],
)
def test_a_malformed_or_over_limit_filter_is_400(server, form, message):
    status, headers, body = post_filter(server, form)
    assert status == 400 and headers["Content-Type"] == "application/json"
    assert body["error"] == "malformed"
    if message is not None:
        assert body["message"] == message


def test_a_body_that_is_not_a_utf8_form_is_400(server):
    assert post_filter(server, b"track=\xff\xfe")[0] == 400
    multipart = {"Content-Type": "multipart/form-data; boundary=x"}
    assert post_filter(server, b"--x\r\n", headers=multipart)[0] == 400
    assert post_filter(server, {"track": "redis"}, query="?identifier=" + "x" * 101)[0] == 400


def test_an_oversized_form_is_413(server):
    status, _, body = post_filter(server, {"track": "a" * (consumers.MAX_FORM_BYTES + 1)})
    assert status == 413 and body["error"] == "too_large"


def test_filters_at_their_limits_are_accepted(server):
    async def accepted(form: dict[str, str]) -> int:
        response = await open_stream("filter", identifier="tests", params=form, url=server.url)
        await response.aclose()
        return response.status

    async def scenario():
        assert await accepted({"track": ",".join(f"w{i} z{i}" for i in range(filters.MAX_TRACK_PHRASES))}) == 200
        assert await accepted({"follow": ",".join(f"u{i}" for i in range(filters.MAX_FOLLOW_LOGINS))}) == 200
        assert await accepted({"locations": ",".join(["-180,-90,180,90"] * filters.MAX_LOCATION_BOXES)}) == 200

    asyncio.run(scenario())


def test_a_third_stream_of_one_identifier_gets_420_and_a_closed_one_frees_its_place(server):
    """Twitter's connection limit: STREAMING_MAX_CONNECTIONS (2) open streams per identifier, across
    processes; a third is refused with 420 and a JSON error until one closes."""

    async def scenario():
        first = await open_stream("sample", identifier="limited", params={"percent": "1"}, url=server.url)
        second = await open_stream("sample", identifier="limited", params={"percent": "1"}, url=server.url)
        third = await open_stream(
            "sample", identifier="limited", params={"percent": "1"}, url=server.url, raise_for_status=False
        )
        assert third.status == 420
        body = json.loads(await third.read_all())
        assert body["error"] == "too_many_connections"
        other = await open_stream("sample", identifier="someone-else", params={"percent": "1"}, url=server.url)
        await first.aclose()
        # The server frees the place once it has seen the close: until then a new stream is still refused.
        async with asyncio.timeout(WAIT_SECONDS):
            while True:
                again = await open_stream(
                    "sample", identifier="limited", params={"percent": "1"}, url=server.url, raise_for_status=False
                )
                if again.status == 200:
                    break
                assert again.status == 420
                await again.aclose()
                await asyncio.sleep(0.05)
        for response in (second, again, other):
            await response.aclose()

    asyncio.run(scenario())
