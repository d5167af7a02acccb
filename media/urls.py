from django.urls import path

from media import views

app_name = "media"

urlpatterns = [
    path("media/<str:token>/<str:variant>", views.serve, name="file"),
]
