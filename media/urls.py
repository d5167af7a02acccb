from django.urls import path

from timelines.views import media as views

app_name = "media"

# The serving view sits with the timelines' views: it asks the post's policy, and the media app stays below
# timelines (files and their records only), which uses it to attach images to posts.
urlpatterns = [
    path("media/<str:token>/<str:variant>", views.serve, name="file"),
]
