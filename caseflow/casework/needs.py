"""Needs, goals and services: recording them, moving a need on, and counting them for reports.

The survivor's barriers (housing, money, children, immigration, ...) are structured needs with a
status; every status change is kept with the day it happened (:class:`NeedStatusChange`). Goals
have target dates; services are given by the agency or referred elsewhere, linked to the note
that records them and, for a referral that shares the survivor's details, to the release that
allowed it (a release of the same case, named through the foreign key: casework does not import
the confidentiality layer above it).

Each write checks policy itself, runs in a transaction, refuses a stale version
(:class:`~caseflow.lib.concurrency.StaleEdit`) and writes one audit event holding ids and field
names only. Look-ups are scoped to the case resolved through policy, so another case's id is
simply not found.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case, Party, PartyRole
from caseflow.casework.models import (
    OPEN_NEED_STATUSES,
    CaseNote,
    Goal,
    GoalStatus,
    Need,
    NeedKind,
    NeedStatus,
    NeedStatusChange,
    Service,
    ServiceHow,
    ServiceOutcome,
)
from caseflow.lib.concurrency import StaleEdit

# --- Reading ----------------------------------------------------------------------------------


def _own(rows: Iterable[Any], case: Case) -> list[Any]:
    rows = list(rows)
    for row in rows:
        row.case = case  # one unwrapped data key for all of them
    return rows


def needs_for(case: Case) -> list[Need]:
    """The case's needs, open ones first, each with its goals and services (a fixed number of
    queries whatever their number)."""
    rows = _own(
        Need.objects.filter(case=case)
        .select_related("recorded_by")
        .prefetch_related(
            Prefetch("goals", queryset=Goal.objects.order_by("target_date", "pk")),
            Prefetch("services", queryset=Service.objects.order_by("-provided_on", "-pk")),
        ),
        case,
    )
    for need in rows:
        _own(need.goals.all(), case)
        _own(need.services.all(), case)
    open_first = {status: i for i, status in enumerate(NeedStatus.values)}
    return sorted(rows, key=lambda n: (open_first[n.status], n.kind, n.created_at))


def goals_without_need(case: Case) -> list[Goal]:
    return _own(Goal.objects.filter(case=case, need__isnull=True), case)


def services_without_need(case: Case) -> list[Service]:
    return _own(Service.objects.filter(case=case, need__isnull=True), case)


def need_get(case: Case, need_id: str) -> Need:
    need = (
        Need.objects.filter(case=case, public_id=need_id)
        .select_related("recorded_by")
        .prefetch_related(
            Prefetch(
                "status_changes",
                queryset=NeedStatusChange.objects.select_related("changed_by"),
            ),
            "goals",
            Prefetch("services", queryset=Service.objects.select_related("note")),
            Prefetch(
                "notes",
                queryset=CaseNote.objects.only(
                    "public_id", "kind", "occurred_at", "need_id", "case_id"
                ),
            ),
        )
        .first()
    )
    if need is None:
        raise Http404
    need.case = case
    for related in ("status_changes", "goals", "services"):
        _own(getattr(need, related).all(), case)
    return need


def goal_get(case: Case, goal_id: str) -> Goal:
    goal = Goal.objects.filter(case=case, public_id=goal_id).select_related("need").first()
    if goal is None:
        raise Http404
    goal.case = case
    if goal.need is not None:
        goal.need.case = case
    return goal


def service_get(case: Case, service_id: str) -> Service:
    service = (
        Service.objects.filter(case=case, public_id=service_id)
        .select_related("need", "goal", "note", "release")
        .first()
    )
    if service is None:
        raise Http404
    service.case = case
    return service


def need_choices(case: Case) -> list[tuple[str, str]]:
    """The case's needs for a select: kind and status (nothing encrypted is read)."""
    rows = Need.objects.filter(case=case).only("public_id", "kind", "status").order_by("kind", "pk")
    return [
        (n.public_id, f"{n.get_kind_display()} ({n.get_status_display().lower()})") for n in rows
    ]


