"""What contact agreements contribute to referral packs, case exports and evidence packs.

"Court orders": the court order each agreement is linked to. "Evidence": the contact log, the
breach register and the list of evidence files (their bytes leave only in an evidence pack).
Every function takes a case already resolved through policy and binds its data key once.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from caseflow.agreements.breaches import can_breach, counted_breaches
from caseflow.agreements.labels import (
    CHANNEL_LABELS,
    DIRECTION_LABELS,
    KIND_LABELS,
    TERM_LABELS,
    finding_sentence,
)
from caseflow.agreements.models import ContactAgreement, ContactEvent, Evidence
from caseflow.cases.models import Case

#: What an export says of the review of the survivor's own contact.
SURVIVOR_CONTACT_REVIEW = _("Not reviewed: contact from the survivor")

#: (label, value) pairs, the shape of every section of a referral pack or case export.
Rows = list[tuple[str, str]]


def _bind(rows, case: Case) -> list:
    rows = list(rows)
    for row in rows:
        row.case = case  # one unwrapped data key for all of them
    return rows


def agreement_order_rows(case: Case) -> Rows:
    rows: Rows = []
    agreements = _bind(ContactAgreement.objects.filter(case=case).order_by("effective_from"), case)
    for number, agreement in enumerate(agreements, start=1):
        if not (agreement.court or agreement.court_reference or agreement.order_expires_on):
            continue
        label = f"Contact agreement {number} court order"
        rows.append((f"{label}: court", agreement.court or "—"))
        rows.append((f"{label}: reference", agreement.court_reference or "—"))
        if agreement.order_expires_on:
            rows.append((f"{label}: expires", agreement.order_expires_on.isoformat()))
    return rows


def contact_log(case: Case) -> list[dict[str, Any]]:
    """Every logged contact of the case, oldest first, as plain values."""
    events = _bind(ContactEvent.objects.filter(case=case).order_by("occurred_at", "pk"), case)
    return [
        {
            "ref": event.public_id[:8],
            "occurred_at": event.occurred_at.isoformat(),
            "reported_at": event.reported_at.isoformat(),
            "channel": CHANNEL_LABELS.get(event.channel, event.channel),
            "direction": DIRECTION_LABELS.get(event.direction, event.direction),
            "kind": KIND_LABELS.get(event.kind, event.kind),
            "topic": event.topic,
            "handover_missed": event.handover_missed,
            "direct_contact_at_handover": event.direct_contact_at_handover,
            "description": event.description,
            # The survivor's own contact is never reviewed as a breach, and an export never
            # says whether it kept the terms (caseflow.agreements.breaches).
            "review": event.get_review_display()
            if can_breach(event.direction)
            else str(SURVIVOR_CONTACT_REVIEW),
        }
        for event in events
    ]


def breaches(case: Case) -> list[dict[str, Any]]:
    """The case's breach register, oldest first, as plain values."""
    rows = _bind(
        counted_breaches().filter(case=case).select_related("event").order_by("occurred_at", "pk"),
        case,
    )
    return [
        {
            "ref": breach.public_id[:8],
            "contact": breach.event.public_id[:8],
            "occurred_at": breach.occurred_at.isoformat(),
            "reported_at": breach.reported_at.isoformat(),
            "channel": CHANNEL_LABELS.get(breach.channel, breach.channel),
            "terms_broken": [TERM_LABELS.get(t, t) for t in breach.terms_broken],
            "findings": [finding_sentence(v) for v in (breach.violations or [])],
            "description": breach.description,
            "severity": breach.get_severity_display(),
            "police_reference": breach.police_reference if breach.police_reported else "",
        }
        for breach in rows
    ]


def evidence_files(case: Case) -> list[Evidence]:
    return _bind(
        Evidence.objects.filter(case=case).select_related("event").order_by("created_at", "pk"),
        case,
    )


def evidence_rows(case: Case) -> Rows:
    rows: Rows = []
    for event in contact_log(case):
        text = f"{event['kind']} · {event['channel']} · {event['direction']}"
        if event["topic"]:
            text += f" · {event['topic']}"
        if event["description"]:
            text += f": {event['description']}"
        rows.append((f"Contact {event['ref']} ({event['occurred_at'][:16]})", text))
    for breach in breaches(case):
        text = f"{breach['severity']}: {'; '.join(str(t) for t in breach['terms_broken'])}"
        if breach["description"]:
            text += f". {breach['description']}"
        rows.append((f"Breach {breach['ref']} ({breach['occurred_at'][:16]})", text))
    for evidence in evidence_files(case):
        rows.append(
            (
                f"Evidence file {evidence.public_id[:8]}",
                f"{evidence.content_type}, {evidence.size} bytes, SHA-256 {evidence.sha256}",
            )
        )
    return rows
