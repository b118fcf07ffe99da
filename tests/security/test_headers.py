"""Headers and cookies of a case page with production settings, and Django's deploy checks."""

from __future__ import annotations

import base64
import os
import runpy
import secrets
import subprocess
import sys

import pytest
from cryptography.fernet import Fernet
from django.conf import settings as django_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

SECURITY_SETTINGS = (
    "SESSION_COOKIE_NAME",
    "CSRF_COOKIE_NAME",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "CSRF_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE",
    "CSRF_COOKIE_SAMESITE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_CONTENT_TYPE_NOSNIFF",
    "SECURE_REFERRER_POLICY",
    "X_FRAME_OPTIONS",
    "CONTENT_SECURITY_POLICY",
)


@pytest.fixture
def production_headers(settings, monkeypatch):
    """The security settings exactly as caseflow/settings.py computes them with HTTPS on."""
    monkeypatch.setenv("HTTPS", "1")
    computed = runpy.run_path(str(django_settings.BASE_DIR / "caseflow" / "settings.py"))
    for name in SECURITY_SETTINGS:
        setattr(settings, name, computed[name])
    return computed


def directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def test_case_page_headers_and_cookies_in_production(production_headers, cast, login):
    from caseflow.accounts import second_factor as sf

    client = login(cast.assigned)
    # Seen a minute ago: this request writes the session, and so sends its cookie.
    session = client.session
    session[sf.SEEN_AT] -= 60
    session.save()
    response = client.get(reverse("cases:detail", args=[cast.case.public_id]), secure=True)
    assert response.status_code == 200

    csp = directives(response["Content-Security-Policy"])
    for name in ("script-src", "style-src"):
        assert csp[name] == ["'self'"], name
        assert "'unsafe-inline'" not in csp[name]
    assert "'unsafe-inline'" not in csp["default-src"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert response["X-Frame-Options"] == "DENY"

    hsts = dict(
        p.strip().partition("=")[::2] for p in response["Strict-Transport-Security"].split(";")
    )
    assert int(hsts["max-age"]) >= 365 * 24 * 3600
    assert "includeSubDomains" in hsts

    assert "no-store" in response["Cache-Control"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] in ("same-origin", "no-referrer", "strict-origin")

    session = response.cookies["__Host-caseflow-session"]
    csrf = response.cookies["__Host-caseflow-csrf"]
    for cookie in (session, csrf):
        assert cookie["secure"] is True
        assert cookie["httponly"] is True
        assert cookie["path"] == "/"
        assert not cookie["domain"]  # __Host- cookies carry no Domain
    assert session["samesite"] in ("Lax", "Strict")
    assert csrf["samesite"] == "Strict"
    # No inline script or style in the page itself.
    body = response.content.decode()
    assert "<script>" not in body and "<style" not in body and 'style="' not in body


def test_sign_in_page_is_not_cached_either(production_headers, client):
    response = client.get(reverse("accounts:login"), secure=True)
    assert "no-store" in response["Cache-Control"]


def _production_env(tmp_path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "CASEFLOW_", "PYTEST_"))
        and k not in ("DATABASE_URL", "REDIS_URL", "HTTPS", "DEBUG")
    }
    env.update(
        DEBUG="0",
        DATABASE_URL="postgres://caseflow@127.0.0.1:5432/caseflow",
        SECRET_KEY=secrets.token_urlsafe(50),
        FIELD_ENCRYPTION_KEYS=Fernet.generate_key().decode(),
        BLIND_INDEX_KEY=secrets.token_urlsafe(32),
        AUDIT_SIGNING_KEY=base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
        ALLOWED_HOSTS="caseflow.example.org",
        STATIC_ROOT=str(tmp_path / "static"),
        CASEFLOW_VAR_DIR=str(tmp_path / "var"),
    )
    return env


def _check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=django_settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_production_settings(tmp_path):
    result = _check_deploy(_production_env(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_a_missing_or_development_audit_signing_key(tmp_path):
    env = _production_env(tmp_path)
    del env["AUDIT_SIGNING_KEY"]
    result = _check_deploy(env)
    assert result.returncode != 0 and "AUDIT_SIGNING_KEY must be set" in result.stderr
    env["AUDIT_SIGNING_KEY"] = django_settings.AUDIT_DEV_SIGNING_KEY
    result = _check_deploy(env)
    assert result.returncode != 0 and "caseflow.audit.E001" in result.stdout + result.stderr
