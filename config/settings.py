"""Settings, all read from the environment (see the table in README.md).

Two running modes share this one file:

* embedded (nothing set): DEBUG on, SQLite in the project folder, Celery tasks run eagerly
  in-process, local-memory cache;
* production: ``DEBUG=0`` with ``SECRET_KEY``, ``ALLOWED_HOSTS``, ``DATABASE_URL``,
  ``CELERY_BROKER_URL`` and ``REDIS_URL``; secure cookies, HSTS and the HTTPS redirect default
  on whenever DEBUG is off.
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)
#: Django's debug pages (a 404's URL list, a 500's traceback): development only (``make dev``);
#: without it the site's own translated 404 and 500 pages are shown even with DEBUG on
DEBUG_PAGES = env.bool("DEBUG_PAGES", default=False)

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in the environment when DEBUG is off "
            "(use a long random string, e.g. from "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`)."
        )
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"

ALLOWED_HOSTS: list[str] = env.list(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS: list[str] = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "channels",
    "accounts",
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    # outermost but one: it sees the debug pages every layer below may produce
    "config.errors.SiteErrorPagesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.CSPMiddleware",
    "config.middleware.DatabaseUnavailableMiddleware",
    # a request body over its limit is answered 413 before anything reads it
    "config.limits.RequestBodyLimitMiddleware",
    # last, as django-axes asks: it turns a locked-out sign-in into its 429 answer
    "axes.middleware.AxesMiddleware",
]

# --- Request bodies -------------------------------------------------------------------------
# The largest body a request may have (config/limits.py answers 413 beyond it); views that need
# less or more say so with @body_limit. Django's own check (form fields) uses the same default.
REQUEST_MAX_BYTES = env.int("REQUEST_MAX_BYTES", default=2**20)
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BYTES
#: one deal (record, preview, amend) on the API and the referee's page: a real one is < 1 KB
DEAL_MAX_BYTES = env.int("DEAL_MAX_BYTES", default=16 * 2**10)
#: a tournament archive (the import page and the API): 200 pairs × 7 rounds make 8 MB
ARCHIVE_MAX_BYTES = env.int("ARCHIVE_MAX_BYTES", default=64 * 2**20)
#: a photograph of a signed paper protocol (a phone's camera: 2-6 MB)
PROTOCOL_PHOTO_MAX_BYTES = env.int("PROTOCOL_PHOTO_MAX_BYTES", default=12 * 2**20)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Points a process at another database of the same server, keeping the rest of DATABASE_URL.
# The test suite sets it for the Celery worker it starts, so that the worker reads and writes
# pytest-django's test database (e.g. ``test_test``) rather than the real one.
if env.str("DATABASE_NAME_OVERRIDE", default=""):
    DATABASES["default"]["NAME"] = env.str("DATABASE_NAME_OVERRIDE")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache ----------------------------------------------------------------------------------

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Push (Django Channels) ----------------------------------------------------------------
# Pages that update themselves (tournaments.live) hear of a change through the channel layer:
# Redis publish/subscribe (every web process on every machine hears it), else in-process.
# Pub/sub is not per Redis database: the prefix names the database (two installations apart).
CHANNEL_REDIS_URL = env.str("CHANNEL_REDIS_URL", default="") or REDIS_URL
if CHANNEL_REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "tournaments.live.layer.SharedDecodeLayer",  # channels-redis' pub/sub
            "CONFIG": {
                "hosts": [CHANNEL_REDIS_URL],
                "prefix": env.str("CHANNEL_PREFIX", default="")
                or f"domino:{Path(str(DATABASES['default']['NAME'])).name}",
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
#: minutes without a deal after which the live board marks a table in play as stuck
LIVE_BOARD_STUCK_MINUTES = env.int("LIVE_BOARD_STUCK_MINUTES", default=10)
#: at most one batch of a process's announcements per this many seconds (one message a part)
LIVE_COALESCE_SECONDS = env.float("LIVE_COALESCE_SECONDS", default=0.3)
#: the largest pushed message (UTF-8, per language) carrying its fragment (live.content); over
#: it the page is told to fetch. 256 KiB: the standings of ~450 entries; 0: never carried
LIVE_PUSH_MAX_BYTES = env.int("LIVE_PUSH_MAX_BYTES", default=256 * 1024)
#: standings re-reads that may wait at once in one push process (tournaments.results.reread);
#: more are answered 503 with Retry-After, so that idle readers cannot slow the handshakes
LIVE_READERS_MAX = env.int("LIVE_READERS_MAX", default=200)
#: every open socket checks its rights again this often (besides when told: sign-out, a
#: tournament's visibility or people changed), so no socket outlives a right taken away
LIVE_RECHECK_SECONDS = env.float("LIVE_RECHECK_SECONDS", default=10)

# --- Ratings' recompute (tournaments.ratings.jobs) -------------------------------------------
# The queue its task runs on: a worker of its own, so no round's pairing waits behind it.
RATINGS_QUEUE = env.str("RATINGS_QUEUE", default="ratings")
# A burst of changes runs one recompute once no change came for this long…
RATINGS_QUIET_SECONDS = env.float("RATINGS_QUIET_SECONDS", default=2)
# …but never later than this after the first change of the burst.
RATINGS_MAX_DELAY_SECONDS = env.float("RATINGS_MAX_DELAY_SECONDS", default=60)

# --- Celery ---------------------------------------------------------------------------------

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
if CELERY_BROKER_URL:
    CELERY_RESULT_BACKEND: str | None = env.str("CELERY_RESULT_BACKEND", default="") or (
        REDIS_URL or (CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else None)
    )
else:
    # Eager mode: nothing leaves the process; the in-memory transport keeps a stray
    # non-eager call from trying to reach a broker on localhost.
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = None
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_TRACK_STARTED = True
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_TIMEZONE = "UTC"

# --- Auth -----------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The axes backend first: it refuses a locked-out username or address before any password is
# checked, on every door that calls authenticate() (login page, admin, API token).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
# a refused form says why in the page's language, not Django's English «403 Forbidden»
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"
LOGIN_REDIRECT_URL = "tournaments:home"
LOGOUT_REDIRECT_URL = "tournaments:home"

# --- Internationalisation -------------------------------------------------------------------

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Form inputs render and parse dates as HTML's <input type="date"> holds them (YYYY-MM-DD) in
# every language; the Russian DD.MM.YYYY made the browser drop the value (config/formats).
FORMAT_MODULE_PATH = ["config.formats"]
# Off: the interface is Russian until the user picks English with the switch, whatever the
# browser asks for (club laptops often run an English system). On: Accept-Language counts too.
LANGUAGE_FROM_BROWSER = env.bool("LANGUAGE_FROM_BROWSER", default=False)

#: seconds a live standings table may be shown to visitors who are not signed in after the
#: results changed (their pages refresh every 20 s); organisers and referees always see the
#: current results
STANDINGS_SPECTATOR_MAX_AGE = env.int("STANDINGS_SPECTATOR_MAX_AGE", default=10)
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Moscow")
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Uploaded files (the protocols' photographs): the project folder's media/ in the embedded mode;
# in production any backend of Django's storage API, e.g. django-storages' S3 one for an
# S3-compatible store (docs/production.md). They are never served as static files: a view that
# checks who may see the match streams them.
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "media")
STORAGES = {
    "default": {"BACKEND": env.str("FILE_STORAGE_BACKEND",
                                   default="django.core.files.storage.FileSystemStorage")},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
if env.str("AWS_STORAGE_BUCKET_NAME", default=""):  # django-storages' S3 (keys: boto3's own)
    STORAGES["default"]["OPTIONS"] = {
        "bucket_name": env.str("AWS_STORAGE_BUCKET_NAME"),
        "endpoint_url": env.str("AWS_S3_ENDPOINT_URL", default="") or None,
        "default_acl": "private", "querystring_auth": True,
    }
# With DEBUG on (development, tests) whitenoise serves straight from the source folders, so
# nothing needs collectstatic; in production it serves STATIC_ROOT.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
# Files browsers ask for at the site's root (/favicon.ico), served as they are
WHITENOISE_ROOT = BASE_DIR / "public"

# --- Security -------------------------------------------------------------------------------

SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
    # Only behind a proxy that sets X-Forwarded-Proto itself and strips it from clients.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts and styles from this site only, inline ones only
# with the response's nonce ({{ CSP_NONCE }} in templates); no plugins, no framing, forms post
# here only. Images may be data: URLs (Swagger UI's icons); Redoc runs its search in a blob:
# worker.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "worker-src": [SELF, "blob:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}

# --- API ------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    # Token first: an anonymous API call gets 401 with a WWW-Authenticate header.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.tokens.TokenAuthentication",  # knox, without its per-request sweep
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # config/schema.py: the documented responses are the real ones (every error code too)
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    # JSON deeper than config.inputs.MAX_JSON_DEPTH, or with NUL in a string, is a 400
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "config.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    # Writes only (config/throttling.py); reads stay free for the hall's spectators.
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.UserWriteThrottle",
        "config.throttling.AnonWriteThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "write_user": env.str("API_WRITE_RATE", default="600/min") or None,
        "write_anon": env.str("API_ANON_WRITE_RATE", default="60/min") or None,
    },
    # How many proxies put their address in X-Forwarded-For (1 behind deploy/nginx.conf): the
    # client address of the throttles is the one the nearest trusted proxy saw. 0: REMOTE_ADDR.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}
# Failed sign-ins (login page, admin, API token), counted by django-axes per username and per
# client address: at a limit that attempt and the next ones answer 429 until a window (seconds)
# has passed without a failure. See accounts/lockout.py.
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=30)
LOGIN_FAILURE_WINDOW = env.int("LOGIN_FAILURE_WINDOW", default=900)
AXES_HANDLER = "accounts.lockout.LockoutHandler"
AXES_FAILURE_LIMIT = "accounts.lockout.username_limit"
AXES_COOLOFF_TIME = "accounts.lockout.window"
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_USERNAME_CALLABLE = "accounts.lockout.username"
AXES_CLIENT_IP_CALLABLE = "accounts.lockout.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_RESET_ON_SUCCESS = True  # the username's failures only (accounts.lockout.LockoutHandler)
# an attempt axes already refused (its username or its address locked) is not a guess: counted,
# it would lock every username a locked address names (accounts.lockout)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_DISABLE_ACCESS_LOG = True  # failures are what is counted; sign-ins are not logged
AXES_VERBOSE = False
# API tokens (django-rest-knox, accounts/tokens.py): hashed, one per client, each expiring.
API_TOKEN_TTL_HOURS = env.int("API_TOKEN_TTL_HOURS", default=7 * 24)
API_TOKEN_MEMORY_SECONDS = env.int("API_TOKEN_MEMORY_SECONDS", default=60)  # token_memory.py
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=API_TOKEN_TTL_HOURS),
    "AUTH_HEADER_PREFIX": "Token",  # what clients send today: Authorization: Token …
    "AUTO_REFRESH": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Domino scoresheet and tournament API",
    "DESCRIPTION": (
        "Score sheets of sports domino matches and club tournaments. Every 4xx response has "
        'the body {"errors": [{"code": …, "message": …, "field": …}]}.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc from the installed drf-spectacular-sidecar, not from a CDN
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # a season's scope (players or pairs) is not the standings' scope (entries, teams, players)
    "ENUM_NAME_OVERRIDES": {"SeasonScopeEnum": "tournaments.models.ratings.Season.Scope",
                            "ScopeEnum": ["entries", "teams", "players"]},
}

# --- Logging --------------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"plain_refusals": {"()": "config.logs.PlainRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        # Django's own handlers on "django" (a console one while DEBUG is on) printed each of
        # its records a second time: everything goes to the root's handler alone
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # a refusal (403) in one line, without the traceback of PermissionDenied
        "django.request": {"filters": ["plain_refusals"]},
    },
}
