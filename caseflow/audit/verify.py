"""Checking the audit chain: streamed in keyset batches, so memory stays constant at any size."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from caseflow.audit.chain import FIELDS, GENESIS, event_hash
from caseflow.audit.models import AuditEvent

BATCH = 5000
_COLUMNS = (*FIELDS, "prev_hash", "hash")


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


def _rows(batch: int) -> Iterator[dict[str, Any]]:
    last = 0
    while True:
        chunk = list(
            AuditEvent.objects.filter(seq__gt=last).order_by("seq").values(*_COLUMNS)[:batch]
        )
        if not chunk:
            return
        yield from chunk
        last = chunk[-1]["seq"]


def verify_chain(saved_head: Head | None = None, *, batch: int = BATCH) -> Result:
    """Walk the chain from its first event. The first bad sequence number is the first row whose
    number, link to its predecessor or own hash is not what an untouched chain would hold."""
    expected_seq, prev = 1, GENESIS
    checked = 0
    saved_seen = False
    for row in _rows(batch):
        seq = row["seq"]
        if seq != expected_seq:
            return Result(
                False,
                checked,
                None,
                expected_seq,
                f"event {expected_seq} is missing (the next event is {seq})",
            )
        if row["prev_hash"] != prev:
            problem = f"event {seq} does not link to event {seq - 1}"
            return Result(False, checked, None, seq, problem)
        digest = event_hash(prev, row)
        if digest != row["hash"]:
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
