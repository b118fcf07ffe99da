"""caseflow settings: one module, read from the environment.

The embedded default (no ``DATABASE_URL``) runs on a SQLite file and a file-system Celery broker
under ``var/`` and generates its own development keys there. Production sets every key explicitly.
"""

import base64
import ipaddress
import os
import secrets
from pathlib import Path

import dj_database_url
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CASEFLOW_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value in (None, "") else int(value)


EMBEDDED = not os.environ.get("DATABASE_URL")
DEBUG = env_bool("DEBUG", False)


def new_audit_signing_key() -> str:
    """A new Ed25519 private key (its 32-byte seed, URL-safe base64) for AUDIT_SIGNING_KEY."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()


def _embedded_keys() -> dict[str, str]:
    """Development keys for the embedded default, generated once into var/ (git-ignored); a key
    added in a later version is added to an existing file."""
    path = VAR_DIR / "keys.env"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        lines = [
            f"SECRET_KEY={secrets.token_urlsafe(50)}",
            f"FIELD_ENCRYPTION_KEYS={Fernet.generate_key().decode()}",
            f"BLIND_INDEX_KEY={secrets.token_urlsafe(32)}",
            f"AUDIT_SIGNING_KEY={new_audit_signing_key()}",
        ]
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    keys = {}
    for line in path.read_text().splitlines():
        name, _, value = line.partition("=")
        keys[name.strip()] = value.strip()
    if "AUDIT_SIGNING_KEY" not in keys:
        keys["AUDIT_SIGNING_KEY"] = new_audit_signing_key()
        with path.open("a") as fh:
            fh.write(f"AUDIT_SIGNING_KEY={keys['AUDIT_SIGNING_KEY']}\n")
    return keys


_fallback = _embedded_keys() if EMBEDDED else {}


def secret(name: str) -> str:
    value = os.environ.get(name) or _fallback.get(name)
    if not value:
        raise ImproperlyConfigured(f"{name} must be set in the environment")
    return value


SECRET_KEY = secret("SECRET_KEY")
# Comma-separated Fernet keys, newest first. Never derived from SECRET_KEY.
FIELD_ENCRYPTION_KEYS = [k.strip() for k in secret("FIELD_ENCRYPTION_KEYS").split(",") if k.strip()]
# Key of the HMAC blind index used for exact-match look-ups (conflict check).
BLIND_INDEX_KEY = secret("BLIND_INDEX_KEY")
#: Signs the audit log's tree heads (Ed25519 seed, URL-safe base64). Held outside the database,
#: like the field keys: someone who can write the database but not read this cannot publish a
#: head for a rewritten log. A fixed development key only under DEBUG or the test runner; the
#: deploy check refuses it.
AUDIT_DEV_SIGNING_KEY = base64.urlsafe_b64encode(b"caseflow-development-only-key-00").decode()
if os.environ.get("AUDIT_SIGNING_KEY") or _fallback.get("AUDIT_SIGNING_KEY"):
    AUDIT_SIGNING_KEY = secret("AUDIT_SIGNING_KEY")
elif DEBUG or os.environ.get("PYTEST_VERSION"):
    AUDIT_SIGNING_KEY = AUDIT_DEV_SIGNING_KEY
else:
    raise ImproperlyConfigured("AUDIT_SIGNING_KEY must be set in the environment")

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    # The operators' admin (superusers only; no case content): replaces django.contrib.admin.
    "caseflow.accounts.admin_site.OperatorAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "axes",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    # caseflow's apps, lowest layer first (see README, "Layout"; checked by import-linter).
    "caseflow.audit",
    "caseflow.outbox",
    "caseflow.accounts",
    "caseflow.inbox",
    "caseflow.cases",
    "caseflow.safety",
    "caseflow.agreements",
    "caseflow.checkins",
    "caseflow.casework",
    "caseflow.confidentiality",
    "caseflow.oversight",
    "caseflow.agency",
    "caseflow.partners",
    "caseflow.calls",
    "caseflow.community",
    "caseflow.shelter",
    "caseflow.court",
    "caseflow.cycle",
    "caseflow.wellbeing",
    "caseflow.servicelog",
    "caseflow.transfers",
    "caseflow.assistance",
    "caseflow.reporting",
    "caseflow.platform",
    "caseflow.api",
    "caseflow.imports",
    "caseflow.demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "caseflow.middleware.RequestIdMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # django-otp's, the session's device loaded with SQL compiled once per process.
    "caseflow.accounts.backends.CompiledOTPMiddleware",
    "caseflow.middleware.ActiveMembershipMiddleware",
    "caseflow.middleware.AgencyTimeZoneMiddleware",
    "caseflow.middleware.SessionTimeoutMiddleware",
    "caseflow.middleware.SecondFactorMiddleware",
    "caseflow.accounts.language.LanguageMiddleware",
    # After the language: the 413 and error pages are in the reader's language. Nothing above
    # reads the body (the security token is checked later, when the view is chosen).
    "caseflow.middleware.ErrorPageMiddleware",
    "caseflow.middleware.RequestSizeLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # After the messages: a person signed out here is told why on the sign-in page.
    "caseflow.middleware.ProviderRecheckMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "caseflow.middleware.NoStoreMiddleware",
    "caseflow.cases.middleware.AccessDeniedAuditMiddleware",
    "caseflow.api.middleware.RefusedCallAuditMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "caseflow.urls"
WSGI_APPLICATION = "caseflow.wsgi.application"

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
                "caseflow.context_processors.caseflow",
                "caseflow.checkins.context_processors.checkins",
                "caseflow.accounts.language.context",
            ],
            # Django's i18n library, its constant {% translate %} looked up once per language.
            "libraries": {"i18n": "caseflow.lib.templatetags_i18n"},
            # Django's {% url %}, each address reversed once per process.
            "builtins": ["caseflow.lib.templatetags_url"],
        },
    },
]
# The "i18n" library above stands in for Django's on purpose (a superset of it, the same tags),
# which Django's template check reports as two modules with one name.
SILENCED_SYSTEM_CHECKS = ["templates.W003"]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'caseflow.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
# Each request is one transaction: the audit event of a read or write commits with it or not at
# all (fail closed).
DATABASES["default"]["ATOMIC_REQUESTS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            # Writers take the lock at BEGIN, so the audit sequencer and the scheduler's claims
            # serialise instead of failing with "database is locked" half-way.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, its health check without a round trip for a connection that has just answered
    # and whose socket shows nothing (a restarted server's does): caseflow.lib.postgresql.
    DATABASES["default"]["ENGINE"] = "caseflow.lib.postgresql"
    # caseflow's queries are short and indexed. PostgreSQL's JIT compiler starts when a plan's
    # estimated cost passes a threshold, and estimates grow with the tables: at the stretch tier
    # it spent 22 ms compiling the dashboard's 4 ms query (BENCHMARKS.md). Off for caseflow.
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = f"{_options.get('options', '')} -c jit=off".strip()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
]
# How long an enrolment or password-reset link works (it also stops once used).
PASSWORD_RESET_TIMEOUT = env_int("ACCOUNT_LINK_HOURS", 48) * 3600

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # Axes first: a locked-out (username, address) pair never reaches the password check.
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, the signed-in user loaded with SQL compiled once per process.
    "caseflow.accounts.backends.AccountBackend",
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "accounts:login"

# The language of a deployment with no other choice made. caseflow's own strings are written in UK
# English, so "en-gb" reads them as written; a US deployment sets CASEFLOW_LANGUAGE=en-us. An agency
# admin picks the agency's locale, and each member of staff may pick their own language over it
# (caseflow/accounts/language.py). There is deliberately no plain "en": Python's gettext expands
# "en" to "en_US" first, so a plain "en" would silently read the US catalogue.
LANGUAGE_CODE = os.environ.get("CASEFLOW_LANGUAGE", "en-gb")
# Languages caseflow's interface speaks, named in their own words. en-US and en-GB differ in
# words, not just spelling ("protective order" / "non-molestation or occupation order").
LANGUAGES = [
    ("en-gb", "English (UK)"),
    ("en-us", "English (US)"),
    ("es", "Español"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates, times and numbers in each language's own way (caseflow/formats/<locale>/formats.py).
FORMAT_MODULE_PATH = ["caseflow.formats"]
TIME_ZONE = "UTC"
# Where an agency's staff work when its admin has not chosen a zone (``Agency.time_zone``): the
# day of the home page's today queue and the times staff enter and read. (Survivors' times follow
# each survivor's own time zone, from their safe-contact profile.)
STAFF_TIME_ZONE = os.environ.get("STAFF_TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(
    os.environ.get("STATIC_ROOT", VAR_DIR / "static" if EMBEDDED else BASE_DIR / "staticfiles")
)
if EMBEDDED:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not EMBEDDED
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = EMBEDDED

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# --- Security baseline -------------------------------------------------------------------
HTTPS = env_bool("HTTPS", not EMBEDDED)
SESSION_COOKIE_NAME = "__Host-caseflow-session" if HTTPS else "caseflow-session"
# A refused form gets caseflow's own page, in the reader's language, with the way back to its draft.
CSRF_FAILURE_VIEW = "caseflow.errors.csrf_failure"
CSRF_COOKIE_NAME = "__Host-caseflow-csrf" if HTTPS else "caseflow-csrf"
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Strict"
SESSION_COOKIE_AGE = env_int("SESSION_ABSOLUTE_SECONDS", 12 * 3600)
SESSION_IDLE_SECONDS = env_int("SESSION_IDLE_SECONDS", 15 * 60)
# Sign-in at an agency's identity provider: how often a session asks the provider again whether
# the person is still allowed in, and which ``acr`` values say the provider checked a second
# factor (an ``amr`` of mfa, otp, hwk and the like says so too).
OIDC_RECHECK_SECONDS = env_int("OIDC_RECHECK_SECONDS", 300)
OIDC_MFA_ACR_VALUES = tuple(
    v
    for v in os.environ.get(
        "OIDC_MFA_ACR_VALUES",
        "http://schemas.openid.net/pape/policies/2007/06/multi-factor,mfa",
    ).split(",")
    if v
)
# Unsaved text of long forms, kept on the server (encrypted, author only) for this many days.
DRAFT_DAYS = env_int("DRAFT_DAYS", 7)
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
# Django's database sessions, each request's read compiled to SQL once per process.
SESSION_ENGINE = "caseflow.accounts.sessions"
SECURE_SSL_REDIRECT = HTTPS and env_bool("SECURE_SSL_REDIRECT", True)
# The health checks (``/health/`` and the paths under it) answer over plain HTTP too: the
# container's own check asks gunicorn directly, which speaks no TLS (docker/healthcheck.py).
SECURE_REDIRECT_EXEMPT = [r"^health/"]
SECURE_HSTS_SECONDS = 31536000 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Header set by the trusted reverse proxy carrying the client address; empty: use REMOTE_ADDR.
TRUSTED_PROXY_IP_HEADER = os.environ.get("TRUSTED_PROXY_IP_HEADER", "")
# Addresses or networks of the reverse proxies (comma-separated): the header above is read only
# on requests whose socket peer is one of them. Empty: the header is never trusted.
TRUSTED_PROXIES = [n.strip() for n in os.environ.get("TRUSTED_PROXIES", "").split(",") if n.strip()]
for _net in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_net, strict=False)
    except ValueError as exc:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: not an address or network: {_net}") from exc
if HTTPS and env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'none'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        # Evidence recordings and videos, played from the audited file view.
        "media-src": ["'self'"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
    }
}

# --- caseflow ------------------------------------------------------------------------------
# Hours during which the author of a case note may still change it; after that only an amendment
# (which keeps the earlier text and the reason) can.
NOTE_EDIT_HOURS = env_int("NOTE_EDIT_HOURS", 24)
BREAK_GLASS_MINUTES = env_int("BREAK_GLASS_MINUTES", 60)
# Emergency accesses (granted or refused) one user may attempt within an hour; beyond it they are
# refused and the user's supervisors are alerted.
BREAK_GLASS_PER_HOUR = env_int("BREAK_GLASS_PER_HOUR", 5)
# Set by `manage.py demo` for its own processes: shows the demo banner.
DEMO_MODE = env_bool("CASEFLOW_DEMO", False)

# --- Celery ----------------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {"visibility_timeout": 3600}
else:
    _broker = VAR_DIR / "broker"
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker / "queue"),
        "data_folder_out": str(_broker / "queue"),
        "processed_folder": str(_broker / "processed"),
        "control_folder": str(_broker / "control"),
        "store_processed": False,
    }
    # The folders exist before any process sends a task (not only under `manage.py demo`).
    for _folder in ("queue", "processed", "control"):
        (_broker / _folder).mkdir(parents=True, exist_ok=True)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's prefork pool, its processes' loops run with room on the frame stack (as gunicorn's
# workers): caseflow/platform/pool.py says why.
CELERY_WORKER_POOL = "caseflow.platform.pool:TaskPool"
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE: dict = {}

# --- Cache ----------------------------------------------------------------------------------
# An optimisation only: caseflow reads it through caseflow.lib.softcache, which falls back to the
# database on any error (that module says why the backend is not told to ignore errors). The short
# timeouts keep a Redis that hangs from holding a request for long.
CACHE_SOCKET_TIMEOUT_SECONDS = 0.5
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's, with one redis-py client per connection pool (caseflow.lib.softcache).
            "BACKEND": "caseflow.lib.softcache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": CACHE_SOCKET_TIMEOUT_SECONDS,
                "socket_timeout": CACHE_SOCKET_TIMEOUT_SECONDS,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.filebased.EmailBackend"
    if EMBEDDED
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_FILE_PATH = str(VAR_DIR / "mail")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "caseflow@localhost")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")

# No personal data in logs: every handler passes through the redacting filter, the development
# server's access lines included; error e-mails go out only with DEBUG off.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact": {"()": "caseflow.lib.logging_filters.RedactPersonalData"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["redact"]},
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false", "redact"],
        },
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["redact"],
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "django": {"handlers": ["mail_admins"], "level": "INFO"},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
        # axes names usernames and addresses in its INFO and WARNING lines.
        "axes": {"level": "ERROR"},
    },
}

# --- safety plans and risk assessment ----------------------------------------------------------
# Days until a safety plan's next review, by the case's risk level.
SAFETY_REVIEW_DAYS = {"high": 14, "medium": 30, "standard": 90, "unknown": 30}
# Protective orders expiring within this many days get a follow-up.
ORDER_EXPIRY_WARNING_DAYS = env_int("ORDER_EXPIRY_WARNING_DAYS", 28)
CELERY_BEAT_SCHEDULE["safety-followups-sweep"] = {
    "task": "caseflow.safety.tasks.followups_sweep",
    "schedule": 3600.0,
}

# --- agreements (contact-boundary agreements, breach register) -------------------------------
# Largest evidence file accepted, in bytes.
EVIDENCE_MAX_BYTES = env_int("EVIDENCE_MAX_BYTES", 10 * 1024 * 1024)
# Largest request body accepted at all (413 above it, before the body is read): the largest
# evidence file and room for the form around it. Form data other than files is capped lower.
# Largest evidence file of each kind attached to notes and incidents (caseflow.cases.evidence).
EVIDENCE_LIMITS = {
    "image": env_int("EVIDENCE_IMAGE_MAX_BYTES", 10 * 1024 * 1024),
    "pdf": env_int("EVIDENCE_PDF_MAX_BYTES", 10 * 1024 * 1024),
    "audio": env_int("EVIDENCE_AUDIO_MAX_BYTES", 15 * 1024 * 1024),
    "video": env_int("EVIDENCE_VIDEO_MAX_BYTES", 25 * 1024 * 1024),
}
# All the evidence one case may hold, in bytes (every file of the case counts).
EVIDENCE_CASE_QUOTA_BYTES = env_int("EVIDENCE_CASE_QUOTA_BYTES", 500 * 1024 * 1024)
REQUEST_MAX_BYTES = env_int(
    "REQUEST_MAX_BYTES", max(EVIDENCE_MAX_BYTES, *EVIDENCE_LIMITS.values()) + 5 * 1024 * 1024
)
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 1024 * 1024)
# Escalation when an agency has no rule of its own: a breach at or above this severity, or
# this many breaches within this many days, asks for a risk re-assessment.
AGREEMENTS_ESCALATION_SEVERITY = os.environ.get("AGREEMENTS_ESCALATION_SEVERITY", "high")
AGREEMENTS_ESCALATION_COUNT = env_int("AGREEMENTS_ESCALATION_COUNT", 3)
AGREEMENTS_ESCALATION_DAYS = env_int("AGREEMENTS_ESCALATION_DAYS", 30)
# Django's default storage: results kept as files (prepared case exports, sealed, under random
# names). No URL serves this folder; a file is handed over only by an audited view.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
# Where evidence files are written (encrypted, under random names; no URL serves this folder).
# A deployment may instead define STORAGES["evidence"] (e.g. an object store).
EVIDENCE_ROOT = Path(os.environ.get("EVIDENCE_ROOT", VAR_DIR / "evidence"))

# --- Confidentiality (releases, retention and purges, aggregate reports) ----------------------
RELEASE_EXPIRY_WARNING_DAYS = env_int("RELEASE_EXPIRY_WARNING_DAYS", 14)
RELEASE_MAX_MONTHS = 12
RETENTION_NARRATIVES_YEARS = env_int("RETENTION_NARRATIVES_YEARS", 3)
RETENTION_RECORD_YEARS = env_int("RETENTION_RECORD_YEARS", 7)
AGGREGATE_MIN_CELL = env_int("AGGREGATE_MIN_CELL", 5)
CELERY_BEAT_SCHEDULE["confidentiality-release-expiry"] = {
    "task": "caseflow.confidentiality.tasks.sweep_release_expiry",
    "schedule": 3600.0,
}
CELERY_BEAT_SCHEDULE["confidentiality-purge-proposals"] = {
    "task": "caseflow.confidentiality.tasks.propose_purges",
    "schedule": 6 * 3600.0,
}
# Funder reports whose period counts more people than this are prepared by a worker (the page
# follows the work), kept sealed for their asker REPORT_KEEP_HOURS and then purged (hourly). A
# report still "being prepared" after REPORT_STALE_SECONDS may be started again by its asker.
REPORT_BACKGROUND_THRESHOLD = env_int("REPORT_BACKGROUND_THRESHOLD", 2000)
REPORT_KEEP_HOURS = env_int("REPORT_KEEP_HOURS", 24)
REPORT_STALE_SECONDS = env_int("REPORT_STALE_SECONDS", 900)
# Evidence packs whose chosen files add up to more than EXPORT_BACKGROUND_BYTES, and case exports
# of a case with more than EXPORT_BACKGROUND_ROWS contacts and breaches, are prepared by a worker
# (the page follows the work), kept sealed as a file for their asker EXPORT_KEEP_HOURS and then
# deleted (hourly); one still "being prepared" after EXPORT_STALE_SECONDS may be started again.
EXPORT_BACKGROUND_BYTES = env_int("EXPORT_BACKGROUND_BYTES", 20 * 1024 * 1024)
EXPORT_BACKGROUND_ROWS = env_int("EXPORT_BACKGROUND_ROWS", 5000)
EXPORT_KEEP_HOURS = env_int("EXPORT_KEEP_HOURS", 24)
EXPORT_STALE_SECONDS = env_int("EXPORT_STALE_SECONDS", 900)
CELERY_BEAT_SCHEDULE["confidentiality-purge-prepared-exports"] = {
    "task": "caseflow.confidentiality.tasks.purge_prepared_exports",
    "schedule": 3600.0,
}
CELERY_BEAT_SCHEDULE["reporting-purge-prepared"] = {
    "task": "caseflow.reporting.tasks.purge_prepared",
    "schedule": 3600.0,
}
# Drafts unchanged for DRAFT_DAYS, and those of deactivated staff, are forgotten hourly.
CELERY_BEAT_SCHEDULE["cases-forget-drafts"] = {
    "task": "caseflow.cases.tasks.forget_expired_drafts",
    "schedule": 3600.0,
}
# Open cases without an active primary advocate are raised with their supervisors daily.
CELERY_BEAT_SCHEDULE["cases-no-primary-check"] = {
    "task": "caseflow.cases.tasks.no_primary_check",
    "schedule": 24 * 3600.0,
}

# --- Audit ----------------------------------------------------------------------------------
# More than this many distinct cases outside one's caseload opened in an hour alerts the
# supervisors.
AUDIT_UNUSUAL_ACCESS_PER_HOUR = env_int("AUDIT_UNUSUAL_ACCESS_PER_HOUR", 10)
# The sequencer chains committed audit events this often (a beat task; see
# caseflow/audit/sequencer.py). verify_audit fails when an event has waited for it longer than
# this plus the slack (a stopped beat, a stuck worker).
AUDIT_SEQUENCE_SECONDS = env_int("AUDIT_SEQUENCE_SECONDS", 5)
AUDIT_SEQUENCE_SLACK_SECONDS = env_int("AUDIT_SEQUENCE_SLACK_SECONDS", 120)
# A signed tree head is published this often and shipped (appended as one JSON line) to
# AUDIT_HEAD_SINK, a file the database's writers cannot change: a write-once or append-only
# mount, another host's share. verify_audit checks the log against the latest head there.
AUDIT_HEAD_SECONDS = env_int("AUDIT_HEAD_SECONDS", 300)
AUDIT_HEAD_SINK = Path(os.environ.get("AUDIT_HEAD_SINK", VAR_DIR / "audit-heads.jsonl"))
CELERY_BEAT_SCHEDULE["audit-sequence"] = {
    "task": "caseflow.audit.tasks.sequence",
    "schedule": float(AUDIT_SEQUENCE_SECONDS),
    "options": {"expires": max(AUDIT_SEQUENCE_SECONDS - 1, 1)},
}
CELERY_BEAT_SCHEDULE["audit-publish-head"] = {
    "task": "caseflow.audit.tasks.publish_head",
    "schedule": float(AUDIT_HEAD_SECONDS),
}
CELERY_BEAT_SCHEDULE["audit-break-glass-expiry"] = {
    "task": "caseflow.oversight.tasks.break_glass_expiry",
    "schedule": 60.0,
}
CELERY_BEAT_SCHEDULE["audit-unusual-access"] = {
    "task": "caseflow.oversight.tasks.unusual_access",
    "schedule": 300.0,
}
# --- Security: second factor, lockout, sessions, operators' admin, logging (issue 7) ----------

OTP_TOTP_ISSUER = "caseflow"
# Password and second factor again before break-glass, role changes, exports and purges.
RECENT_AUTH_MINUTES = env_int("RECENT_AUTH_MINUTES", 5)

AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
# Per (username, address): an abuser elsewhere cannot lock an advocate out.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "caseflow.lib.request_context.client_ip"
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 30) / 60  # hours
AXES_RESET_ON_SUCCESS = True
# A locked account gets the very page a wrong password gets.
AXES_LOCKOUT_CALLABLE = "caseflow.accounts.views.lockout_response"
# Sign-ins are in the audit trail; axes logs no usernames or addresses.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False
AXES_SENSITIVE_PARAMETERS = ["password", "otp_token", "token"]

# Error reports (e-mails to ADMINS) carry no request data and no local variables.
DEFAULT_EXCEPTION_REPORTER_FILTER = "caseflow.lib.logging_filters.NoPersonalDataReporterFilter"


# --- Check-ins, follow-ups and reminders ------------------------------------------------------
# Reminders go out this many minutes before a check-in or follow-up is due, and again at it.
REMINDER_LEAD_MINUTES = env_int("REMINDER_LEAD_MINUTES", 30)
# A check-in still open this long after its due time is marked missed and escalated.
CHECKIN_GRACE_MINUTES = env_int("CHECKIN_GRACE_MINUTES", 60)
# How long a check-in lasts (it must fit wholly inside a safe window).
CHECKIN_MINUTES = env_int("CHECKIN_MINUTES", 15)
# Recurring check-ins exist as rows this many days ahead.
CHECKIN_HORIZON_DAYS = env_int("CHECKIN_HORIZON_DAYS", 28)
# Rows claimed per transaction by the sweep.
SWEEP_BATCH_SIZE = env_int("SWEEP_BATCH_SIZE", 1000)
# An unsent notification whose task was enqueued this long ago is enqueued again (lost broker).
NOTIFY_REQUEUE_SECONDS = env_int("NOTIFY_REQUEUE_SECONDS", 50)
# The scheduler is reported stale when no sweep has completed for this long.
SCHEDULER_STALE_SECONDS = env_int("SCHEDULER_STALE_SECONDS", 300)
# Calendar-feed fetches allowed per token per hour.
CALENDAR_FEED_RATE_PER_HOUR = env_int("CALENDAR_FEED_RATE_PER_HOUR", 60)
# Links in reminder e-mails point here.
CASEFLOW_BASE_URL = os.environ.get("CASEFLOW_BASE_URL", "http://localhost:8000").rstrip("/")
# The outbox relay sends an intent again when it was sent this long ago and is still not done
# (its message, or the worker running it, was lost). Longer than a task's retries take.
OUTBOX_RESEND_SECONDS = env_int("OUTBOX_RESEND_SECONDS", 600)
CELERY_BEAT_SCHEDULE["outbox-relay"] = {
    "task": "caseflow.outbox.tasks.relay",
    "schedule": 60.0,
    "options": {"expires": 55},
}
CELERY_BEAT_SCHEDULE["checkins-sweep"] = {
    "task": "caseflow.checkins.tasks.sweep_due",
    "schedule": 60.0,
    # A sweep that waited longer than a minute is superseded by the next one.
    "options": {"expires": 55},
}
# Hard dates and handovers coming up keep a check-in proposed (caseflow.checkins.proposals).
CELERY_BEAT_SCHEDULE["checkins-proposals"] = {
    "task": "caseflow.checkins.tasks.proposals_sweep",
    "schedule": 3600.0,
}

# --- partners (risk meetings, referrals to other services) -------------------------------------
CELERY_BEAT_SCHEDULE["partners-referral-followups"] = {
    "task": "caseflow.partners.tasks.referral_followups_sweep",
    "schedule": 3600.0,
}

# --- shelter (refuge sites, beds and stays) ------------------------------------------------------
# Open stays hold their bed ahead (caseflow.shelter.services.HOLD_DAYS); this moves them on
# every six hours.
CELERY_BEAT_SCHEDULE["shelter-holds-extend"] = {
    "task": "caseflow.shelter.tasks.holds_extend",
    "schedule": 6 * 3600.0,
}

# --- api (integrations and webhooks) -----------------------------------------------------------
# The API authenticates integrations by key only (never a browser session), answers in JSON and
# every error as RFC 9457 problem details. See README, "Integrations".
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["caseflow.api.authentication.IntegrationKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["caseflow.api.authentication.IsIntegration"],
    "DEFAULT_THROTTLE_CLASSES": ["caseflow.api.authentication.IntegrationRateThrottle"],
    "DEFAULT_PARSER_CLASSES": ["caseflow.api.problems.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "caseflow.api.problems.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "caseflow API",
    "DESCRIPTION": "Referrals in, case summaries and aggregate figures out, for the systems an "
    "agency already runs. Authenticate with `Authorization: Bearer <key>`.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # Served from static/ (no CDN: the CSP allows none).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}
#: The largest request body the API reads (a referral is a few hundred bytes).
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 64 * 1024)
#: How long a webhook receiver may take to answer before the attempt counts as failed.
WEBHOOK_TIMEOUT_SECONDS = float(os.environ.get("WEBHOOK_TIMEOUT_SECONDS", "5"))
#: Attempts before a delivery is given up (back-off doubles from one minute, at most six hours).
WEBHOOK_MAX_ATTEMPTS = env_int("WEBHOOK_MAX_ATTEMPTS", 12)
CELERY_BEAT_SCHEDULE["api-webhook-retries"] = {
    "task": "caseflow.api.tasks.webhook_retry_sweep",
    "schedule": 60.0,
}
#: The largest body of a batch of contact events (a co-parenting app's export, up to
#: ``API_CONTACT_EVENTS_MAX`` events with their text).
API_CONTACT_EVENTS_MAX_BODY_BYTES = env_int("API_CONTACT_EVENTS_MAX_BODY_BYTES", 1024 * 1024)
#: The most contact events one call records.
API_CONTACT_EVENTS_MAX = env_int("API_CONTACT_EVENTS_MAX", 200)
#: A high-risk case still without a safety plan this long after its risk became high is told to
#: the agency's systems subscribed to "case.high_risk_without_plan" (once per occurrence).
HIGH_RISK_PLAN_GRACE_HOURS = env_int("HIGH_RISK_PLAN_GRACE_HOURS", 24)
CELERY_BEAT_SCHEDULE["api-high-risk-without-plan"] = {
    "task": "caseflow.api.tasks.high_risk_sweep",
    "schedule": 300.0,
}
#: Tests only: let a subscription name a plain-HTTP receiver on 127.0.0.1.
WEBHOOK_ALLOW_LOOPBACK_HTTP = False