def open_need_choices(case: Case) -> list[tuple[str, str]]:
    """The case's needs still open (identified or in progress), for the closure form."""
    rows = (
        Need.objects.filter(case=case, status__in=OPEN_NEED_STATUSES)
        .only("public_id", "kind", "status")
        .order_by("kind", "pk")
    )
    return [
        (n.public_id, f"{n.get_kind_display()} ({n.get_status_display().lower()})") for n in rows
    ]


def need_labels(case: Case, need_ids: list[str]) -> list[str]:
    """The kinds of the case's needs with these ids, in words (another case's id is not found)."""
    rows = (
        Need.objects.filter(case=case, public_id__in=need_ids).only("kind").order_by("kind", "pk")
    )
    return [str(n.get_kind_display()) for n in rows]


def needs_met_at_closure(case: Case, need_ids: list[str], actor: User) -> int:
    """Mark met, today, the needs the closure names that are still open; each keeps its history
    and its audit event like any other change of status. Returns how many moved."""
    moved = 0
    for need in Need.objects.filter(
        case=case, public_id__in=need_ids, status__in=OPEN_NEED_STATUSES
    ):
        need.case = case
        if need_set_status(
            actor=actor,
            need=need,
            expected_version=need.version,
            status=NeedStatus.MET,
            comment="",
        ):
            moved += 1
    return moved


def goal_choices(case: Case) -> list[tuple[str, str]]:
    rows = _own(Goal.objects.filter(case=case).order_by("-created_at", "-pk"), case)
    return [(g.public_id, _short(g.description)) for g in rows]


def note_choices(case: Case, limit: int = 50) -> list[tuple[str, str]]:
    rows = CaseNote.objects.filter(case=case).only("public_id", "kind", "occurred_at")[:limit]
    return [(n.public_id, f"{n.get_kind_display()}, {n.occurred_at:%d %b %Y}") for n in rows]


def _release_model() -> Any:
    # The release model sits in a layer above casework: reached through the foreign key only.
    return Service._meta.get_field("release").related_model


def usable_releases(case: Case) -> QuerySet:
    """The case's releases a referral may name: valid today, and given by the survivor (or a
    guardian for a child) — never by the other party, nor by someone recorded as them."""
    today = timezone.localdate()
    other_party = (
        Party.objects.filter(case=case, role=PartyRole.OTHER_PARTY)
        .exclude(identity_index="")
        .values("identity_index")
    )
    return (
        _release_model()
        .objects.filter(
            case=case,
            revoked_at__isnull=True,
            signed_on__lte=today,
            expires_on__gte=today,
            consenting_party__role=PartyRole.SURVIVOR,
        )
        .exclude(consenting_party__identity_index__in=other_party)
    )


def release_choices(case: Case) -> list[tuple[str, str]]:
    """The releases a referral may name, for a select."""
    rows = _own(usable_releases(case), case)
    return [(r.public_id, f"{r.recipient} (until {r.expires_on:%d %b %Y})") for r in rows]


def _short(text: str, size: int = 80) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= size else text[: size - 1].rstrip() + "…"


def need_by_id(case: Case, need_id: str) -> Need | None:
    return Need.objects.filter(case=case, public_id=need_id).first() if need_id else None


def goal_by_id(case: Case, goal_id: str) -> Goal | None:
    return Goal.objects.filter(case=case, public_id=goal_id).first() if goal_id else None


def note_by_id(case: Case, note_id: str) -> CaseNote | None:
    return CaseNote.objects.filter(case=case, public_id=note_id).first() if note_id else None


def release_by_id(case: Case, release_id: str) -> Any:
    """A release the referral may name (see :func:`usable_releases`), or None."""
    if not release_id:
        return None
    return usable_releases(case).filter(public_id=release_id).first()


def panel_summary(case: Case) -> dict[str, Any]:
    """What the case page shows: the open needs (with their nearest goal) and counts."""
    needs = needs_for(case)
    return {
        "open": [n for n in needs if n.status in OPEN_NEED_STATUSES],
        "closed_count": sum(1 for n in needs if n.status not in OPEN_NEED_STATUSES),
        "count": len(needs),
    }


# --- Counting, for reports -------------------------------------------------------------------


