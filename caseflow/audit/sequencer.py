"""The sequencer: gives committed audit events their place in the chain and the Merkle tree.

A request inserts its event in its own transaction and takes no lock (``services.record``).
The sequencer, run by beat every ``AUDIT_SEQUENCE_SECONDS`` and synchronously by
``verify_audit``, ``audit_tree`` and the tests, is the chain's only writer: holding one lock
(a PostgreSQL advisory transaction lock; SQLite's single write lock), it takes the committed
events that have no position yet, oldest number first, in batches, and gives each the next
position, the previous event's hash and its own hash; then it appends their leaves to the tree.

Commit order: numbers are given at insert, so an event of a long transaction can commit after
events with higher numbers were sequenced. It is not lost or misplaced: the sequencer only ever
sees committed rows, and it appends whatever it finds after the current end of the chain, so
every committed event is placed exactly once (the position is unique and the trigger allows
one update per row), in the order the sequencer first saw it. An event's place in the chain is
therefore not its number's order; the chain's order is the order of positions.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import Q

from caseflow.audit.chain import FIELDS, GENESIS, event_hash
from caseflow.audit.merkle import Frontier, Key, leaf_hash
from caseflow.audit.models import AuditEvent, AuditTreeNode

BATCH = 5000
# Any constant: the key of the PostgreSQL advisory lock only the sequencer takes.
_SEQUENCER_LOCK_KEY = 0x0CA5EF10


def _lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [_SEQUENCER_LOCK_KEY])
    # SQLite: every transaction begins IMMEDIATE (settings): the one writer is already alone.


def nodes(keys: Iterable[Key]) -> dict[Key, bytes]:
    """Stored tree nodes by (level, index), one query (the tree's node source)."""
    wanted = set(keys)
    if not wanted:
        return {}
    query = Q()
    for level, index in wanted:
        query |= Q(level=level, index=index)
    return {
        (level, index): bytes.fromhex(digest)
        for level, index, digest in AuditTreeNode.objects.filter(query).values_list(
            "level", "index", "hash"
        )
    }


def tree_size() -> int:
    """How many leaves the stored tree has."""
    last = (
        AuditTreeNode.objects.filter(level=0)
        .order_by("-index")
        .values_list("index", flat=True)
        .first()
    )
    return 0 if last is None else last + 1


def chain_end() -> tuple[int, str]:
    """(position, hash) of the last sequenced event; (0, GENESIS) when none is."""
    head = (
        AuditEvent.objects.filter(pos__isnull=False)
        .order_by("-pos")
        .values_list("pos", "hash")
        .first()
    )
    if head is None or head[0] is None:
        return 0, GENESIS
    return head[0], head[1]


def sequence_pending(batch: int = BATCH) -> int:
    """Sequence every committed event without a position, ``batch`` per transaction; bring the
    tree up to the end of the chain. Returns how many events were sequenced."""
    total = 0
    while True:
        with transaction.atomic():
            _lock()
            done = _sequence_batch(batch)
            grown = _extend_tree(batch)
        total += done
        if done < batch and grown < batch:
            return total


def _sequence_batch(batch: int) -> int:
    pos, prev = chain_end()
    rows = list(AuditEvent.objects.filter(pos__isnull=True).order_by("seq").values(*FIELDS)[:batch])
    placed: list[tuple[int, int | None, str, str]] = []
    for row in rows:
        pos += 1
        digest = event_hash(prev, row)
        placed.append((row["seq"], pos, prev, digest))
        prev = digest
    if placed:
        _place(placed)
    return len(placed)


def _place(rows: list[tuple[int, int | None, str, str]]) -> None:
    """One statement per batch on PostgreSQL (Django's ``bulk_update`` writes a CASE arm per
    row, which PostgreSQL plans slowly); each row only if it has no place yet."""
    table = AuditEvent._meta.db_table
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            seqs, positions, prevs, hashes = (list(column) for column in zip(*rows, strict=True))
            cur.execute(
                f"UPDATE {table} AS e SET pos = v.pos, prev_hash = v.prev_hash, hash = v.hash"  # noqa: S608
                " FROM unnest(%s::bigint[], %s::bigint[], %s::text[], %s::text[])"
                " AS v(seq, pos, prev_hash, hash) WHERE e.seq = v.seq AND e.pos IS NULL",
                [seqs, positions, prevs, hashes],
            )
            placed = cur.rowcount
        else:
            placed = 0
            for seq, pos, prev, digest in rows:
                cur.execute(
                    f"UPDATE {table} SET pos = %s, prev_hash = %s, hash = %s"  # noqa: S608
                    " WHERE seq = %s AND pos IS NULL",
                    [pos, prev, digest, seq],
                )
                placed += cur.rowcount
    if placed != len(rows):
        raise RuntimeError("an event was placed by someone else while the sequencer held the lock")


def _extend_tree(batch: int) -> int:
    """Append the leaves of up to ``batch`` sequenced events the tree does not hold yet."""
    size = tree_size()
    hashes = list(
        AuditEvent.objects.filter(pos__gt=size).order_by("pos").values_list("pos", "hash")[:batch]
    )
    if not hashes:
        return 0
    frontier = Frontier.load(size, nodes)
    made: list[tuple[int, int, str]] = []
    for pos, digest in hashes:
        if pos != frontier.size + 1:
            raise RuntimeError(f"the chain has no event at position {frontier.size + 1}")
        for level, index, h in frontier.append(leaf_hash(bytes.fromhex(digest))):
            made.append((level, index, h.hex()))
    if connection.vendor == "postgresql":
        levels, indexes, digests = (list(column) for column in zip(*made, strict=True))
        with connection.cursor() as cur:
            cur.execute(
                f"INSERT INTO {AuditTreeNode._meta.db_table} (level, index, hash)"  # noqa: S608
                " SELECT * FROM unnest(%s::smallint[], %s::bigint[], %s::text[])",
                [levels, indexes, digests],
            )
    else:
        AuditTreeNode.objects.bulk_create(
            [AuditTreeNode(level=lv, index=ix, hash=h) for lv, ix, h in made], batch_size=1000
        )
    return len(hashes)
