"""The compose stack as shipped: ``.ci/compose_check.py`` on the files themselves, the container
health check's own rules, the health paths exempt from the HTTPS redirect, and (on PostgreSQL)
web, worker and beat run as the app user in a root laid out like the image, each healthy."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


compose_check = _load("compose_check", ROOT / ".ci" / "compose_check.py")
healthcheck = _load("container_healthcheck", ROOT / "docker" / "healthcheck.py")


def test_the_files_pass_the_static_check():
    assert compose_check.static_problems() == []


def test_the_static_check_is_not_vacuous(monkeypatch, tmp_path):
    """A .dockerignore without var/ and a Dockerfile that stays root are reported."""
    for name in ("Dockerfile", ".dockerignore", "docker-compose.yml", "README.md"):
        (tmp_path / name).write_text((ROOT / name).read_text())
    for name in compose_check.MUST_INCLUDE:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).touch()
    monkeypatch.setattr(compose_check, "ROOT", tmp_path)
    assert compose_check.static_problems() == []
    ignore = tmp_path / ".dockerignore"
    ignore.write_text(ignore.read_text().replace("\nvar/\n", "\n"))
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(dockerfile.read_text().replace("USER caseflow", "USER root"))
    compose = tmp_path / "docker-compose.yml"
    compose.write_text(compose.read_text().replace("    - media:/var/lib/caseflow/media\n", ""))
    problems = compose_check.static_problems()
    assert ".dockerignore lets var/evidence/ab/cd into the image" in problems
    assert "the Dockerfile's final USER is root" in problems
    # Web hands over what a worker prepared: both need the same volume.
    assert "worker: MEDIA_ROOT (/var/lib/caseflow/media) is on no named volume" in problems


@pytest.mark.parametrize(
    ("pattern", "path", "left_out"),
    [
        ("var/", "var/keys.env", True),
        ("var/", "caseflow/var.py", False),
        ("**/__pycache__", "caseflow/cases/__pycache__/views.cpython-312.pyc", True),
        ("*.sqlite3", "caseflow.sqlite3", True),
        ("*.sqlite3", "caseflow/settings.py", False),
        (".git", ".git/HEAD", True),
    ],
)
def test_dockerignore_rules_match_as_docker_matches_them(pattern, path, left_out):
    rules = compose_check.read_dockerignore(pattern)
    assert compose_check.ignored(path, rules) is left_out


@pytest.mark.parametrize(
    ("allowed", "host"),
    [
        ("caseflow.example.org", "caseflow.example.org"),
        (" caseflow.example.org , other.example.org", "caseflow.example.org"),
        (".example.org", "example.org"),
        ("*,caseflow.example.org", "caseflow.example.org"),
        ("", "localhost"),
    ],
)
def test_the_health_check_sends_the_sites_host(monkeypatch, allowed, host):
    monkeypatch.setenv("ALLOWED_HOSTS", allowed)
    assert healthcheck.host_header() == host


@pytest.mark.parametrize(
    ("bind", "port"), [("0.0.0.0:8000", 8000), ("127.0.0.1:9123", 9123), ("[::]:8001", 8001)]
)
def test_the_health_check_asks_gunicorns_own_port(monkeypatch, bind, port):
    monkeypatch.setenv("GUNICORN_BIND", bind)
    assert healthcheck.web_port() == port


def test_the_health_paths_are_exempt_from_the_https_redirect(db, client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get(reverse("health")).status_code == 200
    assert client.get(reverse("scheduler_health")).status_code in (200, 503)
    # Every other page still goes to HTTPS.
    response = client.get(reverse("accounts:login"))
    assert response.status_code == 301 and response["Location"].startswith("https://")


@pytest.mark.postgresql
@pytest.mark.celery_worker
@pytest.mark.xdist_group("celery_worker")
def test_web_worker_and_beat_run_healthy_as_the_app_user(transactional_db, allow_audit_flush):
    """The whole check, on the test database (already migrated: ``migrate`` finds nothing to
    do) and without static files (CI's own run of the check copies them in)."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL to a PostgreSQL URL)")
    db = connection.settings_dict
    login = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    address = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    url = f"postgres://{login}@{address}/{db['NAME']}"
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / ".ci" / "compose_check.py"),
            "--database-url",
            url,
            "--no-static",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("web", "worker", "beat"):
        assert f"compose check: {name} is healthy" in result.stdout
    assert "writes evidence and audit heads, not the code" in result.stdout