def need_counts(cases: QuerySet[Case] | Iterable[Case]) -> dict[str, dict[str, int]]:
    """How many needs of each kind are at each status, over ``cases`` (a queryset the caller
    scoped by policy, or cases). Every kind and status is present, zero when none, so reports
    can print a full table: ``{kind: {status: count}}``."""
    counts = {kind: dict.fromkeys(NeedStatus.values, 0) for kind in NeedKind.values}
    rows = (
        Need.objects.filter(case__in=cases)
        .values("kind", "status")
        .annotate(n=Count("pk"))
        .order_by()
    )
    for row in rows:
        counts[row["kind"]][row["status"]] = row["n"]
    return counts


def service_counts(cases: QuerySet[Case] | Iterable[Case]) -> dict[str, int]:
    """How many services were given and referred over ``cases``: ``{how: count}``."""
    counts = dict.fromkeys(ServiceHow.values, 0)
    rows = Service.objects.filter(case__in=cases).values("how").annotate(n=Count("pk")).order_by()
    for row in rows:
        counts[row["how"]] = row["n"]
    return counts


# --- Writing ----------------------------------------------------------------------------------


def _check_day(day: dt.date) -> None:
    if day > timezone.localdate() + dt.timedelta(days=1):
        raise ValueError("a status change cannot be recorded for a day still to come")


@transaction.atomic
def need_create(
    *,
    actor: User,
    case: Case,
    kind: str,
    detail: str = "",
    status: str = NeedStatus.IDENTIFIED,
    identified_on: dt.date | None = None,
) -> Need:
    """Record a need; its first history entry says when it was identified (and at what status)."""
    policy.require(actor, case, "edit")
    day = identified_on or timezone.localdate()
    _check_day(day)
    need = Need(
        case=case,
        kind=NeedKind(kind),
        status=NeedStatus(status),
        status_since=day,
        identified_on=day,
        detail=detail,
        recorded_by=actor,
    )
    need.save()
    NeedStatusChange(
        case=case,
        need=need,
        from_status="",
        to_status=need.status,
        changed_on=day,
        changed_by=actor,
    ).save()
    record(
        "need.create",
        actor=actor,
        case=case,
        obj=need,
        detail={"kind": need.kind, "status": need.status},
    )
    return need


def _claim(model: type[Any], row: Any, expected_version: int, what: str) -> None:
    """Bump ``row``'s version if it is still ``expected_version``, else :class:`StaleEdit`."""
    claimed = model.objects.filter(pk=row.pk, version=expected_version).update(
        version=expected_version + 1, updated_at=timezone.now()
    )
    if not claimed:
        raise StaleEdit(what)
    row.version = expected_version + 1


@transaction.atomic
def need_change(
    *,
    actor: User,
    need: Need,
    expected_version: int,
    kind: str,
    detail: str,
) -> Need:
    """Change what the need is about (its status moves through :func:`need_set_status`)."""
    policy.require(actor, need.case, "edit")
    _claim(Need, need, expected_version, "need")
    changed = [
        name for name, value in (("kind", kind), ("detail", detail)) if getattr(need, name) != value
    ]
    need.kind = NeedKind(kind)
    need.detail = detail
    need.updated_at = timezone.now()
    need.save(update_fields=["kind", "detail", "updated_at"])
    record(
        "need.update",
        actor=actor,
        case=need.case,
        obj=need,
        detail={"fields": changed},
    )
    return need


@transaction.atomic
def need_set_status(
    *,
    actor: User,
    need: Need,
    expected_version: int,
    status: str,
    changed_on: dt.date | None = None,
    comment: str = "",
) -> NeedStatusChange | None:
    """Move the need to ``status`` on ``changed_on`` (today by default), keeping the history.
    Any status may follow any other (a need met may come back). The same status again changes
    nothing and returns None. A day still to come, or before the need's latest change, raises
    ``ValueError`` (the form says so first)."""
    policy.require(actor, need.case, "edit")
    new = NeedStatus(status)
    if new == need.status:
        return None
    day = changed_on or timezone.localdate()
    _check_day(day)
    if day < need.status_since:
        raise ValueError("a status change cannot be dated before the need's latest one")
    _claim(Need, need, expected_version, "need")
    before = need.status
    need.status = new
    need.status_since = day
    need.save(update_fields=["status", "status_since"])
    change = NeedStatusChange(
        case=need.case,
        need=need,
        from_status=before,
        to_status=new,
        changed_on=day,
        comment=comment,
        changed_by=actor,
    )
    change.save()
    record(
        "need.status",
        actor=actor,
        case=need.case,
        obj=need,
        detail={"from": before, "to": str(new), "on": day.isoformat()},
    )
    return change


