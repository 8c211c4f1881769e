"""Settings for the card club, read from the environment.

Unset, everything runs on embedded defaults (a SQLite file in the project, the in-memory channel
layer, mail to the console) so `make run` works on a fresh machine; `DATABASE_URL` and `REDIS_URL`
switch to PostgreSQL and Redis, which is what several Daphne processes behind one address need.
Production adds `config.production` on top.
"""

from __future__ import annotations

import os
from pathlib import Path

import environ

from config import sqlite as sqlite_backend
from config.database import postgresql_options

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default="dev-only-insecure-key-change-me-in-production-0123456789")
# Earlier keys, still accepted for what they signed (sessions, and the manifests of backups made before a rotation).
SECRET_KEY_FALLBACKS = env.list("SECRET_KEY_FALLBACKS", default=[])
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "accounts",
    "rules",
    "tables",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.content_security.SameHostSocketCSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "accounts.middleware.MemberTimeZoneMiddleware",
    "accounts.middleware.MemberLanguageMiddleware",  # the member's saved language over LocaleMiddleware's choice
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

# Content-Security-Policy (django-csp): only the site's own scripts, styles and sockets. Templates carry no
# inline <script>, <style>, style= or on*= (tests/test_content_security_policy.py scans every main page);
# config.content_security adds the page's own ws:/wss: origin to connect-src.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "connect-src": ["'self'"],
        "img-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

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
                "rules.context_processors.club",
            ],
            # The tag libraries live with their features (tables/<feature>/templatetags.py), not in an app's
            # templatetags/ package, so they are named here.
            "libraries": {
                "cards": "tables.play.templatetags",
                "quickplay": "tables.quickplay.templatetags",
                "invitations": "tables.invitations.templatetags",
                "chat": "tables.chat.templatetags",
                "rules": "rules.templatetags",
            },
        },
    },
    {
        # Only the table's board (templates/jinja2/): see config/jinja2.py for why.
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "config.jinja2.environment"},
    },
]

SQLITE_PATH = BASE_DIR / "db.sqlite3"
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{SQLITE_PATH}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # config.sqlite is Django's backend with the process's writers queueing in Python, opened with
    # IMMEDIATE transactions, WAL and a busy timeout (see there).
    DATABASES["default"]["ENGINE"] = "config.sqlite"
    DATABASES["default"]["OPTIONS"] = dict(sqlite_backend.OPTIONS)
    # A file, not memory: threads and sockets in tests need to share it. One per process, so two
    # test runs on one machine never delete each other's database.
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / f"test-{os.getpid()}.sqlite3")}
# Under ASGI every request and consumer call may run in its own thread: no persistent connections.
DATABASES["default"]["CONN_MAX_AGE"] = 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # ...but on PostgreSQL a new connection per request costs more than the request: Django's pool
    # (psycopg-pool) hands each thread a connection and takes it back when the request ends.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2, "max_size": env.int("DATABASE_POOL_SIZE", default=20), "timeout": 10,
    }
    # No lock wait and no statement runs for ever: PostgreSQL ends them with an error, so a table's clock step
    # waiting on a lock fails, is logged and is retried, and never freezes its table (config/database.py, which
    # also says which commands run with other limits). Seconds; 0: none.
    DATABASES["default"]["OPTIONS"]["options"] = postgresql_options(
        lock_timeout=env.float("DATABASE_LOCK_TIMEOUT", default=10),
        statement_timeout=env.float("DATABASE_STATEMENT_TIMEOUT", default=30),
        given=DATABASES["default"]["OPTIONS"].get("options", ""),
    )

REDIS_URL = env.str("REDIS_URL", default="")
# Messages a channel holds before the layer drops what comes next (Channels' default: 100). A lobby
# socket reads its channel between bursts, and a burst can be one count change for each socket that
# arrives when a club evening starts, plus a quick-play sweep's notices: a few thousand small messages
# cost little memory and keep a member's own notices from being dropped.
CHANNEL_CAPACITY = 3000
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # channels-redis waits 5 s on BRPOP; redis-py's own 5 s socket timeout would cut that
            # wait off and kill idle sockets with 1011, so the socket timeout is set well above it.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 60}], "capacity": CHANNEL_CAPACITY,
                       "expiry": 30},
        }
    }
    # Django's Redis cache with its pool shared by the process's threads (see config/redis_cache.py).
    CACHES = {"default": {"BACKEND": "config.redis_cache.RedisCache", "LOCATION": REDIS_URL}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.SweepingInMemoryChannelLayer",
                                  "CONFIG": {"capacity": CHANNEL_CAPACITY}}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Several processes share one Redis: a move's snapshot of its table goes there too (tables/play/snapshots.py).
TABLE_SNAPSHOTS_SHARED = bool(REDIS_URL)

# Sessions are read from the cache and written through to the database: one query less on every request
# (config/sessions.py: read from the database while the cache is down).
# The cache is per process without REDIS_URL (one process), shared in Redis with it (several processes), so
# a log-out is seen by every process at once.
SESSION_ENGINE = "config.sessions"

