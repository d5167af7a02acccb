"""Bad input on every page gets a clear 4xx, never a 500, and changes nothing; pages answer HEAD too."""

from __future__ import annotations

import pytest
from django.test import Client

from timelines import exceptions, selectors, services, validation
from timelines.tests.test_views import logged_in

pytestmark = pytest.mark.django_db

# str.isdigit() accepts "²" and "٣" but int() refuses the first; 5,000 digits pass isdigit() and overflow
# every bound (and Python's int() limit of 4,300 digits).
BAD_INTEGERS = ["²", "٣", "9" * 5000, "-1", "0", "1e3", " 1", "0x10", "9007199254740993"]


@pytest.fixture
def site():
    client, uid = logged_in("una")
    services.post_status(uid=uid, message="a post to page through")
    list_id = services.create_user_list(uid=uid, name="Friends")
    return client, uid, list_id


def test_bad_integer_query_parameters_are_400_on_every_page(site):
    client, _, list_id = site
    pages = [
        ("/", "max_id"),
        ("/@una", "max_id"),
        (f"/lists/{list_id}", "max_id"),
        ("/@una/followers", "page"),
        ("/@una/following", "page"),
        (f"/lists/{list_id}/members", "page"),
    ]
    for path, name in pages:
        for value in BAD_INTEGERS:
            response = client.get(path, {name: value})
            assert response.status_code == 400, (path, name, value, response.status_code)
            assert "Traceback" not in response.content.decode()


def test_the_list_picker_refuses_bad_list_ids_and_changes_nothing(site):
    client, uid, list_id = site
    other = services.create_user(login="vera", name="Vera")
    for value in BAD_INTEGERS:
        response = client.post("/@vera/lists/pick", {"shown": [str(list_id), value], "member": [str(list_id)]})
        assert response.status_code == 400, value
    assert selectors.get_list_choices(uid=uid, member_uid=other)[0].is_member is False


def test_unknown_and_huge_path_ids_are_404(site):
    client, _, _ = site
    assert client.get("/lists/" + "9" * 5000).status_code == 404
    assert client.get("/statuses/" + "9" * 5000 + "/delete").status_code == 404


def test_pages_answer_head_like_get(site):
    client, _, _ = site
    for path in ("/", "/@una", "/@una/followers"):
        response = client.head(path)
        assert response.status_code == 200, path
        assert response.content == b""
    assert Client().head("/").status_code == 200


@pytest.mark.parametrize("value", ["1\n", "1\r\n", "\n1", "1\n\n"])
def test_a_trailing_newline_does_not_make_a_number(site, value):
    """``$`` matches before a final newline: ``?max_id=1%0A`` was read as 1."""
    client, _, _ = site
    response = client.get("/", {"max_id": value})
    assert response.status_code == 400
    assert "max_id must be a whole number" in response.content.decode()


def test_the_shared_parsers_match_whole_strings_only():
    for text in ("1\n", "7\n"):
        with pytest.raises(ValueError):
            validation.parse_int(text)
    with pytest.raises(exceptions.InvalidStatusData):
        validation.clean_extra({"mood\n": "calm"})


@pytest.mark.parametrize("query", ["\x00", "tips\x00", "\x00" * 3])
def test_search_with_a_null_character_is_a_readable_400(query):
    """``/search?q=%00`` was a 500 (``KeyError: 'q'``) for anyone, and unlimited: a view that raises gives its
    rate-limit slot back."""
    response = Client(raise_request_exception=False).get("/search", {"q": query})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Null characters are not allowed." in page and "Traceback" not in page
