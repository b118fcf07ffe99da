"""A small OpenID Connect provider for the tests (django-oauth-toolkit), run beside them in its
own process by :mod:`tests.oidc_provider.server`: a real provider, with its own users, groups,
signing key and database."""

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
SECRET_KEY = os.environ.get("PROVIDER_SECRET_KEY", "test-provider-only")
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "tests.oidc_provider.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [HERE / "templates"],
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("PROVIDER_DB", ":memory:"),
    }
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
USE_TZ = True
LOGIN_URL = "/login/"
# The provider's cookies must not be mixed up with caseflow's on the same host.
SESSION_COOKIE_NAME = "provider-session"
CSRF_COOKIE_NAME = "provider-csrf"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": os.environ.get("PROVIDER_RSA_KEY", ""),
    "OIDC_ISS_ENDPOINT": os.environ.get("PROVIDER_ISSUER", ""),
    "OAUTH2_VALIDATOR_CLASS": "tests.oidc_provider.validator.Validator",
    "PKCE_REQUIRED": True,
    "SCOPES": {
        "openid": "OpenID Connect",
        "profile": "Profile",
        "email": "E-mail",
        "offline_access": "Stay signed in",
    },
}