# Table sockets close themselves (with 4012, "come back", on which static/js/sockets.js reconnects) before
# Daphne's own timeout would close them with 1000 (which htmx does not retry); the reconnect sends the whole
# table again.
TABLE_SOCKET_MAX_AGE = env.float("TABLE_SOCKET_MAX_AGE", default=3600.0)
# Each process with sockets sweeps quick play this often (seconds; 0: never), so requests come due on time.
QUICK_PLAY_SWEEP_SECONDS = env.float("QUICK_PLAY_SWEEP_SECONDS", default=5.0)
# The table clock (tables/play/background.py): every serving process looks this often (seconds; 0: never) for
# tables where something is due (a bot's move, a time-out, the next round, a member gone offline), and at once
# when a move of its own made something due sooner. Owned by the server: it runs with no page open.
TABLE_CLOCK_SECONDS = env.float("TABLE_CLOCK_SECONDS", default=1.0)
# A pass of the table clock that takes longer than this (seconds) is logged as an error and given up: its thread is
# left to finish it and the next passes run on a fresh one, so one stuck pass never stops the process's clock
# (0: no limit).
TABLE_CLOCK_PASS_TIMEOUT = env.float("TABLE_CLOCK_PASS_TIMEOUT", default=60.0)
# Bots' searches (normal and strong bots' moves) may take this share of one core of each process's table clock,
# shared fairly between the members they serve (tables/play/search_budget.py); 0: no budget.
TABLE_SEARCH_SHARE = env.float("TABLE_SEARCH_SHARE", default=0.25)
# Threads per process that run those searches off the table clock's own (tables/play/search_pool.py), so a search
# never holds up another table's bot; 0: on the clock's thread, one a pass. More processes add search capacity, more
# threads in one process barely do (one thread's Python runs at a time).
TABLE_SEARCH_THREADS = env.int("TABLE_SEARCH_THREADS", default=1)
# How fast bots move at a new table unless its creator chose (instant, brisk, normal, slow: tables/play/pace.py).
TABLE_BOT_SPEED = env.str("TABLE_BOT_SPEED", default="normal")
# A running table whose every member has been offline this long: the bots finish the round and it closes.
TABLE_OFFLINE_CLOSE_MINUTES = env.float("TABLE_OFFLINE_CLOSE_MINUTES", default=10.0)
# A table still waiting for players that no member seated there has attended this long (no page of the table
# open, not in the lobby) closes by itself, leaving the lobby and its creator's share (tables/play/services/
# open_tables.py); 0: open tables wait for ever.
TABLE_OPEN_IDLE_CLOSE_MINUTES = env.float("TABLE_OPEN_IDLE_CLOSE_MINUTES", default=30.0)
# Sockets (lobby and table together) one member may hold open in each process (0: no cap); the next is
# accepted and closed with 4429, which htmx does not retry (see tables/play/socket_quota.py).
SOCKETS_PER_MEMBER = env.int("SOCKETS_PER_MEMBER", default=12)
# One member's tables (tables/play/services/table_limits.py; 0: no limit): at most this many waiting for players
# at once, and at most TABLE_STARTS_PER_MEMBER created (lobby or quick play, with bots or not) in any
# TABLE_STARTS_WINDOW_MINUTES; the lobby lists at most LOBBY_TABLES_PER_MEMBER of one member's tables.
TABLES_OPEN_PER_MEMBER = env.int("TABLES_OPEN_PER_MEMBER", default=3)
TABLE_STARTS_PER_MEMBER = env.int("TABLE_STARTS_PER_MEMBER", default=10)
TABLE_STARTS_WINDOW_MINUTES = env.float("TABLE_STARTS_WINDOW_MINUTES", default=10.0)
LOBBY_TABLES_PER_MEMBER = env.int("LOBBY_TABLES_PER_MEMBER", default=5)
# Correspondence tables (a move every few hours or days, tables/play/pace.py MOVE_HOURS_CHOICES): seats one member may
# hold at such tables, open or running (0: no cap), and how long one still waiting for players stays in the lobby.
CORRESPONDENCE_TABLES_PER_MEMBER = env.int("CORRESPONDENCE_TABLES_PER_MEMBER", default=10)
CORRESPONDENCE_OPEN_CLOSE_DAYS = env.float("CORRESPONDENCE_OPEN_CLOSE_DAYS", default=7.0)
# Web Push (accounts/webpush.py): the VAPID private key (PEM, or the raw key base64url; deploy/README.md says how to
# make one). Unset: one is made once and kept in WEBPUSH_VAPID_KEY_FILE. The subject is how a push service reaches
# the club's operator (a mailto: or https: address, RFC 8292).
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_VAPID_KEY_FILE = Path(env.str("WEBPUSH_VAPID_KEY_FILE", default=str(BASE_DIR / "var" / "vapid_private.pem")))
WEBPUSH_VAPID_SUBJECT = env.str("WEBPUSH_VAPID_SUBJECT", default="mailto:club@cardclub.invalid")
# The push services a device may name (patterns of their addresses): the server POSTs to them, so no other address is
# kept. Those of Chrome and Edge (FCM), Firefox, Safari and Windows.
WEBPUSH_ENDPOINTS = env.list("WEBPUSH_ENDPOINTS", default=[
    r"https://fcm\.googleapis\.com/", r"https://updates\.push\.services\.mozilla\.com/",
    r"https://web\.push\.apple\.com/", r"https://[a-z0-9.-]+\.notify\.windows\.com/",
])
# Messages one socket may send at once, and on average a second after that (tables/play/socket_rate.py): the
# next is not read, and the socket is closed with 4420, which htmx does not retry. A page sends one per click.
# Burst 0: no limit.
SOCKET_MESSAGE_BURST = env.int("SOCKET_MESSAGE_BURST", default=30)
SOCKET_MESSAGES_PER_SECOND = env.float("SOCKET_MESSAGES_PER_SECOND", default=5.0)
# Matches a member (or bot) plays in a game before their rating there counts as established; until then it is
# shown as "provisional (n of N)" (tables/ratings).
RATING_PROVISIONAL_MATCHES = env.int("RATING_PROVISIONAL_MATCHES", default=5)

