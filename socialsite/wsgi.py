"""WSGI entry point, for servers without ASGI (the streaming API needs ASGI: use daphne)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
application = get_wsgi_application()
