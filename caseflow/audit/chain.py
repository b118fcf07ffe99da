"""Canonical serialisation and hashing of audit rows (RFC 8785 JSON canonicalisation)."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import rfc8785

GENESIS = "0" * 64

FIELDS = (
    "seq",
    "at",
    "actor_id",
    "actor_role",
    "agency_id",
    "case_id",
    "action",
    "object_type",
    "object_id",
    "request_id",
    "ip",
    "detail",
)


def _iso(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def canonical(row: dict[str, Any]) -> bytes:
    doc = {name: row[name] for name in FIELDS}
    doc["at"] = _iso(doc["at"]) if isinstance(doc["at"], dt.datetime) else doc["at"]
    return rfc8785.dumps(doc)


def event_hash(prev_hash: str, row: dict[str, Any]) -> str:
    return hashlib.sha256(prev_hash.encode() + b"\n" + canonical(row)).hexdigest()
