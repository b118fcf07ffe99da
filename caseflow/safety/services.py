"""Operations on safety plans and risk assessments: each checks policy itself, runs in a
transaction and writes its audit event."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from caseflow import policy
from caseflow.accounts.models import Agency, User
from caseflow.audit.services import record
from caseflow.cases import journey
from caseflow.cases.features import OCCASION_SOURCE_PREFIX
from caseflow.cases.models import Case, CaseStatus, RiskLevel
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.inbox.services import case_supervisors, followup_cancel, followup_ensure, notify
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety import hard_dates, sections
from caseflow.safety import instruments as engine
from caseflow.safety.hard_dates import EARLIEST_YEAR, MOST_DAYS_BEFORE
from caseflow.safety.models import (
    HardDate,
    HardDateKind,
    ProtectiveOrderExpiry,
    RiskAssessment,
    RiskInstrument,
    SafetyFollowUpKind,
    SafetyPlan,
    SafetyPlanVersion,
)

#: Where an assessment's ``answers`` keep the survivor's own words ({item id: text}), beside the
#: yes/no answers the score comes from.
WORDS_KEY = "_words"
DEFAULT_REVIEW_DAYS = {"high": 14, "medium": 30, "standard": 90, "unknown": 30}


class StalePlan(StaleEdit):
    """The plan was saved by someone else after this user opened it; nothing was written.

    ``current_version`` is the plan's version now; ``changed`` the keys of the sections that
    differ between the version the user opened and the current one. The message says which, so
    the advocate can compare before typing again.
    """

    def __init__(self, current_version: int, changed: list[str]):
        self.current_version = current_version
        self.changed = changed
        super().__init__("plan")

    @property
    def changed_labels(self) -> list[str]:
        return [str(sections.SECTION_LABELS[key]) for key in self.changed]

    @property
    def message(self) -> str:
        changed = (
            ", ".join(str(k) for k in self.changed_labels)
            or "no section content (only the version number)"
        )
        return (
            f"Someone else saved this plan (now version {self.current_version}) after you "
            f"opened it. Nothing was saved. Sections changed since you opened it: {changed}. "
            "Your text is still in the form below: compare it with the current plan, then "
            "reload and make your changes again."
        )


def review_days(risk_level: str) -> int:
    table = {**DEFAULT_REVIEW_DAYS, **getattr(settings, "SAFETY_REVIEW_DAYS", {})}
    return int(table.get(risk_level, table["unknown"]))


def default_review_by(risk_level: str, today: dt.date | None = None) -> dt.date:
    return (today or timezone.localdate()) + dt.timedelta(days=review_days(risk_level))


def _review_source(plan: SafetyPlan) -> str:
    return f"plan:{plan.pk}:review:{plan.review_by.isoformat()}" if plan.review_by else ""


# --- safety plans --------------------------------------------------------------------------------


def plan_of(case: Case) -> SafetyPlan | None:
    plan = SafetyPlan.objects.filter(case=case).select_related("last_reviewed_by").first()
    if plan is not None:
        plan.case = case
    return plan


def plan_versions(plan: SafetyPlan):
    """The version list, newest first: metadata only (the content stays sealed)."""
    return (
        SafetyPlanVersion.objects.filter(plan=plan)
        .select_related("author")
        .only(
            "number",
            "created_at",
            "plan_id",
            "case_id",
            "author__first_name",
            "author__last_name",
            "author__username",
        )
        .order_by("-number")
    )


def plan_version(plan: SafetyPlan, number: int) -> SafetyPlanVersion | None:
    version = (
        SafetyPlanVersion.objects.filter(plan=plan, number=number).select_related("author").first()
    )
    if version is not None:
        version.case = plan.case
    return version


def plan_content(plan: SafetyPlan | None, number: int | None = None) -> dict[str, Any]:
    """The normalised content of version ``number`` (default: the current one); empty if none."""
    if plan is None or plan.version == 0:
        return sections.normalise({})
    version = plan_version(plan, number if number is not None else plan.version)
    return sections.normalise(version.content if version is not None else {})


def _replace_order_expiries(plan: SafetyPlan, content: dict[str, Any]) -> None:
    ProtectiveOrderExpiry.objects.filter(plan=plan).delete()
    dates = sections.order_expiry_dates(content)
    ProtectiveOrderExpiry.objects.bulk_create(
        [ProtectiveOrderExpiry(plan=plan, expires_on=day) for day in dates]
    )


@transaction.atomic
def plan_save(
    *,
    actor: User,
    case: Case,
    expected_version: int,
    content: Mapping[str, Any],
) -> SafetyPlanVersion:
    """Write ``content`` as the plan's next version, if the plan is still at
    ``expected_version`` (0 for a case without a plan). Otherwise raise :class:`StalePlan` and
    write nothing. The plan row is locked while it is checked and written, so two saves racing
    from the same version cannot both succeed."""
    policy.require(actor, case, "edit")
    try:
        content = sections.normalise(dict(content))
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    plan = SafetyPlan.objects.select_for_update().filter(case=case).first()
    if plan is None:
        if expected_version != 0:
            raise StalePlan(0, [])
        try:
            with transaction.atomic():
                plan = SafetyPlan.objects.create(
                    case=case, version=0, review_by=default_review_by(case.risk_level)
                )
        except IntegrityError:
            # Someone else created the plan at the same moment: this save is stale.
            plan = SafetyPlan.objects.get(case=case)
            plan.case = case
            changed = sections.changed_sections({}, plan_content(plan))
            raise StalePlan(plan.version, changed) from None
    plan.case = case
    if plan.version != expected_version:
        opened = plan_content(plan, expected_version) if expected_version else {}
        raise StalePlan(plan.version, sections.changed_sections(opened, plan_content(plan)))
    previous = plan_content(plan)
    number = plan.version + 1
    version = SafetyPlanVersion(
        case=case,
        plan=plan,
        number=number,
        author=actor,
        content=content,
        created_at=timezone.now(),
    )
    version.save()
    plan.version = number
    plan.updated_at = version.created_at
    plan.save(update_fields=["version", "updated_at"])
    _replace_order_expiries(plan, content)
    record(
        "plan.save",
        actor=actor,
        case=case,
        obj=plan,
        detail={"version": number, "sections": sections.changed_sections(previous, content)},
    )
    return version


@transaction.atomic
def plan_mark_reviewed(
    *,
    actor: User,
    case: Case,
    review_by: dt.date | None = None,
) -> SafetyPlan:
    """Record that ``actor`` reviewed the plan now; the next review is due on ``review_by``
    (default: by the case's risk band). The follow-up for the old review date is closed."""
    policy.require(actor, case, "edit")
    plan = SafetyPlan.objects.select_for_update().filter(case=case).first()
    if plan is None:
        raise ValidationError(_("This case has no safety plan to review yet."))
    plan.case = case
    old_source = _review_source(plan)
    plan.last_reviewed_at = timezone.now()
    plan.last_reviewed_by = actor
    plan.review_by = review_by or default_review_by(case.risk_level)
    plan.save(update_fields=["last_reviewed_at", "last_reviewed_by", "review_by"])
    if old_source and old_source != _review_source(plan):
        followup_cancel(case=case, source_key=old_source, actor=actor)
    record(
        "plan.review",
        actor=actor,
        case=case,
        obj=plan,
        detail={"fields": ["last_reviewed_at", "review_by"]},
    )
    return plan


def _bring_review_forward(plan: SafetyPlan | None, risk_level: str) -> None:
    """A higher risk band shortens the review interval: never leave the review further away."""
    if plan is None:
        return
    due = default_review_by(risk_level)
    if plan.review_by is None or plan.review_by > due:
        plan.review_by = due
        plan.save(update_fields=["review_by"])


# --- follow-ups ----------------------------------------------------------------------------------


def _due(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(9, 0), tzinfo=timezone.get_current_timezone())


def safety_followups_sweep(now: dt.datetime | None = None) -> dict[str, int]:
    """Make sure every overdue plan review and every protective order expiring within
    ``ORDER_EXPIRY_WARNING_DAYS`` has its follow-up. Idempotent: running it again creates nothing
    new. Returns how many follow-ups were created, per kind."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    created = {"plan_review": 0, "order_expiry": 0}
    warning = dt.timedelta(days=getattr(settings, "ORDER_EXPIRY_WARNING_DAYS", 28))
    overdue = (
        SafetyPlan.objects.filter(review_by__lt=today)
        .exclude(case__status=CaseStatus.CLOSED)
        .select_related("case", "case__primary_advocate")
        .order_by("pk")
    )
    for plan in overdue.iterator(chunk_size=500):
        _followup, new = followup_ensure(
            case=plan.case,
            kind=SafetyFollowUpKind.PLAN_REVIEW,
            due_at=_due(plan.review_by),  # type: ignore[arg-type]  # only plans with a date
            source_key=_review_source(plan),
        )
        created["plan_review"] += new
    expiring = (
        ProtectiveOrderExpiry.objects.filter(expires_on__gte=today, expires_on__lte=today + warning)
        .exclude(plan__case__status=CaseStatus.CLOSED)
        .select_related("plan__case", "plan__case__primary_advocate")
        .order_by("pk")
    )
    for expiry in expiring.iterator(chunk_size=500):
        _followup, new = followup_ensure(
            case=expiry.plan.case,
            kind=SafetyFollowUpKind.ORDER_EXPIRY,
            due_at=_due(max(today, expiry.expires_on - warning)),
            source_key=f"plan:{expiry.plan_id}:order:{expiry.expires_on.isoformat()}",
        )
        created["order_expiry"] += new
    return created


# --- risk instruments ----------------------------------------------------------------------------


@transaction.atomic
def instrument_import(
    *,
    definition: Mapping[str, Any],
    agency: Agency | None = None,
    thresholds: Mapping[str, float | int] | None = None,
) -> tuple[RiskInstrument, bool]:
    """Store a validated instrument (shared, or ``agency``'s own with its thresholds). Loading the
    same id and version again replaces the definition. Raises :class:`InstrumentError` (nothing
    saved) when the definition or the thresholds are invalid."""
    instrument = engine.validate_instrument(definition)
    thresholds = dict(thresholds or {})
    if thresholds:
        instrument.with_thresholds(thresholds)  # validates: raises InstrumentError
    row, created = RiskInstrument.objects.update_or_create(
        agency=agency,
        slug=instrument.id,
        version=instrument.version,
        defaults={
            "name": instrument.name,
            "definition": instrument.to_dict(),
            "thresholds": thresholds,
            "loaded_at": timezone.now(),
        },
    )
    record(
        "instrument.load",
        obj=row,
        agency_id=agency.pk if agency else None,
        detail={"slug": instrument.id, "version": instrument.version, "created": created},
    )
    return row, created


def instruments_for(agency_id: int) -> list[RiskInstrument]:
    """The instruments an agency can use: the newest version of each, its own imports taking the
    place of shared ones with the same id."""
    rows = RiskInstrument.objects.filter(Q(agency_id=agency_id) | Q(agency__isnull=True))
    chosen: dict[str, RiskInstrument] = {}
    for row in rows:
        current = chosen.get(row.slug)
        rank = (row.agency_id is not None, row.version)
        if current is None or rank > (current.agency_id is not None, current.version):
            chosen[row.slug] = row
    return sorted(chosen.values(), key=lambda r: r.name)


def instrument_for_case(case: Case, instrument_id: int) -> RiskInstrument | None:
    return next((r for r in instruments_for(case.agency_id) if r.pk == instrument_id), None)


# --- risk assessments ----------------------------------------------------------------------------


def assessments_of(case: Case, limit: int | None = None):
    """The case's assessments, newest first: metadata only."""
    rows = (
        RiskAssessment.objects.filter(case=case)
        .select_related("instrument", "assessor")
        .only(
            "public_id",
            "case_id",
            "score",
            "band",
            "override_band",
            "created_at",
            "instrument__name",
            "instrument__version",
            "assessor__first_name",
            "assessor__last_name",
            "assessor__username",
        )
        .order_by("-created_at", "-pk")
    )
    return rows[:limit] if limit else rows


def assessment_of(case: Case, public_id: str) -> RiskAssessment | None:
    assessment = (
        RiskAssessment.objects.filter(case=case, public_id=public_id)
        .select_related("instrument", "assessor")
        .first()
    )
    if assessment is not None:
        assessment.case = case
    return assessment


@transaction.atomic
def assessment_record(
    *,
    actor: User,
    case: Case,
    instrument: RiskInstrument,
    answers: Mapping[str, bool | None],
    override_band: str = "",
    override_reason: str = "",
    words: Mapping[str, str] | None = None,
) -> RiskAssessment:
    """Score ``answers`` and store the assessment; the case's risk level becomes its band (or the
    override). A high band opens a multi-agency referral follow-up and tells the supervisors;
    a re-assessment follow-up is set at the instrument's interval."""
    policy.require(actor, case, "edit")
    if instrument_for_case(case, instrument.pk) is None:
        raise PermissionDenied(_("This instrument is not available to the case's agency."))
    definition = instrument.instrument()
    try:
        result = engine.score(definition, dict(answers))
        band = engine.effective_band(result, override_band or None, override_reason)
    except engine.InstrumentError as exc:
        raise ValidationError(exc.problems) from exc
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    now = timezone.now()
    previous = RiskAssessment.objects.filter(case=case).order_by("-created_at", "-pk").first()
    assessment = RiskAssessment(
        case=case,
        instrument=instrument,
        answers={k: v for k, v in answers.items() if v is not None}
        # The survivor's own words, for the questions that ask for them: encrypted with the rest.
        | ({WORDS_KEY: dict(words)} if words else {}),
        score=float(result.score),
        band=result.band.id,
        override_band=override_band if override_band and override_band != result.band.id else "",
        override_reason=override_reason.strip() if override_band else "",
        assessor=actor,
        created_at=now,
    )
    assessment.save()
    record(
        "risk.assess",
        actor=actor,
        case=case,
        obj=assessment,
        detail={
            "instrument": instrument.slug,
            "instrument_version": instrument.version,
            "override": bool(assessment.override_band),
            "unanswered": len(result.unanswered),
        },
    )
    if case.risk_level != band:
        Case.objects.filter(pk=case.pk).update(
            risk_level=band, version=F("version") + 1, updated_at=now
        )
        case.risk_level = band
        case.version += 1
        record(
            "case.update",
            actor=actor,
            case=case,
            obj=case,
            detail={"fields": ["risk_level"], "source": "risk_assessment"},
        )
    # Where the case's risk level now comes from: this assessment, of this date.
    journey.risk_from_assessment(
        actor=actor,
        case=case,
        level=band,
        assessment_id=assessment.public_id,
        assessed_at=assessment.created_at,
    )
    _bring_review_forward(plan_of(case), band)
    if previous is not None:
        followup_cancel(case=case, source_key=f"assessment:{previous.pk}:reassess", actor=actor)
    followup_ensure(
        case=case,
        kind=SafetyFollowUpKind.REASSESSMENT,
        due_at=_due(definition.next_reassessment(timezone.localdate(now))),
        source_key=f"assessment:{assessment.pk}:reassess",
        actor=actor,
    )
    if band == RiskLevel.HIGH:
        followup_ensure(
            case=case,
            kind=SafetyFollowUpKind.MULTI_AGENCY_REFERRAL,
            due_at=now + dt.timedelta(days=1),
            source_key=f"assessment:{assessment.pk}:referral",
            actor=actor,
        )
        notify(
            recipients=case_supervisors(case),
            kind="risk_high",
            case=case,
            key=f"assessment:{assessment.pk}:high",
            message=gettext_noop(
                "High risk assessed on case %(reference)s: consider a multi-agency referral."
            ),
            values={"reference": case.reference},
        )
    return assessment


# --- hard dates ----------------------------------------------------------------------------------


def _hard_date_problems(
    *, kind: str, day: dt.date | None, yearly: bool, support_days_before: int, today: dt.date
) -> dict[str, str]:
    problems: dict[str, str] = {}
    if kind not in HardDateKind.values:
        problems["kind"] = str(_("Choose what kind of day it is."))
    if day is None:
        problems["day"] = str(_("Give the day: a hard date needs a day, month and year."))
    elif day.year < EARLIEST_YEAR:
        problems["day"] = str(_("That day is too long ago: check the year."))
    elif not yearly and day < today:
        problems["day"] = str(
            _("That day has passed. If it comes back every year, tick “Every year”.")
        )
    if not 0 <= support_days_before <= MOST_DAYS_BEFORE:
        problems["support_days_before"] = str(
            _("Support can be planned from the day itself up to %(most)d days before.")
            % {"most": MOST_DAYS_BEFORE}
        )
    return problems


@transaction.atomic
def hard_date_add(
    *,
    actor: User,
    case: Case,
    kind: str,
    day: dt.date | None,
    words: str = "",
    yearly: bool = False,
    support_days_before: int = 1,
) -> HardDate:
    """Note a date that is hard for the survivor on her plan. Raises ``ValidationError`` (by
    field, nothing saved) for a date without a day, one too far back, a one-off date that has
    passed, or support asked for too far ahead."""
    policy.require(actor, case, "edit")
    problems = _hard_date_problems(
        kind=kind,
        day=day,
        yearly=yearly,
        support_days_before=support_days_before,
        today=timezone.localdate(),
    )
    if problems:
        raise ValidationError(problems)
    assert day is not None
    row = HardDate.objects.create(
        case=case,
        kind=kind,
        words=words.strip(),
        day=day,
        yearly=yearly,
        support_days_before=support_days_before,
        created_by=actor,
    )
    record(
        "hard_date.add",
        actor=actor,
        case=case,
        obj=row,
        detail={"kind": kind, "yearly": yearly, "days_before": support_days_before},
    )
    return row


@transaction.atomic
def hard_date_remove(*, actor: User, hard_date: HardDate) -> None:
    """Take a hard date off the survivor's plan (she no longer wants support around it): the
    check-ins still proposed for it are proposed no more (those already booked stay)."""
    case = hard_date.case
    policy.require(actor, case, "edit")
    record("hard_date.remove", actor=actor, case=case, obj=hard_date, detail={})
    prefix = f"{OCCASION_SOURCE_PREFIX}{hard_dates.KIND}:{hard_date.pk}:"
    pending = FollowUp.objects.filter(
        case=case, source_key__startswith=prefix, status=FollowUpStatus.OPEN
    ).values_list("source_key", flat=True)
    for source_key in list(pending):
        followup_cancel(case=case, source_key=source_key, actor=actor)
    hard_date.delete()
