"""Building case notes, incidents and evidence for tests, through casework's services, and tiny
valid files of each accepted type."""

from __future__ import annotations

import datetime as dt
import io
import os
import struct
import zlib
from typing import Any

from django.utils import timezone
from pypdf import PdfWriter

from caseflow.cases import evidence as files
from caseflow.casework import services


def png(width: int = 8, height: int = 6, *, noise: bool = False) -> bytes:
    """A valid greyscale PNG; with ``noise`` its pixels do not compress (a large file)."""
    row = (lambda: os.urandom(width)) if noise else (lambda: b"\x80" * width)
    raw = b"".join(b"\x00" + row() for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def wav(seconds: float = 0.5, rate: int = 8000) -> bytes:
    frames = int(seconds * rate)
    data = bytes(128 + (i % 16) * 4 for i in range(frames))
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate, 1, 8)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data"
    body += struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


def pdf() -> bytes:
    """A plain one-page PDF (nothing in it acts)."""
    writer = PdfWriter()
    writer.add_blank_page(72, 72)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def checked(name: str, data: bytes) -> files.CheckedFile:
    return files.check_file(name, data)


def make_note(case, actor, *, when: dt.datetime | None = None, **fields: Any):
    data: dict[str, Any] = {
        "kind": "call",
        "participants": ["survivor"],
        "direction": "incoming",
        "occurred_at": when or timezone.now() - dt.timedelta(hours=1),
        "duration_minutes": 20,
        "text": "Talked through the week.",
    }
    data.update(fields)
    return services.note_create(actor=actor, case=case, **data)


def make_incident(case, actor, *, when: dt.datetime | None = None, **fields: Any):
    evidence = fields.pop("evidence", ())
    data: dict[str, Any] = {
        "kinds": ["coercive"],
        "occurred_at": when or timezone.now() - dt.timedelta(days=1),
        "person": "other_party",
        "what_happened": "Messages all evening.",
        "police": "no",
    }
    data.update(fields)
    return services.incident_create(actor=actor, case=case, fields=data, evidence=evidence)


def make_need(case, actor, *, kind: str = "housing", **fields: Any):
    from caseflow.casework import needs

    return needs.need_create(actor=actor, case=case, kind=kind, **fields)


def make_goal(case, actor, *, need=None, **fields: Any):
    from caseflow.casework import needs

    fields.setdefault("description", "Find a safe place to live.")
    return needs.goal_create(actor=actor, case=case, need=need, **fields)


def make_service(case, actor, **fields: Any):
    from caseflow.casework import needs

    data: dict[str, Any] = {"how": "referred", "provider": "Housing options team"}
    data.update(fields)
    return needs.service_create(actor=actor, case=case, fields=data)
