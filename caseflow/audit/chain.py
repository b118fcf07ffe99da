"""Canonical serialisation and hashing of audit rows (RFC 8785 JSON canonicalisation)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable
from json.encoder import encode_basestring as _quote  # the C encoder json.dumps itself uses
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
    items: Iterable[tuple[Any, Any]]
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


# --- The same bytes from a database row, without building a document per row -----------------
#
# ``verify_audit`` reads a million rows; building a dict per row, walking it for plainness and
# sorting its keys costs more than reading and hashing it. :func:`canonical_values` writes the
# canonical document straight from the row's values in the fixed key order, for the values the
# audit table holds in practice (strings without lone surrogates, integers in IEEE 754's exact
# range, aware or naive-UTC datetimes, JSON detail). Anything else returns ``None`` and the
# caller falls back to :func:`canonical`, so the bytes hashed are always the reference's
# (tests/audit/test_chain.py and test_verify.py compare both on every column type).

#: The chained fields in the order RFC 8785 sorts their names (all ASCII).
SORTED_FIELDS = tuple(sorted(FIELDS))
assert SORTED_FIELDS == (
    "action",
    "actor_id",
    "actor_role",
    "agency_id",
    "at",
    "case_id",
    "detail",
    "ip",
    "object_id",
    "object_type",
    "request_id",
    "seq",
)


def canonical_json(value: Any) -> str:
    """RFC 8785 canonical JSON of one value (the ``detail`` of a row), as :func:`canonical`
    writes it inside the row's document."""
    if _plain(value):
        return json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    return rfc8785.dumps(value).decode()


def _int(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is not int or not -_MAX_SAFE_INT <= value <= _MAX_SAFE_INT:
        raise _NotPlain
    return str(value)


def _utc_iso(value: Any, naive_tz: dt.tzinfo | None) -> str:
    if type(value) is not dt.datetime:
        raise _NotPlain
    if value.tzinfo is None:
        if naive_tz is None:
            raise _NotPlain
        value = value.replace(tzinfo=naive_tz)
    if value.tzinfo is dt.UTC and value.year >= 1000:
        return value.isoformat(timespec="microseconds")[:-6] + "Z"  # "+00:00" -> "Z"
    return _iso(value)


class _NotPlain(Exception):
    """A value the direct writer does not handle: use the reference serialisation."""


def canonical_values(
    action: Any,
    actor_id: Any,
    actor_role: Any,
    agency_id: Any,
    at: Any,
    case_id: Any,
    detail_json: str,
    ip: Any,
    object_id: Any,
    object_type: Any,
    request_id: Any,
    seq: Any,
    *,
    naive_tz: dt.tzinfo | None = None,
) -> bytes | None:
    """The bytes of :func:`canonical` for a row given as values (``at`` a datetime, naive ones
    taken to be in ``naive_tz``; ``detail_json`` already :func:`canonical_json`), or ``None``
    where only the reference serialisation can tell."""
    try:
        text = (
            f'{{"action":{_quote(action)},"actor_id":{_int(actor_id)},'
            f'"actor_role":{_quote(actor_role)},"agency_id":{_int(agency_id)},'
            f'"at":"{_utc_iso(at, naive_tz)}","case_id":{_int(case_id)},"detail":{detail_json},'
            f'"ip":{_quote(ip)},"object_id":{_quote(object_id)},'
            f'"object_type":{_quote(object_type)},"request_id":{_quote(request_id)},'
            f'"seq":{_int(seq)}}}'
        )
        # A lone surrogate cannot be encoded: the reference refuses (or escapes) it.
        return text.encode()
    except (_NotPlain, TypeError, UnicodeEncodeError):
        return None
