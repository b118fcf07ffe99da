"""gunicorn's settings for caseflow (gunicorn reads ``gunicorn.conf.py`` from the working
directory; the Dockerfile starts it in /app).

Forwarded headers (``X-Forwarded-Proto`` and the like) are believed only from the reverse
proxies named in ``TRUSTED_PROXIES``, the same list caseflow uses for the client address; with
none named, only from this machine. The access log masks secrets in URLs (calendar feed and
account-link tokens).
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
accesslog = "-"
logger_class = "caseflow.lib.access_log.RedactingLogger"
forwarded_allow_ips = (
    ",".join(n.strip() for n in os.environ.get("TRUSTED_PROXIES", "").split(",") if n.strip())
    or "127.0.0.1,::1"
)
