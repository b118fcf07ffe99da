"""Backup and restore: ``backup_db`` writes a dump and a manifest naming the keys it needs
(never the keys themselves); ``restore_db`` puts it into a new, empty database on PostgreSQL
(CI's PostgreSQL pass), where the audit chain verifies, a case opens with its encrypted fields
readable and a purged case stays unreadable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from caseflow.audit.models import AuditEvent
from caseflow.platform.backup import KEY_SETTINGS, fingerprint
from tests.confidentiality.helpers import close
from tests.confidentiality.test_purge import _purge_whole
from tests.conftest import canary

ROOT = Path(__file__).resolve().parents[2]


def _secrets() -> list[str]:
    return [*settings.FIELD_ENCRYPTION_KEYS, settings.BLIND_INDEX_KEY, settings.SECRET_KEY]


def _manifest(out: Path) -> tuple[Path, dict]:
    (manifest_path,) = out.glob("*.manifest.json")
    return manifest_path, json.loads(manifest_path.read_text())


def _assert_manifest_names_the_keys_without_them(out: Path, manifest: dict) -> None:
    assert manifest["keys_needed"] == list(KEY_SETTINGS)
    assert manifest["key_fingerprints"]["FIELD_ENCRYPTION_KEYS"] == [
        fingerprint(k) for k in settings.FIELD_ENCRYPTION_KEYS
    ]
    assert "NOT beside this dump" in manifest["keep_apart"]
    for path in out.iterdir():
        content = path.read_bytes()
        for key in _secrets():
            assert key.encode() not in content, f"a key was written to {path.name}"


@pytest.mark.django_db(transaction=True)
def test_a_sqlite_backup_is_a_consistent_copy_with_its_manifest(cast, tmp_path, allow_audit_flush):
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite copy; the PostgreSQL dump is tested below")
    import sqlite3

    from caseflow.audit.services import record

    for _ in range(3):
        record("security.login", actor=cast.assigned)
    call_command("backup_db", str(tmp_path))
    manifest_path, manifest = _manifest(tmp_path)
    dump = tmp_path / manifest["dump"]
    assert manifest["database"] == "sqlite" and manifest["size"] == dump.stat().st_size
    copy = sqlite3.connect(dump)
    (events,) = copy.execute(f"SELECT count(*) FROM {AuditEvent._meta.db_table}").fetchone()
    copy.close()
    assert events == AuditEvent.objects.count() > 0
    assert not AuditEvent.objects.filter(pos__isnull=True).exists()  # every event placed first
    head = AuditEvent.objects.order_by("-pos").first()
    assert manifest["audit_head"] == f"{head.pos}:{head.hash}"
    _assert_manifest_names_the_keys_without_them(tmp_path, manifest)


def _manage(database: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """``manage.py`` in a new process against ``database``, with the keys in force here."""
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{database}"
    full_env = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": settings.SECRET_KEY,
        "FIELD_ENCRYPTION_KEYS": ",".join(settings.FIELD_ENCRYPTION_KEYS),
        "BLIND_INDEX_KEY": settings.BLIND_INDEX_KEY,
        **env,
    }
    return subprocess.run(  # noqa: S603 - our own manage.py
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=full_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


READ_BACK = """
import json
from caseflow.cases.models import Case, CaseKey, Party
from caseflow.lib.encryption import KeyDestroyed
out = {}
for case in Case.objects.all():
    names = None
    if CaseKey.objects.filter(case=case).exists():
        names = [p.full_name for p in Party.objects.filter(case=case)]
    try:
        case.data_key()
        readable = True
    except KeyDestroyed:
        readable = False
    out[case.reference] = {"names": names, "readable": readable}
print(json.dumps(out))
"""


@pytest.fixture
def empty_database(transactional_db, allow_audit_flush):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL to a PostgreSQL URL)")
    db = connection.settings_dict
    name = f"{db['NAME']}_restored"
    admin = psycopg.connect(
        dbname="postgres",
        user=db["USER"],
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        autocommit=True,
    )
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"')
    yield name
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.close()


@pytest.mark.postgresql
def test_backup_restored_into_an_empty_database_reads_back(cast, tmp_path, empty_database):
    purged = close(cast.case, 8)
    _purge_whole(cast, purged)
    call_command("backup_db", str(tmp_path))
    manifest_path, manifest = _manifest(tmp_path)
    assert manifest["database"] == "postgresql" and manifest["format"] == "pg_dump custom"
    _assert_manifest_names_the_keys_without_them(tmp_path, manifest)
    dump = tmp_path / manifest["dump"]

    # Without the keys the backup needs, nothing is restored.
    wrong = _manage(empty_database, "restore_db", str(dump), BLIND_INDEX_KEY="not-the-key")
    assert wrong.returncode != 0 and "BLIND_INDEX_KEY" in wrong.stderr

    restored = _manage(empty_database, "restore_db", str(dump))
    assert restored.returncode == 0, restored.stderr
    assert "audit chain ok" in restored.stdout
    verified = _manage(empty_database, "verify_audit")
    assert verified.returncode == 0, verified.stderr
    assert "audit chain ok" in verified.stdout

    read = _manage(empty_database, "shell", "-c", READ_BACK)
    assert read.returncode == 0, read.stderr
    cases = json.loads(read.stdout.strip().splitlines()[-1])
    for kept in (cast.team2_case, cast.foreign_case, cast.restricted_case):
        assert cases[kept.reference]["readable"]
        assert any(canary(kept) in name for name in cases[kept.reference]["names"])
    assert cases[purged.reference] == {"names": None, "readable": False}

    # A second restore over the restored data is refused: only into an empty database.
    again = _manage(empty_database, "restore_db", str(dump))
    assert again.returncode != 0 and "not empty" in again.stderr
