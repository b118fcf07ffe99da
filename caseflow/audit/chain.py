"""Canonical serialisation and hashing of audit rows (RFC 8785 JSON canonicalisation)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
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
    utc = value.astimezone(dt.UTC)
    if utc.year < 1000:
        return utc.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return utc.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


_MAX_SAFE_INT = 2**53 - 1


def _plain(value: Any) -> bool:
    """Whether ``value`` holds only JSON on which Python's own encoder (sorted keys, compact,
    unescaped non-ASCII) writes exactly the RFC 8785 form: ASCII keys, strings without
    surrogates, integers within IEEE 754's exact range, no floats."""
    if type(value) is dict:
        items = value.items()
    elif type(value) is list:
        items = enumerate(value)
    else:
        items = ((0, value),)
    for key, item in items:
        if type(key) is str and not key.isascii():
            return False
        kind = type(item)
        if kind is str:
            if not item.isascii() and any("\ud800" <= c <= "\udfff" for c in item):
                return False
        elif kind is int:
            if not -_MAX_SAFE_INT <= item <= _MAX_SAFE_INT:
                return False
        elif item is None or kind is bool:
            continue
        elif kind is dict or kind is list:
            if not _plain(item):
                return False
        else:
            return False
    return True


def canonical(row: dict[str, Any]) -> bytes:
    """RFC 8785 canonical JSON of the chained fields of ``row``.

    Audit rows are nearly always plain (ids, names, short strings), and for plain documents the
    standard library's encoder writes the same bytes as the RFC 8785 library, several times
    faster; anything else (floats, odd keys) goes through the library.
    """
    doc = {name: row[name] for name in FIELDS}
    doc["at"] = _iso(doc["at"]) if isinstance(doc["at"], dt.datetime) else doc["at"]
    if _plain(doc):
        return json.dumps(
            doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        ).encode()
    return rfc8785.dumps(doc)


def event_hash(prev_hash: str, row: dict[str, Any]) -> str:
    return hashlib.sha256(prev_hash.encode() + b"\n" + canonical(row)).hexdigest()
