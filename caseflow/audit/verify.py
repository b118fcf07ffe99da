"""Checking the audit log: the full scan, and the check since a signed head.

The full scan (:func:`verify_chain`) reads every sequenced event, checks its position, its link
to the previous event and its hash, rebuilds the Merkle tree's root as it goes, and compares it
with the stored tree and with a shipped signed head. The check since a head
(:func:`verify_since`) reads only the events after the head and O(log n) stored tree nodes.

The full scan is streamed from one raw cursor, so memory stays constant at any size.
The rows are read with one ``SELECT ... ORDER BY pos`` (a server-side cursor on PostgreSQL,
fetched ``batch`` rows a round trip; SQLite steps through its result as it is fetched) and each
row's canonical form is written straight from its values (``chain.canonical_values``); a row the
direct writer cannot vouch for is serialised by the reference ``chain.canonical`` instead.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, models, transaction
from django.utils import timezone

from caseflow.audit import merkle, sequencer
from caseflow.audit.chain import GENESIS, canonical, canonical_json, canonical_values
from caseflow.audit.heads import SignedHead, public_key
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
            raise ValueError("a head is written POS:HASH, as `audit_head` prints it")
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
    """Every sequenced row from position %s on, in order."""
    meta = AuditEvent._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_field(name).column or name) for name in _COLUMNS_BY_FIELD)
    pos = quote("pos")
    # Identifiers from the model, quoted by the backend: nothing from outside reaches the SQL.
    return (
        f"SELECT {columns} FROM {quote(meta.db_table)}"  # noqa: S608
        f" WHERE {pos} >= %s ORDER BY {pos}"
    )


#: The selected columns: the chained fields in canonical (sorted) order, the two hashes, the
#: position.
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
    "pos",
)


def _raw_batches(batch: int, first: int = 1) -> Generator[list[tuple], None, None]:
    """Every sequenced row from position ``first`` on, in ``pos`` order, ``batch`` rows at a
    time, as the database returns them."""
    # On PostgreSQL a server-side cursor inside a transaction streams; outside one it would be
    # declared WITH HOLD, which makes the server materialise the whole result first. (Not on
    # SQLite: its transactions begin IMMEDIATE, and a verify must not hold off writers.)
    in_transaction = (
        transaction.atomic() if connection.vendor == "postgresql" else contextlib.nullcontext()
    )
    with in_transaction:
        cursor = connection.chunked_cursor()
        try:
            cursor.execute(_select(), [first])
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


def _rows(batch: int, first: int = 1) -> Generator[tuple[int, bytes, str, str], None, None]:
    """(pos, canonical bytes, prev_hash, hash) of every sequenced row from position ``first``
    on, in ``pos`` order."""
    with contextlib.closing(_raw_batches(batch, first)) as chunks:
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
            yield values[14], data, values[12], values[13]


def overdue(now: dt.datetime | None = None) -> int:
    """How many events have waited for the sequencer longer than its interval plus the slack."""
    now = now or timezone.now()
    limit = dt.timedelta(
        seconds=settings.AUDIT_SEQUENCE_SECONDS + settings.AUDIT_SEQUENCE_SLACK_SECONDS
    )
    return AuditEvent.objects.filter(pos__isnull=True, at__lt=now - limit).count()


def verify_chain(
    saved_head: Head | None = None,
    *,
    batch: int = BATCH,
    shipped: SignedHead | None = None,
    check_tree: bool = True,
) -> Result:
    """Walk the chain from its first event. The first bad position is the first row whose
    position, link to its predecessor or own hash is not what an untouched chain would hold.

    Also rebuilds the Merkle root: at ``shipped``'s size it must be the shipped head's root (a
    log rewritten from that point, even with every hash recomputed, fails here), and at the end
    it must be the stored tree's root (``check_tree``)."""
    if shipped is not None and not shipped.signed_by(public_key()):
        return Result(False, 0, None, None, "the shipped head's signature is not valid")
    # closing(): a verdict before the end closes the cursor (and its transaction) at once.
    with contextlib.closing(_rows(batch)) as rows:
        result, frontier = _walk(rows, saved_head, shipped)
    if not result.ok or not check_tree:
        return result
    size = sequencer.tree_size()
    if size != frontier.size:
        problem = f"the tree holds {size} events, the chain {frontier.size}"
        return Result(False, result.checked, None, min(size, frontier.size) + 1, problem)
    if merkle.root(size, sequencer.nodes) != frontier.root():
        return Result(
            False, result.checked, None, None, "the stored tree does not match the events"
        )
    return result


