"""Events other systems may be told about (webhooks), published through the outbox.

An app that records something an agency's other systems subscribe to calls :func:`publish` in
the transaction of its change: the event exists exactly when the change does, and is handed to
the webhook fan-out (:mod:`caseflow.api.tasks`, named here only by its task name: this layer
imports nothing above it) when a feature's ``event_audiences`` says the agency has a
subscriber. An event carries its kind, its time and the case's random public id: never a name,
an address or any text of the case.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from caseflow.lib.contributions import contributions
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.outbox.services import enqueue

#: The registered name of the task that fans an event out to the agency's subscriptions.
FANOUT_TASK = "caseflow.api.tasks.webhook_fanout"


class EventKind(models.TextChoices):
    REFERRAL_RECEIVED = "referral.received", _("Referral received")
    HIGH_RISK_WITHOUT_PLAN = "case.high_risk_without_plan", _("High-risk case without a plan")
    CHECKIN_MISSED = "checkin.missed", _("Check-in missed")
    BREACH_RECORDED = "breach.recorded", _("Breach recorded")
    CLOSURE_AWAITING_APPROVAL = "closure.awaiting_approval", _("Closure waiting for approval")


def publish(kind: str, *, agency_id: int, case_public_id: str) -> None:
    """Tell the agency's subscribers that ``kind`` happened on the case, once this transaction
    commits (never before, and never lost if the broker is away). An agency nobody listens to
    gets no fan-out at all: a breach or a referral costs it no extra task."""
    EventKind(kind)  # an unknown kind raises
    if not contributions().anyone_listening(agency_id, str(kind)):
        return
    enqueue(
        FANOUT_TASK,
        kind=str(kind),
        agency_id=agency_id,
        case=case_public_id,
        at=timezone.now().isoformat(),
    )
