"""Demo data for casework: five months of case notes and incidents on the demo's high-risk
cases, with generated placeholder evidence (a grey PNG "photo", a one-page PDF letter and a
short WAV tone as a "voice note": nothing real), an amended note, and a note written under the
demo's emergency access; and needs at every status, with goals and services. Everything is
written through the casework services; times are relative to the demo's "now"."""

from __future__ import annotations

import datetime as dt
import math
import struct
import zlib

from caseflow import policy
from caseflow.cases import evidence as files
from caseflow.cases.models import BreakGlassGrant, RiskLevel
from caseflow.casework import needs, services
from caseflow.casework.models import CaseNote, GoalStatus, NeedStatus

MONTHS = 5
CASES = 3


def demo_png(width: int = 96, height: int = 64) -> bytes:
    """A grey gradient standing in for a photo (fictional)."""
    raw = b"".join(b"\x00" + bytes((x * 2 + y) % 256 for x in range(width)) for y in range(height))

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


def demo_wav(seconds: float = 1.5, rate: int = 8000) -> bytes:
    """A quiet 440 Hz tone standing in for a voice note (fictional)."""
    frames = int(seconds * rate)
    data = bytes(int(128 + 40 * math.sin(2 * math.pi * 440 * i / rate)) for i in range(frames))
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate, 1, 8)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


def demo_pdf() -> bytes:
    """A one-page PDF with one line of text, standing in for a letter (fictional)."""
    text = b"Fictional demo letter. No real person is described here."
    stream = b"BT /F1 12 Tf 40 760 Td (" + text + b") Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return out


def _evidence(kind: str) -> list[files.CheckedFile]:
    made = {
        "photo": ("photo-of-door-placeholder.png", demo_png()),
        "letter": ("letter-placeholder.pdf", demo_pdf()),
        "voice": ("voice-note-placeholder.wav", demo_wav()),
    }
    name, data = made[kind]
    return [files.check_file(name, data)]


NOTE_TEXTS = [
    ("call", ["survivor"], "incoming", 25, "Fictional: she called to talk through the week."),
    ("text", ["survivor"], "outgoing", None, "Fictional: checked in by text at the safe time."),
    ("in_person", ["survivor"], "none", 60, "Fictional: met at the office, reviewed the plan."),
    ("agency", ["other_agency"], "outgoing", 15, "Fictional: spoke to the housing officer."),
    ("court", ["survivor", "other_agency"], "none", 120, "Fictional: attended the hearing."),
    ("internal", ["colleague"], "none", 10, "Fictional: discussed the case in supervision."),
]

INCIDENTS = [
    (["coercive", "economic"], "", "no", None, "Fictional: took her bank card again."),
    (["stalking", "technology"], "", "yes", "photo", "Fictional: waited outside the flat."),
    (["threats"], "", "yes", "voice", "Fictional: a voicemail with threats."),
    (["physical"], "Fictional: bruised arm", "yes", "letter", "Fictional: pushed her."),
    (["children"], "", "unknown", None, "Fictional: late at the handover again."),
]


def seed_demo(context) -> None:
    now = context.now
    chosen = [
        case
        for case in context.cases
        if case.is_open
        and not case.restricted
        and case.primary_advocate is not None
        and case.risk_level == RiskLevel.HIGH
    ][:CASES]
    for index, case in enumerate(chosen):
        advocate = case.primary_advocate
        if not policy.may(advocate, case, "edit"):
            continue
        start = now - dt.timedelta(days=30 * MONTHS)
        incidents = []
        for number, (kinds, injuries, police, attach, text) in enumerate(INCIDENTS):
            when = start + dt.timedelta(days=12 + number * 28 + index * 3, hours=20)
            incident = services.incident_create(
                actor=advocate,
                case=case,
                fields={
                    "kinds": kinds,
                    "occurred_at": when,
                    "approximate": number == 0,
                    "when_described": "early in the month" if number == 0 else "",
                    "place": "Fictional: outside the flat",
                    "person": "other_party",
                    "what_happened": text,
                    "injuries": injuries,
                    "police": police,
                    "police_reference": (
                        f"DEMO-INC-{index + 1}{number}" if police == "yes" else ""
                    ),
                    "witnesses": "Fictional: a neighbour" if number == 1 else "",
                },
                evidence=_evidence(attach) if attach else [],
            )
            if incident.serious:
                services.incident_escalate(incident_id=incident.pk)
            incidents.append(incident)
        for number in range(MONTHS * 5):
            kind, people, direction, minutes, text = NOTE_TEXTS[number % len(NOTE_TEXTS)]
            when = start + dt.timedelta(days=3 + number * 6, hours=10 + number % 6)
            about = next(
                (i for i in incidents if dt.timedelta(0) <= when - i.occurred_at < dt.timedelta(5)),
                None,
            )
            note = services.note_create(
                actor=advocate,
                case=case,
                kind=kind,
                participants=people,
                direction=direction,
                occurred_at=when,
                duration_minutes=minutes,
                text=text,
                incident=about,
                evidence=_evidence("voice") if number == 7 else [],
            )
            # Written down an hour after the contact, as an advocate would.
            CaseNote.objects.filter(pk=note.pk).update(created_at=when + dt.timedelta(hours=1))
            if number == 4:
                note.refresh_from_db()
                note.case = case
                services.note_change(
                    actor=advocate,
                    note=note,
                    changes={"duration_minutes": 45},
                    expected_version=note.version,
                    reason="Fictional: the call was longer than first written.",
                )
    # A note written by the colleague who opened a case under emergency access.
    for grant in BreakGlassGrant.objects.filter(
        case__in=list(context.cases), expires_at__gt=now
    ).select_related("case", "user"):
        services.note_create(
            actor=grant.user,
            case=grant.case,
            kind="call",
            participants=["survivor"],
            direction="incoming",
            occurred_at=grant.granted_at,
            duration_minutes=10,
            text="Fictional: took the call on the duty line; she is safe tonight.",
        )
    seed_needs(context)


