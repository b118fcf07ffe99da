"""gunicorn's settings for caseflow (gunicorn reads ``gunicorn.conf.py`` from the working
directory; the Dockerfile starts it in /app).

Forwarded headers (``X-Forwarded-Proto`` and the like) are believed only from the reverse
proxies named in ``TRUSTED_PROXIES``, the same list caseflow uses for the client address; with
none named, only from this machine. The access log masks secrets in URLs (calendar feed and
account-link tokens).
"""

import gc
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
# gunicorn's synchronous worker, its loop run with room on CPython's frame stack (no chunk of it
# mapped and unmapped a request: caseflow.platform.stack_room).
worker_class = "caseflow.platform.workers.SyncWorker"
accesslog = "-"
logger_class = "caseflow.lib.access_log.RedactingLogger"
forwarded_allow_ips = (
    ",".join(n.strip() for n in os.environ.get("TRUSTED_PROXIES", "").split(",") if n.strip())
    or "127.0.0.1,::1"
)


def post_worker_init(worker):
    """Once the application is loaded in a worker: it is made ready for its first request
    (``caseflow.platform.warm``: views imported, catalogs read, templates compiled); what it
    holds then (Django, caseflow, the modules and their tables: some 250,000 objects) lives as
    long as the worker, so the collector is told never to walk it again (``gc.freeze``): a full
    collection walked all of it, some 100 ms of CPU, every few hundred requests. Nothing that a
    request creates is frozen."""
    try:
        from caseflow.platform.warm import warm_up

        warm_up()
    except Exception:  # a worker that could not warm up still serves, as before
        if worker is not None:
            worker.log.exception("warming the worker up failed")
    gc.freeze()
