"""Building agreements, contact events and breaches for tests, through caseflow's services."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from caseflow.agreements import services, terms
from caseflow.agreements.forms import local_midnight

LONDON = "Europe/London"


def make_terms(start: dt.date = dt.date(2025, 1, 6), **overrides: Any) -> terms.Agreement:
    """Written contact through the app, weekdays 18:00-19:00, about child logistics."""
    fields: dict[str, Any] = {
        "effective_from": local_midnight(start, LONDON),
        "timezone": LONDON,
        "permitted_channels": {"to_survivor": ["app"], "from_survivor": ["app"]},
        "forbidden_channels": {"to_survivor": ["phone", "in_person"], "from_survivor": []},
        "permitted_topics": ["child logistics", "health", "school"],
        "time_windows": (terms.Window(days=range(5), start="18:00", end="19:00"),),
        "emergency_topics": ["medical emergency"],
        "frequency_cap": terms.Cap(limit=3, per="day"),
    }
    fields.update(overrides)
    return terms.Agreement(**fields)


def make_agreement(case, actor, start: dt.date = dt.date(2025, 1, 6), **overrides: Any):
    return services.agreement_create(
        actor=actor,
        case=case,
        fields={"effective_from": start},
        children=[],
        agreement_terms=make_terms(start, **overrides),
        protocol={"routine_response_hours": 48},
    )


def london(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=ZoneInfo(LONDON))


def log_event(agreement, actor, when: dt.datetime, **fields: Any):
    data = {"channel": "app", "direction": "to_survivor", "topic": "school", "kind": "message"}
    data.update(fields)
    description = data.pop("description", "")
    evidence = data.pop("evidence", [])
    return services.event_log(
        actor=actor,
        agreement=agreement,
        event=terms.ContactEvent(occurred_at=when, **data),
        description=description,
        evidence=evidence,
    )


def record_breach(agreement, actor, when: dt.datetime, severity: str = "medium", **fields: Any):
    event = log_event(agreement, actor, when, channel="phone", kind="call", **fields)
    return services.breach_review(
        actor=actor,
        event=event,
        terms_broken=[v["term"] for v in event.proposed] or ["forbidden_channels"],
        severity=severity,
        description="Called repeatedly.",
    )


def add_evidence(agreement, actor, data: bytes = b"%PDF-1.4 test", name: str = "note.pdf"):
    event = log_event(
        agreement,
        actor,
        london(2025, 2, 3, 18, 30),
        evidence=[{"name": name, "content_type": "application/pdf", "data": data}],
    )
    return event.evidence.get()
