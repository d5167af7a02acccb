"""URLs of reporting, under a person's profile URL: ``/@login/report`` (the form; ``?status=<id>`` ticks
that post), ``/@login/report/send`` (POST) and ``/@login/report/sent`` (thanks). Names: ``reports:form``,
``reports:send``, ``reports:sent``. Included at the site's root, before ``timelines.urls``."""

from django.urls import re_path

from accounts import report_views
from timelines import limits

app_name = "reports"

# A local login, or another server's account as login@domain (issue 22), as ``timelines.urls`` has it.
LOGIN = rf"@(?P<login>[A-Za-z0-9_]{{1,{limits.MAX_LOGIN_LENGTH}}}(?:@[A-Za-z0-9.-]{{1,253}}(?::[0-9]{{1,5}})?)?)"

urlpatterns = [
    re_path(rf"^{LOGIN}/report$", report_views.report_form, name="form"),
    re_path(rf"^{LOGIN}/report/send$", report_views.send_report, name="send"),
    re_path(rf"^{LOGIN}/report/sent$", report_views.report_sent, name="sent"),
]
