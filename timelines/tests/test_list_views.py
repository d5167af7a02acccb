"""The list pages, driven with Django's test client: create, rename, delete, members in and out, a list's
timeline, the picker on profiles, and bad input answered with a 4xx."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from timelines import exceptions, limits, selectors, services
from timelines.tests.test_views import logged_in, status_ids

pytestmark = pytest.mark.django_db


def test_create_a_list_add_people_and_read_its_timeline():
    ann, ann_uid = logged_in("ann")
    _, ben_uid = logged_in("ben")
    _, cat_uid = logged_in("cat")
    bens = services.post_status(uid=ben_uid, message="ben's post")
    cats = services.post_status(uid=cat_uid, message="cat's post")

    page = ann.get("/@ann/lists")
    assert page.status_code == 200 and b"New list" in page.content
    response = ann.post("/lists/create", {"name": "Friends"})
    assert response.status_code == 302
    list_id = selectors.get_user_lists(uid=ann_uid)[0].id
    assert response["Location"] == f"/lists/{list_id}"

    assert ann.post(f"/lists/{list_id}/members/add", {"login": "BEN"}).status_code == 302
    members = ann.get(f"/lists/{list_id}/members").content.decode()
    assert "@ben" in members and "1 member" in members
    detail = Client().get(f"/lists/{list_id}")  # lists are public to read
    assert detail.status_code == 200 and b"Friends" in detail.content
    assert status_ids(detail) == [bens] and cats not in status_ids(detail)

    assert ann.post(f"/lists/{list_id}/members/remove", {"login": "ben"}).status_code == 302
    assert status_ids(ann.get(f"/lists/{list_id}")) == []
    assert selectors.get_user_list(list_id=list_id).members == 0


def test_rename_and_delete_ask_the_owner_and_nobody_else():
    ann, ann_uid = logged_in("ann")
    ben, _ = logged_in("ben")
    list_id = services.create_user_list(uid=ann_uid, name="Old name")

    assert ben.get(f"/lists/{list_id}/edit").status_code == 403
    assert ben.post(f"/lists/{list_id}/delete").status_code == 403
    assert ben.post(f"/lists/{list_id}/members/add", {"login": "ben"}).status_code == 403
    assert b"Rename" not in ben.get(f"/lists/{list_id}").content

    assert ann.post(f"/lists/{list_id}/edit", {"name": "New name"}).status_code == 302
    assert selectors.get_user_list(list_id=list_id).name == "New name"
    assert b"Delete the list" in ann.get(f"/lists/{list_id}/delete").content
    response = ann.post(f"/lists/{list_id}/delete")
    assert response.status_code == 302 and response["Location"] == "/@ann/lists"
    assert ann.get(f"/lists/{list_id}").status_code == 404


def test_the_profile_picker_adds_and_removes_someone_from_the_viewers_lists():
    ann, ann_uid = logged_in("ann")
    _, ben_uid = logged_in("ben")
    friends = services.create_user_list(uid=ann_uid, name="Friends")
    work = services.create_user_list(uid=ann_uid, name="Work")
    services.follow_user_list(uid=ann_uid, other_uid=ben_uid, list_id=work)

    profile = ann.get("/@ben").content.decode()
    assert re.search(rf'name="member" value="{work}" checked', profile)
    assert re.search(rf'name="member" value="{friends}">', profile)

    response = ann.post("/@ben/lists/pick", {"shown": [friends, work], "member": [friends], "next": "/@ben"})
    assert response.status_code == 302 and response["Location"] == "/@ben"
    choices = {
        choice.list.id: choice.is_member for choice in selectors.get_list_choices(uid=ann_uid, member_uid=ben_uid)
    }
    assert choices == {friends: True, work: False}
    assert b"Lists by @ben" in Client().get("/@ben").content


def test_bad_list_input_is_a_clear_4xx_and_changes_nothing():
    ann, ann_uid = logged_in("ann")
    list_id = services.create_user_list(uid=ann_uid, name="Fine")

    response = ann.post("/lists/create", {"name": "   "})
    assert response.status_code == 400
    response = ann.post("/lists/create", {"name": "x" * (limits.MAX_LIST_NAME_LENGTH + 1)})
    assert response.status_code == 400 and exceptions.INVALID_LIST_NAME.encode() in response.content
    response = ann.post(f"/lists/{list_id}/members/add", {"login": "nobody_here"})
    assert response.status_code == 400 and exceptions.UNKNOWN_USER.encode() in response.content
    assert ann.post(f"/lists/{list_id}/edit", {"name": ""}).status_code == 400
    assert ann.post("/@ann/lists/pick", {"shown": ["abc"]}).status_code == 400
    assert ann.post("/@ann/lists/pick", {"shown": [list_id], "member": [list_id + 1]}).status_code == 400
    assert ann.get("/lists/999999").status_code == 404
    assert ann.get("/lists/999999/members").status_code == 404
    assert ann.get("/@nobody_here/lists").status_code == 404
    assert ann.get(f"/lists/{list_id}?max_id=x").status_code == 400
    assert ann.get("/lists/create").status_code == 405
    assert [user_list.name for user_list in selectors.get_user_lists(uid=ann_uid)] == ["Fine"]
    assert selectors.get_user_list(list_id=list_id).members == 0


def test_anonymous_visitors_read_lists_and_are_sent_to_log_in_to_change_them():
    _, ann_uid = logged_in("ann")
    list_id = services.create_user_list(uid=ann_uid, name="Public")
    anonymous = Client()
    assert anonymous.get("/@ann/lists").status_code == 200
    assert b"New list" not in anonymous.get("/@ann/lists").content
    for path in ("/lists/create", f"/lists/{list_id}/delete", "/@ann/lists/pick"):
        response = anonymous.post(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