# How long an invitation to a private table stands (minutes) unless the table starts or closes sooner.
INVITATION_MINUTES = env.float("INVITATION_MINUTES", default=30.0)
# Invitation spam (tables/invitations/services/limits.py), counted from the database so that every process agrees:
# invitations one member may send in an hour, invitations one member may receive in an hour (from everyone), and
# how long after a member declined, or the inviter withdrew, that inviter may not invite that member again (0: off).
INVITATIONS_SENT_PER_HOUR = env.int("INVITATIONS_SENT_PER_HOUR", default=30)
INVITATIONS_RECEIVED_PER_HOUR = env.int("INVITATIONS_RECEIVED_PER_HOUR", default=10)
INVITATION_COOLDOWN_MINUTES = env.float("INVITATION_COOLDOWN_MINUTES", default=10.0)
# `manage.py backup` (README, "Backups"): where the copies of the database go, and how many are kept.
BACKUP_DIR = Path(env.str("BACKUP_DIR", default=str(BASE_DIR / "var" / "backups")))
BACKUP_KEEP = env.int("BACKUP_KEEP", default=14)

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "lobby"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# Nobody learns from the account pages whether an email is a member's (issue 39): with enumeration prevention on,
# signing up with a member's email answers exactly as a new one ("we sent you a link") and mails that member that
# they already have an account; a password reset answers the same for any address. allauth (65.x) can do that at
# sign-up only when every new member confirms their email before they sign in: with "optional" it must refuse the
# taken address on the form, which is the oracle. Members without a confirmed address are sent a link at log-in.
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupExtraForm"
# The club's name signs the account emails (allauth would use the host name: see accounts/adapter.py).
CLUB_NAME = env.str("CLUB_NAME", default="The Card Club")
# The name under the club's icon on a phone's home screen, where about 12 characters fit (config/pwa.py).
CLUB_SHORT_NAME = env.str("CLUB_SHORT_NAME", default="Card Club")
ACCOUNT_ADAPTER = "accounts.adapter.ClubAccountAdapter"
# Failed logins: at most 5 per account in 5 minutes (and 10 a minute per address).
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/300s/key"}
# "Per address" is REMOTE_ADDR: behind the README's nginx, Daphne's --proxy-headers makes that the client's
# address, so this stays 0. N only where N proxies that append to X-Forwarded-For reach Daphne without it:
# allauth then counts the N-th entry from the right (see README, "Production layout").
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)

EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="club@cardclub.invalid")
# Django's SMTP backend (EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend) reads these: in production a
# relay that sends for the club's domain (SPF and DKIM are the relay's). The timeout bounds each SMTP call, so a
# relay that stops answering holds up a table clock's pass for seconds, not for ever.
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_TIMEOUT = env.float("EMAIL_TIMEOUT", default=10.0)
# The site's address as members reach it: the emails' links (a table, unsubscribing) are made from it, outside
# any request. No trailing slash.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# The emails about correspondence tables (tables.notices): a reminder this many hours before a member's time for a
# move runs out (at half the table's hours per move when that is less).
NOTICE_REMINDER_HOURS = env.float("NOTICE_REMINDER_HOURS", default=6.0)

# English and German (issue 23): the member's saved choice (accounts.middleware), else the header's switcher (its
# cookie), else the browser's Accept-Language (LocaleMiddleware); sockets choose the same way (accounts.languages).
# The translations are in locale/ (`make messages` extracts them, `make install` compiles them).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
if DEBUG:
    STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
WHITENOISE_USE_FINDERS = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