def _walk(
    rows: Iterator[tuple[int, bytes, str, str]],
    saved_head: Head | None,
    shipped: SignedHead | None = None,
) -> tuple[Result, merkle.Frontier]:
    expected_seq, prev = 1, GENESIS
    checked = 0
    saved_seen = False
    frontier = merkle.Frontier()
    push, sha256 = frontier.push, hashlib.sha256
    shipped_size = shipped.tree_size if shipped is not None else -1
    if shipped_size == 0:
        shipped_size = -1
    for seq, data, prev_hash, stored_hash in rows:
        if seq != expected_seq:
            problem = f"event {expected_seq} is missing (the next event is {seq})"
            return Result(False, checked, None, expected_seq, problem), frontier
        if prev_hash != prev:
            problem = f"event {seq} does not link to event {seq - 1}"
            return Result(False, checked, None, seq, problem), frontier
        h = sha256(prev.encode() + b"\n" + data)
        digest = h.hexdigest()
        if digest != stored_hash:
            return Result(False, checked, None, seq, f"event {seq} was changed"), frontier
        if saved_head is not None and seq == saved_head.seq:
            if digest != saved_head.hash:
                problem = f"event {seq} differs from the saved head"
                return Result(False, checked, None, seq, problem), frontier
            saved_seen = True
        push(sha256(b"\x00" + h.digest()).digest())
        if seq == shipped_size and shipped is not None and frontier.root() != shipped.root:
            problem = f"the first {seq} events do not match the shipped head: history was rewritten"
            return Result(False, checked, None, seq, problem), frontier
        checked += 1
        prev = digest
        expected_seq = seq + 1
    if saved_head is not None and not saved_seen:
        problem = (
            f"the chain ends at event {expected_seq - 1}, before the saved head {saved_head.seq}: "
            "events were removed from its end"
        )
        return Result(False, checked, None, expected_seq, problem), frontier
    if shipped is not None and checked < shipped.tree_size:
        problem = (
            f"the chain ends at event {checked}, before the shipped head's "
            f"{shipped.tree_size}: events were removed from its end"
        )
        return Result(False, checked, None, checked + 1, problem), frontier
    head = Head(expected_seq - 1, prev) if checked else None
    return Result(True, checked, head), frontier


def verify_since(shipped: SignedHead, *, batch: int = BATCH) -> Result:
    """Check that the log extends ``shipped`` (a signed head kept outside the database),
    reading only the events after it and O(log n) stored tree nodes:

    1. the head's signature;
    2. the stored subtrees that make up the first ``tree_size`` events hash to the head's root,
       and the head's last event is in it (an inclusion proof), its row unchanged;
    3. every later event links to the one before and hashes as stored; appending their leaves to
       the head's tree gives the stored tree's root now, and the consistency proof from the
       stored tree between the two sizes holds.
    """
    if not shipped.signed_by(public_key()):
        return Result(False, 0, None, None, "the shipped head's signature is not valid")
    m = shipped.tree_size
    end_pos, _ = sequencer.chain_end()
    n = sequencer.tree_size()
    if end_pos < m or n < m:
        problem = (
            f"the log ends at event {min(end_pos, n)}, before the shipped head's {m}: "
            "events were removed from its end"
        )
        return Result(False, 0, None, min(end_pos, n) + 1, problem)
    if n != end_pos:
        problem = f"the tree holds {n} events, the chain {end_pos}"
        return Result(False, 0, None, min(n, end_pos) + 1, problem)
    try:
        # Every node the checks below need, in one query.
        source = merkle.prefetched(
            sequencer.nodes,
            merkle.keys_for(
                roots=(m, n), inclusions=[(m - 1, m)] if m else [], consistencies=[(m, n)]
            ),
        )
        frontier = merkle.Frontier.load(m, source)
    except merkle.MissingNode:
        return Result(False, 0, None, None, "the stored tree lacks nodes of the shipped head")
    if frontier.root() != shipped.root:
        problem = f"the stored tree's first {m} events do not match the shipped head"
        return Result(False, 0, None, None, problem)
    with contextlib.closing(_rows(batch, max(m, 1))) as rows:
        failed, prev, checked = _walk_new(rows, m, n, frontier, shipped, source)
    if failed is not None:
        return failed
    new_root = frontier.root()
    if merkle.root(n, source) != new_root:
        return Result(False, checked, None, None, "the stored tree does not match the events")
    proof = merkle.consistency_proof(m, n, source)
    if not merkle.verify_consistency(m, n, shipped.root, new_root, proof):
        return Result(False, checked, None, None, "the log does not extend the shipped head")
    return Result(True, checked, Head(n, prev) if n else None)


def _walk_new(
    rows: Iterator[tuple[int, bytes, str, str]],
    m: int,
    n: int,
    frontier: merkle.Frontier,
    shipped: SignedHead,
    source: merkle.Source,
) -> tuple[Result | None, str, int]:
    """The head's last event (position ``m``: unchanged, and in the head's tree), then every
    event after it: linked, hashed as stored, appended to ``frontier``."""
    sha256 = hashlib.sha256
    prev, checked, expected = GENESIS, 0, max(m, 1)
    for pos, data, prev_hash, stored in rows:
        if pos != expected:
            problem = f"event {expected} is missing (the next is {pos})"
            return Result(False, checked, None, expected, problem), prev, checked
        if pos > m and prev_hash != prev:
            problem = f"event {pos} does not link to {pos - 1}"
            return Result(False, checked, None, pos, problem), prev, checked
        h = sha256(prev_hash.encode() + b"\n" + data)
        if h.hexdigest() != stored:
            return Result(False, checked, None, pos, f"event {pos} was changed"), prev, checked
        leaf = sha256(b"\x00" + h.digest()).digest()
        if pos == m:
            proof = merkle.inclusion_proof(m - 1, m, source)
            if not merkle.verify_inclusion(m - 1, m, leaf, proof, shipped.root):
                problem = f"event {m} is not the shipped head's last event"
                return Result(False, 0, None, m, problem), prev, checked
        else:
            frontier.push(leaf)
            checked += 1
        prev, expected = stored, pos + 1
        if pos == n:
            break
    if expected <= n:
        return Result(False, checked, None, expected, f"event {expected} is missing"), prev, checked
    return None, prev, checked


def current_head() -> tuple[Head, Any] | None:
    row = (
        AuditEvent.objects.filter(pos__isnull=False)
        .order_by("-pos")
        .values_list("pos", "hash", "at")
        .first()
    )
    if row is None or row[0] is None:
        return None
    return Head(row[0], row[1]), row[2]
