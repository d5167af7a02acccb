"""URLs of the list pages (``timelines.list_views``), included by ``timelines.urls`` in its namespace."""

from django.urls import path, re_path

from timelines import keys, list_views

LOGIN = rf"@(?P<login>[A-Za-z0-9_]{{1,{keys.MAX_LOGIN_LENGTH}}})"

urlpatterns = [
    re_path(rf"^{LOGIN}/lists$", list_views.user_lists, name="user_lists"),
    re_path(rf"^{LOGIN}/lists/pick$", list_views.pick, name="list_pick"),
    path("lists/create", list_views.create, name="list_create"),
    path("lists/<int:list_id>", list_views.detail, name="list_detail"),
    path("lists/<int:list_id>/members", list_views.members, name="list_members"),
    path("lists/<int:list_id>/members/add", list_views.add_member, name="list_add_member"),
    path("lists/<int:list_id>/members/remove", list_views.remove_member, name="list_remove_member"),
    path("lists/<int:list_id>/edit", list_views.edit, name="list_edit"),
    path("lists/<int:list_id>/delete", list_views.delete, name="list_delete"),
]