#: Needs, goals and services of the demo (fictional): each need with its status path (days ago
#: for each step), a goal (target in days from now) and a service.
NEEDS = (
    (
        "housing",
        "Fictional: the tenancy is in his name; she wants a place of her own.",
        ((70, NeedStatus.IDENTIFIED), (50, NeedStatus.IN_PROGRESS), (6, NeedStatus.MET)),
        ("A tenancy in her own name", -10, GoalStatus.ACHIEVED),
        ("referred", "Council housing options team (fictional)", "accepted"),
    ),
    (
        "money",
        "Fictional: no bank account of her own; benefits paid into the joint account.",
        ((60, NeedStatus.IDENTIFIED), (30, NeedStatus.IN_PROGRESS)),
        ("Her own bank account and benefits paid into it", 21, GoalStatus.OPEN),
        ("given", "", ""),
    ),
    (
        "technology",
        "Fictional: he seems to know where she has been.",
        ((12, NeedStatus.IDENTIFIED),),
        ("Phone and car checked for trackers", 14, GoalStatus.OPEN),
        ("referred", "Tech safety clinic (fictional)", "waiting"),
    ),
    (
        "children",
        "Fictional: worried about unsupervised contact at the weekends.",
        ((80, NeedStatus.IDENTIFIED), (40, NeedStatus.NO_LONGER_NEEDED)),
        None,
        None,
    ),
    (
        "emotional",
        "Fictional: would like someone to talk to between appointments.",
        ((25, NeedStatus.IDENTIFIED), (20, NeedStatus.IN_PROGRESS)),
        ("Weekly group sessions", 30, GoalStatus.OPEN),
        ("referred", "Survivors' support group (fictional)", "accepted"),
    ),
)
NEED_CASES = 6


def seed_needs(context) -> None:
    """Needs at every status, with goals and services, on a few of the demo's open cases."""
    today = context.now.date()
    chosen = [
        case
        for case in context.cases
        if case.is_open and not case.restricted and case.primary_advocate is not None
    ][:NEED_CASES]
    for index, case in enumerate(chosen):
        advocate = case.primary_advocate
        if not policy.may(advocate, case, "edit"):
            continue
        note = CaseNote.objects.filter(case=case).order_by("-occurred_at").first()
        for number, (kind, detail, path, goal_spec, service_spec) in enumerate(NEEDS):
            if (index + number) % 4 == 3:
                continue  # not every survivor has every need
            first_day, first_status = path[0]
            need = needs.need_create(
                actor=advocate,
                case=case,
                kind=kind,
                detail=detail,
                status=first_status,
                identified_on=today - dt.timedelta(days=first_day),
            )
            for days_ago, status in path[1:]:
                needs.need_set_status(
                    actor=advocate,
                    need=need,
                    expected_version=need.version,
                    status=status,
                    changed_on=today - dt.timedelta(days=days_ago),
                    comment="Fictional: talked it through with her.",
                )
            goal = None
            if goal_spec is not None:
                description, target_in, goal_status = goal_spec
                goal = needs.goal_create(
                    actor=advocate,
                    case=case,
                    description=description,
                    need=need,
                    target_date=today + dt.timedelta(days=target_in),
                )
                if goal_status != GoalStatus.OPEN:
                    needs.goal_change(
                        actor=advocate,
                        goal=goal,
                        expected_version=goal.version,
                        description=description,
                        need=need,
                        target_date=goal.target_date,
                        status=goal_status,
                    )
            if service_spec is not None:
                how, provider, outcome = service_spec
                needs.service_create(
                    actor=advocate,
                    case=case,
                    fields={
                        "how": how,
                        "provider": provider,
                        "description": "Fictional: "
                        + (
                            "referral made with her agreement."
                            if how == "referred"
                            else "helped her fill in the forms at the office."
                        ),
                        "provided_on": today - dt.timedelta(days=first_day // 2),
                        "outcome": outcome,
                        "need": need,
                        "goal": goal,
                        "note": note,
                    },
                )
