"""Production settings: the environment must supply a real secret, hosts and HTTPS is assumed.

`DJANGO_SETTINGS_MODULE=config.production manage.py check --deploy` is clean with a proper
`SECRET_KEY` and `ALLOWED_HOSTS` set.
"""

from __future__ import annotations

from config.settings import *  # noqa: F403
from config.settings import env

DEBUG = False
SECRET_KEY = env.str("SECRET_KEY")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = False
# nginx (deploy/nginx/cardclub.conf) sets X-Forwarded-Proto, replacing any the client sent; Daphne's
# --proxy-headers passes it on as the scheme too. The client's address: see ALLAUTH_TRUSTED_PROXY_COUNT.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
