from django.urls import include, path, re_path

from timelines import views

app_name = "timelines"

LOGIN = r"@(?P<login>[A-Za-z0-9_]{1,20})"

urlpatterns = [
    path("", views.home, name="home"),
    path("compose", views.compose, name="compose"),
    path("statuses/<int:status_id>/delete", views.delete, name="delete"),
    re_path(rf"^{LOGIN}$", views.profile, name="profile"),
    re_path(rf"^{LOGIN}/followers$", views.followers, name="followers"),
    re_path(rf"^{LOGIN}/following$", views.following, name="following"),
    re_path(rf"^{LOGIN}/follow$", views.follow, name="follow"),
    re_path(rf"^{LOGIN}/unfollow$", views.unfollow, name="unfollow"),
    path("", include("timelines.list_urls")),
]
