FROM python:3.12-slim

ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 UV_PROJECT_ENVIRONMENT=/opt/venv \
    PATH="/opt/venv/bin:$PATH"
RUN pip install --no-cache-dir uv && useradd --system --create-home caseflow
WORKDIR /app
COPY pyproject.toml uv.lock ./
RUN uv sync --locked --no-dev --no-install-project
COPY . .
RUN STATIC_ROOT=/app/staticfiles DATABASE_URL=sqlite:////tmp/build.sqlite3 SECRET_KEY=build \
    FIELD_ENCRYPTION_KEYS=Zm9yLWJ1aWxkLW9ubHktbm90LWEtcmVhbC1rZXktLS0tLS0= BLIND_INDEX_KEY=build \
    AUDIT_SIGNING_KEY=Zm9yLWJ1aWxkLW9ubHktbm90LWEtcmVhbC1rZXktLS0= \
    python manage.py collectstatic --noinput -v 0
# Signed audit tree heads are appended here (a volume in docker-compose.yml).
RUN mkdir -p /var/lib/caseflow/audit-heads && chown caseflow /var/lib/caseflow/audit-heads
USER caseflow
EXPOSE 8000
# Settings in gunicorn.conf.py: forwarded headers only from TRUSTED_PROXIES, a redacting access log.
CMD ["gunicorn", "caseflow.wsgi:application"]
