from django.contrib import admin
from django.urls import include, path

from socialsite import health

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("admin/rq/", include("django_rq.urls")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("api.urls")),
    path("", include("federation.urls")),
    path("", include("accounts.report_urls")),
    path("", include("media.urls")),
    path("", include("timelines.urls")),
]

# The site's own error pages (socialsite/views.py), never Django's technical ones.
handler400 = "socialsite.views.bad_request"
handler403 = "socialsite.views.permission_denied"
handler404 = "socialsite.views.page_not_found"
handler500 = "socialsite.views.server_error"
