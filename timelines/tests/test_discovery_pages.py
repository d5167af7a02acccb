"""The discovery pages with Django's test client: the header's search box, ``/search`` (anonymous too) with
its 400s, ``/tags/<tag>`` with Load more, and Trending on the home page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from timelines import exceptions, limits, services
from timelines.tests.test_get_does_not_write import redis_changes
from timelines.tests.test_views import logged_in, status_ids

pytestmark = pytest.mark.django_db


def next_link(response) -> str | None:
    found = re.search(r'href="(\?[^"]*max_id=\d+)" rel="next"', response.content.decode())
    return found.group(1).replace("&amp;", "&") if found else None


def all_pages(client: Client, path: str, url: str) -> list[int]:
    seen: list[int] = []
    while url:
        response = client.get(path + url)
        assert response.status_code == 200
        seen.extend(status_ids(response))
        url = next_link(response)
    return seen


def test_every_page_has_one_search_box_labelled_search_in_a_get_form():
    client, _ = logged_in("uma")
    for page_client, path in ((Client(), "/"), (client, "/"), (client, "/@uma"), (Client(), "/search?q=hello")):
        html = page_client.get(path).content.decode()
        boxes = re.findall(r'<input type="search"[^>]*>', html)
        assert len(boxes) == 1, path
        box_id = re.search(r'id="([^"]+)"', boxes[0]).group(1)
        assert re.search(rf'<label for="{box_id}"[^>]*>Search</label>', html), path
        form = html[: html.index(boxes[0])].rsplit("<form", 1)[1]
        assert 'method="get"' in form and 'action="/search"' in form and 'name="q"' in boxes[0]


def test_anonymous_search_shows_people_tags_and_posts():
    _, uid = logged_in("redfern", "Red Fern")
    status_id = services.post_status(uid=uid, message="#Redis tips for everyone")
    html = Client().get("/search", {"q": "red"}).content.decode()
    assert 'href="/@redfern"' in html and 'href="/tags/redis"' in html
    response = Client().get("/search", {"q": "Tips!"})
    assert response.status_code == 200 and status_ids(response) == [status_id]


def test_search_results_page_through_every_match_once_with_the_query_kept():
    client, uid = logged_in("vic")
    posted = [services.post_status(uid=uid, message=f"paging through results {i}") for i in range(45)]
    assert all_pages(client, "/search", "?q=paging+results") == list(reversed(posted))
    assert all_pages(Client(), "/search", "?q=paging+results") == list(reversed(posted))


def test_an_empty_search_shows_the_form_and_a_hint():
    for query in ("", "   ", "\u200b"):
        response = Client().get("/search", {"q": query})
        assert response.status_code == 200 and b"every word you type" in response.content
    assert Client().get("/search").status_code == 200


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("w" * (limits.MAX_QUERY_LENGTH + 1), exceptions.QUERY_TOO_LONG),
        ("10 KB " * 1707, exceptions.QUERY_TOO_LONG),
        ("?!… #", exceptions.NO_SEARCH_WORDS),
        ("the", exceptions.NO_SEARCH_WORDS),
    ],
)
def test_bad_searches_are_a_clear_400_with_the_form(query, message):
    response = Client().get("/search", {"q": query})
    html = response.content.decode()
    assert response.status_code == 400
    assert message in html.replace("&quot;", '"').replace("&#x27;", "'") and "Traceback" not in html
    assert re.search(r'<input type="search"[^>]*aria-invalid="true"', html)


def test_bad_cursors_on_discovery_pages_are_400():
    for path in ("/search?q=redis&max_id=abc", "/search?q=redis&max_id=-1", "/tags/redis?max_id=" + "9" * 5000):
        assert Client().get(path).status_code == 400, path


def test_a_tag_page_lists_public_posts_with_load_more_in_any_case():
    _, uid = logged_in("wes")
    posted = [services.post_status(uid=uid, message=f"#Paging post {i}") for i in range(limits.DEFAULT_PAGE_SIZE + 7)]
    assert all_pages(Client(), "/tags/paging", "?") == list(reversed(posted))
    assert status_ids(Client().get("/tags/PAGING"))[:3] == list(reversed(posted))[:3]
    empty = Client().get("/tags/nothing_here")
    assert empty.status_code == 200 and b"No public posts with #nothing_here yet." in empty.content
    assert Client().get("/tags/no-such!tag").status_code == 404


def test_htmx_load_more_on_a_tag_page_sends_only_the_next_posts():
    _, uid = logged_in("xia")
    posted = [services.post_status(uid=uid, message=f"#htmx post {i}") for i in range(limits.DEFAULT_PAGE_SIZE + 2)]
    response = Client().get(f"/tags/htmx?max_id={posted[2]}", headers={"HX-Request": "true"})
    assert status_ids(response) == [posted[1], posted[0]] and "<html" not in response.content.decode()


def test_the_home_page_shows_the_trending_tags_linking_to_their_pages():
    client, uid = logged_in("yan")
    for _ in range(3):
        services.post_status(uid=uid, message="#popular again")
    services.post_status(uid=uid, message="#rare once")
    html = client.get("/").content.decode()
    trending = html[html.index('id="trending-heading"') :]
    assert trending.index('href="/tags/popular"') < trending.index('href="/tags/rare"')
    assert "3 posts" in trending and "1 post<" in trending


def test_discovery_pages_read_without_writing(settings):
    # The search limit counts searches in the Django cache, on this same Redis in this run: a write by design
    # (socialsite.ratelimits). What must not be written is the social data.
    settings.RATE_LIMITS_ENABLED = False
    client, uid = logged_in("zoe")
    services.post_status(uid=uid, message="#quiet reading")
    before = redis_changes()
    for path in ("/", "/tags/quiet", "/settings/profile", "/search", "/search?q=the", "/search?q=quiet+reading"):
        assert client.get(path).status_code in (200, 400), path
    assert Client().get("/tags/quiet").status_code == 200
    assert redis_changes() == before
