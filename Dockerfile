# Python 3.13: CPython 3.11 and 3.12 map and unmap a 16 KiB chunk of the interpreter's frame
# stack each time a call crosses a chunk's edge (gh-142183; 3.13 keeps one chunk instead, 3.12
# takes security fixes only): 2 to 10 ms of CPU a request on some pages (BENCHMARKS.md, "Web CPU
# per page, tenth pass"). gunicorn.conf.py's worker keeps the web processes clear of it on any
# Python; the worker and beat processes are not.
FROM python:3.13-slim

ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 UV_PROJECT_ENVIRONMENT=/opt/venv \
    PATH="/opt/venv/bin:$PATH" \
    EVIDENCE_ROOT=/var/lib/caseflow/evidence \
    MEDIA_ROOT=/var/lib/caseflow/media \
    AUDIT_HEAD_SINK=/var/lib/caseflow/audit-heads/audit-heads.jsonl
RUN pip install --no-cache-dir uv && useradd --system --create-home caseflow
WORKDIR /app
COPY pyproject.toml uv.lock ./
RUN uv sync --locked --no-dev --no-install-project
# The tree as committed: .dockerignore keeps out local state (var/, keys, databases, .env),
# .venv, .git and caches. Owned by root: the app user reads it and cannot change it.
COPY . .
RUN STATIC_ROOT=/app/staticfiles DATABASE_URL=sqlite:////tmp/build.sqlite3 SECRET_KEY=build \
    FIELD_ENCRYPTION_KEYS=Zm9yLWJ1aWxkLW9ubHktbm90LWEtcmVhbC1rZXktLS0tLS0= BLIND_INDEX_KEY=build \
    AUDIT_SIGNING_KEY=Zm9yLWJ1aWxkLW9ubHktbm90LWEtcmVhbC1rZXktLS0= \
    python manage.py collectstatic --noinput -v 0
# The only places caseflow writes: evidence files (EVIDENCE_ROOT), the signed audit tree
# heads (AUDIT_HEAD_SINK) and the files it prepares for one person (MEDIA_ROOT). Volumes, owned
# by the app user (a new named volume takes this ownership); the first two belong in every
# backup (README: Backup and restore), the last is short-lived.
RUN mkdir -p /var/lib/caseflow/evidence /var/lib/caseflow/audit-heads /var/lib/caseflow/media \
    && chown caseflow:caseflow /var/lib/caseflow/evidence /var/lib/caseflow/audit-heads \
        /var/lib/caseflow/media \
    && chmod 750 /var/lib/caseflow/evidence /var/lib/caseflow/audit-heads /var/lib/caseflow/media
VOLUME ["/var/lib/caseflow/evidence", "/var/lib/caseflow/audit-heads", "/var/lib/caseflow/media"]
USER caseflow
EXPOSE 8000
# Settings in gunicorn.conf.py: forwarded headers only from TRUSTED_PROXIES, a redacting access log.
CMD ["gunicorn", "caseflow.wsgi:application"]
