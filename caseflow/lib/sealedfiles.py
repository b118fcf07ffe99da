"""Sealed results kept as files: written under a random name, whole or not at all.

A result is written to a temporary name beside its final one and renamed only once every byte is
on disk, so a reader never finds a file half-written (a worker killed mid-write leaves only the
temporary name, which nothing names and :func:`sweep` removes). The bytes given here are already
sealed by the caller; the names say nothing of what is inside.

It uses Django's default storage (``MEDIA_ROOT``, which no URL serves) and needs it to be on a
file system: an atomic rename is what makes the write whole.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
from pathlib import Path

from django.core.files.storage import default_storage

#: Beside the final name while it is written.
PARTIAL = ".part"


def _path(name: str) -> Path:
    return Path(default_storage.path(name))


def write(folder: str, data: bytes) -> str:
    """Write ``data`` under ``folder`` with a random name, returned once the file is whole."""
    name = f"{folder.strip('/')}/{secrets.token_hex(16)}.bin"
    final = _path(name)
    final.parent.mkdir(parents=True, exist_ok=True)
    partial = final.with_name(final.name + PARTIAL)
    try:
        with open(partial, "xb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, final)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return name


def read(name: str) -> bytes:
    with default_storage.open(name, "rb") as stored:
        return stored.read()


def exists(name: str) -> bool:
    return bool(name) and _path(name).is_file()


def delete(name: str) -> None:
    if name:
        _path(name).unlink(missing_ok=True)


def sweep(folder: str, keep: set[str], before: dt.datetime) -> int:
    """Delete the files under ``folder`` last written before ``before`` that ``keep`` does not
    name (a result whose row is gone, a temporary name a lost worker left). How many went."""
    root = _path(folder.strip("/"))
    if not root.is_dir():
        return 0
    gone = 0
    for path in root.iterdir():
        name = f"{folder.strip('/')}/{path.name}"
        if not path.is_file() or name in keep:
            continue
        if dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC) < before:
            path.unlink(missing_ok=True)
            gone += 1
    return gone
