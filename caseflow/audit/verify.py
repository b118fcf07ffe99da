"""Checking the audit chain: streamed from one raw cursor, so memory stays constant at any size.

The rows are read with one ``SELECT ... ORDER BY seq`` (a server-side cursor on PostgreSQL,
fetched ``batch`` rows a round trip; SQLite steps through its result as it is fetched) and each
row's canonical form is written straight from its values (``chain.canonical_values``); a row the
direct writer cannot vouch for is serialised by the reference ``chain.canonical`` instead.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, models, transaction

from caseflow.audit.chain import GENESIS, canonical, canonical_json, canonical_values
from caseflow.audit.models import AuditEvent

BATCH = 5000
#: ``detail`` values repeat (``{}``, the same field lists): their canonical form is remembered.
_DETAIL_CACHE_SIZE = 4096


@dataclass(frozen=True)
class Head:
    seq: int
    hash: str

    @classmethod
    def parse(cls, text: str) -> Head:
        seq, sep, digest = text.strip().partition(":")
        if not sep or not seq.isdigit() or len(digest) != 64:
            raise ValueError("a head is written SEQ:HASH, as `audit_head` prints it")
        return cls(int(seq), digest.lower())

    def __str__(self) -> str:
        return f"{self.seq}:{self.hash}"


@dataclass(frozen=True)
class Result:
    ok: bool
    checked: int
    head: Head | None
    bad_seq: int | None = None
    problem: str = ""


def _field(name: str) -> models.Field:
    """A concrete column of the audit table (never a relation's reverse side)."""
    field = AuditEvent._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


def _select() -> str:
    meta = AuditEvent._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_field(name).column or name) for name in _COLUMNS_BY_FIELD)
    # Identifiers from the model, quoted by the backend: nothing from outside reaches the SQL.
    return f"SELECT {columns} FROM {quote(meta.db_table)} ORDER BY {quote('seq')}"  # noqa: S608


#: The selected columns: the chained fields in canonical (sorted) order, then the two hashes.
_COLUMNS_BY_FIELD = (
    "action",
    "actor",
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
    "prev_hash",
    "hash",
)


def _raw_batches(batch: int) -> Generator[list[tuple], None, None]:
    """Every row, in ``seq`` order, ``batch`` rows at a time, as the database returns them."""
    # On PostgreSQL a server-side cursor inside a transaction streams; outside one it would be
    # declared WITH HOLD, which makes the server materialise the whole result first. (Not on
    # SQLite: its transactions begin IMMEDIATE, and a verify must not hold off writers.)
    in_transaction = (
        transaction.atomic() if connection.vendor == "postgresql" else contextlib.nullcontext()
    )
    with in_transaction:
        cursor = connection.chunked_cursor()
        try:
            cursor.execute(_select())
            while chunk := cursor.fetchmany(batch):
                yield chunk
        finally:
            cursor.close()


def _as_row(values: tuple) -> dict[str, Any]:
    """A raw row converted as the ORM converts it (the reference path for odd rows)."""
    meta = AuditEvent._meta
    row = {}
    for name, value in zip(_COLUMNS_BY_FIELD, values, strict=True):
        field = _field(name)
        col = field.get_col(meta.db_table)
        # The compiler's order: the backend's converters, then the field's.
        for convert in connection.ops.get_db_converters(col) + col.get_db_converters(connection):
            value = convert(value, col, connection)
        row[field.attname] = value
    return row


def _rows(batch: int) -> Generator[tuple[int, bytes, str, str], None, None]:
    """(seq, canonical bytes, prev_hash, hash) of every row in ``seq`` order."""
    with contextlib.closing(_raw_batches(batch)) as chunks:
        yield from _canonical_rows(chunks)


def _canonical_rows(
    chunks: Iterable[list[tuple]],
) -> Generator[tuple[int, bytes, str, str], None, None]:
    naive_tz: Any = connection.timezone if settings.USE_TZ else None
    detail_field = _field("detail")
    details: dict[Any, str] = {}
    for chunk in chunks:
        for values in chunk:
            detail = values[6]
            known = details.get(detail) if isinstance(detail, str) else None
            if known is None:
                value = detail_field.from_db_value(detail, None, connection)  # type: ignore[attr-defined]
                try:
                    known = canonical_json(value)
                except Exception:  # noqa: BLE001 - the reference path below raises it again
                    known = None
                else:
                    if isinstance(detail, str):
                        if len(details) >= _DETAIL_CACHE_SIZE:
                            details.clear()
                        details[detail] = known
            data = (
                canonical_values(*values[:6], known, *values[7:12], naive_tz=naive_tz)  # type: ignore[misc,arg-type]
                if known is not None
                else None
            )
            if data is None:
                data = canonical(_as_row(values))
            yield values[11], data, values[12], values[13]


def verify_chain(saved_head: Head | None = None, *, batch: int = BATCH) -> Result:
    """Walk the chain from its first event. The first bad sequence number is the first row whose
    number, link to its predecessor or own hash is not what an untouched chain would hold."""
    # closing(): a verdict before the end closes the cursor (and its transaction) at once.
    with contextlib.closing(_rows(batch)) as rows:
        return _walk(rows, saved_head)


def _walk(rows: Iterator[tuple[int, bytes, str, str]], saved_head: Head | None) -> Result:
    expected_seq, prev = 1, GENESIS
    checked = 0
    saved_seen = False
    for seq, data, prev_hash, stored_hash in rows:
        if seq != expected_seq:
            return Result(
                False,
                checked,
                None,
                expected_seq,
                f"event {expected_seq} is missing (the next event is {seq})",
            )
        if prev_hash != prev:
            problem = f"event {seq} does not link to event {seq - 1}"
            return Result(False, checked, None, seq, problem)
        digest = hashlib.sha256(prev.encode() + b"\n" + data).hexdigest()
        if digest != stored_hash:
            return Result(False, checked, None, seq, f"event {seq} was changed")
        if saved_head is not None and seq == saved_head.seq:
            if digest != saved_head.hash:
                return Result(False, checked, None, seq, f"event {seq} differs from the saved head")
            saved_seen = True
        checked += 1
        prev = digest
        expected_seq = seq + 1
    if saved_head is not None and not saved_seen:
        return Result(
            False,
            checked,
            None,
            expected_seq,
            f"the chain ends at event {expected_seq - 1}, before the saved head {saved_head.seq}: "
            "events were removed from its end",
        )
    head = Head(expected_seq - 1, prev) if checked else None
    return Result(True, checked, head)


def current_head() -> tuple[Head, Any] | None:
    row = AuditEvent.objects.order_by("-seq").values_list("seq", "hash", "at").first()
    if row is None:
        return None
    return Head(row[0], row[1]), row[2]
