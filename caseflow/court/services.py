"""Hearings: recorded, changed and given their outcome, each change checking policy itself,
audited, and keeping the court's name and the advocate's words encrypted with the case key.
The safety steps a hearing proposes are in :mod:`caseflow.court.steps`."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.court.models import Hearing, HearingKind, HearingOutcome, Support
from caseflow.court.orders import plan_orders
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.i18n import gettext_lazy as _

#: How far back a hearing may be recorded, and how far ahead it may be listed.
EARLIEST = dt.timedelta(days=366 * 10)
LATEST = dt.timedelta(days=366 * 3)


def starts_at_problem(starts_at: dt.datetime, now: dt.datetime | None = None) -> str:
    """Why ``starts_at`` cannot be a hearing's time ("" when it can)."""
    now = now or timezone.now()
    if starts_at < now - EARLIEST:
        return str(_("That is more than ten years ago: check the year."))
    if starts_at > now + LATEST:
        return str(_("Hearings are listed at most three years ahead: check the year."))
    return ""


def _check(starts_at: dt.datetime, kind: str, support: list[str]) -> None:
    problem = starts_at_problem(starts_at)
    if problem:
        raise ValidationError({"starts_at": problem})
    if kind not in HearingKind.values:
        raise ValidationError({"kind": _("Choose the kind of hearing.")})
    if set(support) - set(Support.values):
        raise ValidationError({"support": _("Choose the support from the list.")})


@transaction.atomic
def hearing_record(
    *,
    actor: User,
    case: Case,
    court: str,
    kind: str,
    starts_at: dt.datetime,
    attendance: str,
    support: list[str],
) -> Hearing:
    policy.require(actor, case, "edit")
    _check(starts_at, kind, support)
    hearing = Hearing(
        case=case,
        court=court.strip(),
        kind=kind,
        starts_at=starts_at,
        attendance=attendance,
        support=sorted(set(support), key=Support.values.index),
        created_by=actor,
    )
    hearing.save()
    record("hearing.create", actor=actor, case=case, obj=hearing, detail={"kind": kind})
    return hearing


@transaction.atomic
def hearing_update(
    *,
    actor: User,
    hearing: Hearing,
    expected_version: int,
    court: str,
    kind: str,
    starts_at: dt.datetime,
    attendance: str,
    support: list[str],
) -> list[str]:
    """Change the hearing's details; returns the names of the fields that changed."""
    case = hearing.case
    policy.require(actor, case, "edit")
    _check(starts_at, kind, support)
    current = Hearing.objects.select_for_update().get(pk=hearing.pk)
    if current.version != expected_version:
        raise StaleEdit(str(_("hearing")))
    values: dict[str, Any] = {
        "court": court.strip(),
        "kind": kind,
        "starts_at": starts_at,
        "attendance": attendance,
        "support": sorted(set(support), key=Support.values.index),
    }
    changed = [name for name, value in values.items() if getattr(hearing, name) != value]
    for name, value in values.items():
        setattr(hearing, name, value)
    hearing.version = current.version + 1
    hearing.updated_at = timezone.now()
    hearing.save()
    record("hearing.update", actor=actor, case=case, obj=hearing, detail={"changed": changed})
    return changed


@transaction.atomic
def hearing_outcome_record(
    *,
    actor: User,
    hearing: Hearing,
    expected_version: int,
    outcome: str,
    attendance: str,
    orders: list[str],
    notes: str,
) -> Hearing:
    """Record what the hearing decided and the plan's protective orders it made."""
    case = hearing.case
    policy.require(actor, case, "edit")
    if outcome not in HearingOutcome.values:
        raise ValidationError({"outcome": _("Choose the outcome.")})
    if hearing.starts_at > timezone.now():
        raise ValidationError(_("The outcome can be recorded once the hearing has started."))
    known = {order.key for order in plan_orders(case)}
    if set(orders) - known:
        raise ValidationError({"orders": _("Choose orders recorded in the safety plan.")})
    current = Hearing.objects.select_for_update().get(pk=hearing.pk)
    if current.version != expected_version:
        raise StaleEdit(str(_("hearing")))
    hearing.outcome = outcome
    hearing.attendance = attendance
    hearing.orders = list(orders)
    hearing.outcome_notes = notes.strip()
    hearing.outcome_recorded_at = hearing.outcome_recorded_at or timezone.now()
    hearing.version = current.version + 1
    hearing.updated_at = timezone.now()
    hearing.save()
    record(
        "hearing.outcome",
        actor=actor,
        case=case,
        obj=hearing,
        detail={"outcome": outcome, "orders": len(orders)},
    )
    return hearing