def _same_case(case: Case, *rows: Any) -> None:
    if any(row is not None and row.case_id != case.pk for row in rows):
        raise PermissionDenied


@transaction.atomic
def goal_create(
    *,
    actor: User,
    case: Case,
    description: str,
    need: Need | None = None,
    target_date: dt.date | None = None,
) -> Goal:
    policy.require(actor, case, "edit")
    _same_case(case, need)
    goal = Goal(
        case=case, need=need, description=description, target_date=target_date, recorded_by=actor
    )
    goal.save()
    record(
        "goal.create",
        actor=actor,
        case=case,
        obj=goal,
        detail={"need": need.public_id if need else None},
    )
    return goal


@transaction.atomic
def goal_change(
    *,
    actor: User,
    goal: Goal,
    expected_version: int,
    description: str,
    need: Need | None,
    target_date: dt.date | None,
    status: str,
) -> Goal:
    case = goal.case
    policy.require(actor, case, "edit")
    _same_case(case, need)
    _claim(Goal, goal, expected_version, "goal")
    new_status = GoalStatus(status)
    changed = [
        name
        for name, value in (
            ("description", description),
            ("need_id", need.pk if need else None),
            ("target_date", target_date),
            ("status", new_status),
        )
        if getattr(goal, name) != value
    ]
    if new_status != goal.status:
        goal.status_since = timezone.localdate()
    goal.description = description
    goal.need = need
    goal.target_date = target_date
    goal.status = new_status
    goal.save(update_fields=["description", "need", "target_date", "status", "status_since"])
    record(
        "goal.update",
        actor=actor,
        case=case,
        obj=goal,
        detail={"fields": changed, "status": goal.status},
    )
    return goal


SERVICE_FIELDS = (
    "need",
    "goal",
    "how",
    "provider",
    "description",
    "provided_on",
    "outcome",
    "note",
    "release",
)


def _service_values(case: Case, fields: dict[str, Any]) -> dict[str, Any]:
    values = {name: fields.get(name) for name in SERVICE_FIELDS}
    _same_case(case, values["need"], values["goal"], values["note"], values["release"])
    values["how"] = ServiceHow(str(values["how"]))
    values["outcome"] = ServiceOutcome(values.get("outcome") or "")
    values["provider"] = values["provider"] or ""
    values["description"] = values["description"] or ""
    values["provided_on"] = values["provided_on"] or timezone.localdate()
    if values["how"] == ServiceHow.GIVEN:
        values["release"] = None  # a release is what allows a referral to share details
    return values


@transaction.atomic
def service_create(*, actor: User, case: Case, fields: dict[str, Any]) -> Service:
    """Record a service given or a referral made. ``fields`` holds :data:`SERVICE_FIELDS`
    (related rows already looked up in ``case``)."""
    policy.require(actor, case, "edit")
    service = Service(case=case, recorded_by=actor, **_service_values(case, fields))
    service.save()
    record(
        "service.create",
        actor=actor,
        case=case,
        obj=service,
        detail={
            "how": service.how,
            "need": service.need.public_id if service.need else None,
            "note": service.note.public_id if service.note else None,
            "release": service.release.public_id if service.release else None,
        },
    )
    return service


@transaction.atomic
def service_change(
    *,
    actor: User,
    service: Service,
    expected_version: int,
    fields: dict[str, Any],
) -> Service:
    case = service.case
    policy.require(actor, case, "edit")
    values = _service_values(case, fields)
    _claim(Service, service, expected_version, "service")
    changed = []
    for name, value in values.items():
        current = getattr(service, name)
        if current != value:
            changed.append(name)
            setattr(service, name, value)
    service.save(update_fields=[*values, "updated_at"])
    record(
        "service.update",
        actor=actor,
        case=case,
        obj=service,
        detail={"fields": changed},
    )
    return service
