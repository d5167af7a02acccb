from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/rq/", include("django_rq.urls")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("accounts.report_urls")),
    path("", include("timelines.urls")),
]

handler404 = "socialsite.views.page_not_found"
