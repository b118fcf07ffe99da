"""Demo data for contact agreements: a few cases with an agreement in two versions and a contact
log over several weeks, compliant contact and breaches (the worst with a placeholder screenshot as
evidence), so the trend chart, the chronology and the evidence pack have something to show.
Everything is written through the agreements services."""

from __future__ import annotations

import datetime as dt
import struct
import zlib
from zoneinfo import ZoneInfo

from caseflow import policy
from caseflow.agreements import services, terms
from caseflow.agreements.forms import local_midnight
from caseflow.agreements.models import AgreementStatus

ZONE = "Europe/London"
WEEKS = 14


def _terms(start: dt.date, *, topics: list[str], cap: int) -> terms.Agreement:
    """The demo terms, parsed the way stored terms are."""
    return terms.Agreement.from_dict(
        {
            "effective_from": local_midnight(start, ZONE),
            "timezone": ZONE,
            "permitted_channels": {"to_survivor": ["app"], "from_survivor": ["app"]},
            "forbidden_channels": {"to_survivor": ["phone", "in_person", "social_media"]},
            "permitted_topics": topics,
            "time_windows": [{"days": range(5), "start": "18:00", "end": "19:30"}],
            "frequency_cap": {"limit": cap, "per": "day"},
            "emergency_topics": ["medical emergency"],
            "handover": {
                "place": "Contact centre (fictional)",
                "weekdays": [4],
                "time": "17:00",
                "supervised": True,
                "no_direct_contact": True,
            },
            "child_contact_windows": [{"days": range(7), "start": "18:00", "end": "18:30"}],
        }
    )


PROTOCOL = {
    "routine_response_hours": 48,
    "urgent_response_hours": 4,
    "emergency_definition": "A child is ill or hurt, or a handover cannot happen.",
    "handover_by": "Contact centre staff (fictional)",
}


def _demo_png() -> bytes:
    """A small grey placeholder PNG standing in for a screenshot of a call log (fictional)."""
    width, height = 64, 40
    raw = b"".join(b"\x00" + b"\xc8" * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


DEMO_EVIDENCE = {
    "name": "call-log-screenshot.png",
    "content_type": "image/png",
    "data": _demo_png(),
}


def _at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=ZoneInfo(ZONE))


def seed_demo(context) -> None:
    chosen = [
        case
        for case in context.cases
        if case.is_open and not case.restricted and case.primary_advocate is not None
    ][:4]
    today = context.now.astimezone(ZoneInfo(ZONE)).date()
    start = today - dt.timedelta(weeks=WEEKS, days=today.weekday())
    for index, case in enumerate(chosen):
        advocate = case.primary_advocate
        if not policy.may(advocate, case, "edit"):
            continue
        agreement = services.agreement_create(
            actor=advocate,
            case=case,
            fields={
                "effective_from": start,
                "court": "Family Court at Exampletown (fictional)",
                "court_reference": f"DEMO-{index + 1:03d}",
                "order_expires_on": start + dt.timedelta(days=365),
            },
            children=[],
            agreement_terms=_terms(start, topics=["child logistics", "health", "school"], cap=3),
            protocol=PROTOCOL,
            note="Terms as agreed at the first hearing.",
        )
        services.agreement_set_status(
            actor=advocate,
            agreement=agreement,
            expected_lock=agreement.lock,
            status=AgreementStatus.ACTIVE,
        )
        second_from = start + dt.timedelta(weeks=WEEKS // 2)
        services.agreement_save(
            actor=advocate,
            agreement=agreement,
            expected_lock=agreement.lock,
            fields={
                "effective_from": agreement.effective_from,
                "court": agreement.court,
                "court_reference": agreement.court_reference,
                "order_expires_on": agreement.order_expires_on,
            },
            children=[],
            agreement_terms=_terms(second_from, topics=["child logistics", "health"], cap=2),
            protocol=PROTOCOL,
            note="Cap lowered and school moved to the school's own portal after review.",
        )
        rng = context.rng
        breaches = []
        for week in range(WEEKS):
            monday = start + dt.timedelta(weeks=week)
            # Compliant contact: a few app messages in the evening window about logistics.
            for day in rng.sample(range(5), k=rng.randint(1, 4)):
                when = _at(monday + dt.timedelta(days=day), 18, rng.choice((5, 20, 40)))
                event = _log(
                    services, advocate, agreement, when, "app", "message", "child logistics"
                )
                services.breach_review(
                    actor=advocate,
                    event=event,
                    terms_broken=[v["term"] for v in event.proposed],
                    severity="low",
                )
            # Breaches cluster in a few weeks, then ease off: a trend, not a single event.
            if week in (2, 5, 6, 8) or (index % 2 == 0 and week == 11):
                when = _at(monday + dt.timedelta(days=5), 22, 30)
                evidence = [DEMO_EVIDENCE] if week == 6 else []
                event = _log(
                    services, advocate, agreement, when, "phone", "call", "new partner", evidence
                )
                breaches.append(
                    services.breach_review(
                        actor=advocate,
                        event=event,
                        terms_broken=[v["term"] for v in event.proposed],
                        severity="high" if week == 6 else "medium",
                        police_reported=week == 6,
                        police_reference="DEMO-POLICE-0001" if week == 6 else "",
                        description="Fictional: late-night call about matters outside the terms.",
                    )
                )
            # The survivor's own message outside the agreed times: recorded neutrally, for
            # safety planning, never a breach (caseflow.agreements.breaches).
            if week == 7:
                when = _at(monday + dt.timedelta(days=2), 23, 10)
                _log(
                    services,
                    advocate,
                    agreement,
                    when,
                    "app",
                    "message",
                    "child logistics",
                    direction="from_survivor",
                    description="Fictional: she replied late at night about the children's "
                    "school shoes, after he had messaged.",
                )
        for breach in breaches:
            if breach is not None:
                services.breach_escalate(breach_id=breach.pk)


def _log(
    svc,
    advocate,
    agreement,
    when,
    channel,
    kind,
    topic,
    evidence=(),
    direction="to_survivor",
    description="Fictional demo entry.",
):
    return svc.event_log(
        actor=advocate,
        agreement=agreement,
        event=terms.ContactEvent(
            occurred_at=when, channel=channel, direction=direction, topic=topic, kind=kind
        ),
        description=description,
        evidence=list(evidence),
        reported_at=when + dt.timedelta(hours=14),
    )
