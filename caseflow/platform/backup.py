"""Backing up and restoring caseflow's database (``manage.py backup_db`` / ``restore_db``).

A backup is two files: the dump (PostgreSQL's custom format from ``pg_dump``; on SQLite a
consistent copy made with SQLite's online backup API) and a manifest beside it (JSON) that says
what the dump is, the audit chain's head when it was taken, and which keys are needed to read it:
``FIELD_ENCRYPTION_KEYS``, ``BLIND_INDEX_KEY`` and ``SECRET_KEY``. The keys are never written to
the backup; the manifest holds only a fingerprint of each (a SHA-256 prefix, which gives nothing
of the key away) so a restore can tell whether it was given the right ones.

The keys must be kept too, and never in the same place as the dumps: a dump without its keys is
ciphertext (case content is encrypted with per-case keys wrapped by ``FIELD_ENCRYPTION_KEYS``),
and a purged case stays unreadable in every backup because its case key was destroyed before
later backups and the master keys are rotated after purges.

Evidence files (``EVIDENCE_ROOT`` or the "evidence" storage) are not in the dump; they are
encrypted with the case keys and are backed up with the file system.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from caseflow.audit import sequencer
from caseflow.audit.verify import current_head

MANIFEST_VERSION = 1
KEY_SETTINGS = ("FIELD_ENCRYPTION_KEYS", "BLIND_INDEX_KEY", "SECRET_KEY")
KEEP_APART = (
    "Keep FIELD_ENCRYPTION_KEYS, BLIND_INDEX_KEY and SECRET_KEY (every key in force when this "
    "backup was taken) in your secrets store, NOT beside this dump, not on the same disk, bucket "
    "or account, and not in the same backup job. Without FIELD_ENCRYPTION_KEYS nothing in the "
    "cases can be read; whoever holds both can read everything. Evidence files are not in the "
    "dump: back up EVIDENCE_ROOT (or the evidence storage) too."
)


class BackupError(Exception):
    """A backup or restore that cannot go on; the message says why in plain words."""


def fingerprint(value: str) -> str:
    return hashlib.sha256(b"caseflow-key-fingerprint:" + value.encode()).hexdigest()[:16]


def key_fingerprints() -> dict[str, list[str]]:
    return {
        "FIELD_ENCRYPTION_KEYS": [fingerprint(k) for k in settings.FIELD_ENCRYPTION_KEYS],
        "BLIND_INDEX_KEY": [fingerprint(settings.BLIND_INDEX_KEY)],
        "SECRET_KEY": [fingerprint(settings.SECRET_KEY)],
    }


def _pg_env() -> dict[str, str]:
    db = connection.settings_dict
    env = {**os.environ}
    for var, key in (("PGHOST", "HOST"), ("PGPORT", "PORT"), ("PGUSER", "USER")):
        if db.get(key):
            env[var] = str(db[key])
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    env["PGDATABASE"] = str(db["NAME"])
    return env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed: install the PostgreSQL client tools.")
    return found


def _run(args: list[str]) -> None:
    done = subprocess.run(args, env=_pg_env(), capture_output=True, text=True, check=False)  # noqa: S603
    if done.returncode != 0:
        raise BackupError(f"{Path(args[0]).name} failed: {done.stderr.strip()[-2000:]}")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass
class Backup:
    dump: Path
    manifest: Path


def backup(out_dir: Path) -> Backup:
    """Write a dump of the database and its manifest into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    # Events still waiting for their place in the chain are placed first, so that the head
    # written in the manifest covers every event the dump holds.
    sequencer.sequence_pending()
    head = current_head()
    vendor = connection.vendor
    if vendor == "postgresql":
        dump = out_dir / f"caseflow-{stamp}.dump"
        _run([_tool("pg_dump"), "--format=custom", "--no-owner", "--no-acl", f"--file={dump}"])
    elif vendor == "sqlite":
        dump = out_dir / f"caseflow-{stamp}.sqlite3"
        connection.ensure_connection()
        target = sqlite3.connect(str(dump))
        try:
            connection.connection.backup(target)  # SQLite's online backup: a consistent copy
        finally:
            target.close()
    else:
        raise BackupError(f"backups of a {vendor} database are not supported")
    os.chmod(dump, 0o600)
    migrations = MigrationRecorder.Migration.objects.order_by("app", "name")
    manifest: dict[str, Any] = {
        "caseflow_backup": MANIFEST_VERSION,
        "created_at": timezone.now().isoformat(timespec="seconds"),
        "database": vendor,
        "dump": dump.name,
        "format": "pg_dump custom" if vendor == "postgresql" else "sqlite3",
        "size": dump.stat().st_size,
        "sha256": _sha256(dump),
        "audit_head": str(head[0]) if head else None,
        # The last migration applied in each app: restore with code at least that recent.
        "latest_migrations": {m.app: m.name for m in migrations},
        "keys_needed": list(KEY_SETTINGS),
        "key_fingerprints": key_fingerprints(),
        "keep_apart": KEEP_APART,
        "restore": f"manage.py restore_db {dump.name} (into an empty database, with the keys)",
    }
    path = out_dir / f"caseflow-{stamp}.manifest.json"
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    return Backup(dump=dump, manifest=path)


def manifest_for(dump: Path) -> dict[str, Any]:
    stem = dump.name.rsplit(".", 1)[0]
    path = dump.with_name(f"{stem}.manifest.json")
    if not path.exists():
        raise BackupError(f"no manifest beside the dump (looked for {path.name})")
    return json.loads(path.read_text())


def _database_is_empty() -> bool:
    return not connection.introspection.table_names()


def keys_match(manifest: dict[str, Any]) -> list[str]:
    """The key settings whose keys in force do not include the backup's (empty: all good). The
    newest master key of the backup must be among the keys in force; rotated ones may be gone."""
    saved = manifest["key_fingerprints"]
    now = key_fingerprints()
    wrong = []
    if saved["FIELD_ENCRYPTION_KEYS"][0] not in now["FIELD_ENCRYPTION_KEYS"]:
        wrong.append("FIELD_ENCRYPTION_KEYS")
    for name in ("BLIND_INDEX_KEY", "SECRET_KEY"):
        if saved[name] != now[name]:
            wrong.append(name)
    return wrong


def restore(dump: Path) -> dict[str, Any]:
    """Restore ``dump`` into the configured database, which must be empty, with the keys the
    manifest names in force. Returns the manifest."""
    if not dump.exists():
        raise BackupError(f"{dump} does not exist")
    manifest = manifest_for(dump)
    if manifest.get("sha256") != _sha256(dump):
        raise BackupError("the dump does not match its manifest (damaged or replaced)")
    if manifest["database"] != connection.vendor:
        raise BackupError(
            f"this is a {manifest['database']} backup; the database configured is "
            f"{connection.vendor}"
        )
    wrong = keys_match(manifest)
    if wrong:
        raise BackupError(
            "the keys in force are not the ones this backup needs: "
            + ", ".join(wrong)
            + ". Set them from your secrets store (see the manifest) and try again."
        )
    if not _database_is_empty():
        raise BackupError("the database is not empty: restore only into a new, empty database")
    if connection.vendor == "postgresql":
        connection.close()
        _run(
            [
                _tool("pg_restore"),
                "--no-owner",
                "--no-acl",
                "--exit-on-error",
                "--single-transaction",
                f"--dbname={connection.settings_dict['NAME']}",
                str(dump),
            ]
        )
    else:
        connection.ensure_connection()
        source = sqlite3.connect(str(dump))
        try:
            source.backup(connection.connection)
        finally:
            source.close()
    return manifest
