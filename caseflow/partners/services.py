"""Risk meetings, referrals to and from other services, and demographics: every change checks
policy itself, is audited, and keeps what the survivor said encrypted with the case key."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from caseflow import policy
from caseflow.accounts.models import Role, User
from caseflow.audit.services import record
from caseflow.cases.fields import agency_field_config
from caseflow.cases.journey import current_episode
from caseflow.cases.models import Case, CaseStatus, IntakeField, Party, PartyRole, RiskLevel
from caseflow.cases.today import local_date_start
from caseflow.casework.models import Need
from caseflow.checkins.services import followup_done
from caseflow.confidentiality.models import Release
from caseflow.confidentiality.services.releases import release_problem
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.inbox.services import followup_ensure
from caseflow.partners import hud
from caseflow.partners.models import (
    HUD_PROJECT_FIELDS,
    NOT_ASKED,
    QUESTIONS,
    STATE_MOVES,
    ActionStatus,
    AgencyPartnerSettings,
    Demographics,
    Direction,
    HudAnswers,
    HudProject,
    MeetingAction,
    MeetingReferral,
    PartnersFollowUpKind,
    ReferralRoute,
    ReferralState,
    ServiceReferral,
    SharingBasis,
    answers,
)
from caseflow.safety.models import SafetyFollowUpKind

#: A case heard at a risk meeting within this many days before a new referral is a repeat.
REPEAT_DAYS = 365


# --- The agency's settings ----------------------------------------------------------------------


def partner_settings(agency_id: int | None) -> AgencyPartnerSettings:
    """The agency's risk meeting settings (unsaved defaults if it has none yet)."""
    if agency_id is None:
        raise PermissionDenied
    found = AgencyPartnerSettings.objects.filter(agency_id=agency_id).first()
    return found or AgencyPartnerSettings(agency_id=agency_id)


@transaction.atomic
def settings_save(*, actor: User, meeting_name: str, lawful_basis: str) -> AgencyPartnerSettings:
    if not policy.is_agency_admin(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    row, _created = AgencyPartnerSettings.objects.get_or_create(agency_id=agency_id)
    changed = []
    if row.meeting_name != meeting_name:
        row.meeting_name = meeting_name
        changed.append("meeting_name")
    if row.lawful_basis != lawful_basis:
        row.lawful_basis = lawful_basis
        row.lawful_basis_recorded_at = timezone.now() if lawful_basis else None
        changed.append("lawful_basis")
    row.updated_by = actor
    row.save()
    record("partners.settings.save", actor=actor, obj=row, detail={"changed": changed})
    return row


def hud_project(agency_id: int | None) -> HudProject | None:
    """The agency's project as HUD knows it, if its admin has said."""
    if agency_id is None:
        return None
    return HudProject.objects.filter(agency_id=agency_id).first()


@transaction.atomic
def hud_project_save(*, actor: User, values: dict[str, Any]) -> HudProject:
    """Set the agency's project as HUD knows it (its admin only); the audit names what changed."""
    if not policy.is_agency_admin(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    row = HudProject.objects.select_for_update().filter(agency_id=agency_id).first()
    if row is None:
        row = HudProject(agency_id=agency_id)
    changed = [name for name in HUD_PROJECT_FIELDS if getattr(row, name) != values[name]]
    for name in HUD_PROJECT_FIELDS:
        setattr(row, name, values[name])
    row.updated_by = actor
    row.save()
    record("partners.hud_project.save", actor=actor, obj=row, detail={"changed": changed})
    return row


# --- Risk meetings ------------------------------------------------------------------------------


def latest_band_is_high(case: Case) -> bool:
    return case.risk_level == RiskLevel.HIGH


def heard_within_a_year(case: Case, on: dt.date, exclude: int | None = None) -> bool:
    since = on - dt.timedelta(days=REPEAT_DAYS)
    earlier = MeetingReferral.objects.filter(case=case, meeting_on__gte=since, meeting_on__lte=on)
    if exclude is not None:
        earlier = earlier.exclude(pk=exclude)
    return earlier.exists()


def meeting_refer(
    *,
    actor: User,
    case: Case,
    route: str,
    reason: str,
    basis: str,
    release: Release | None,
    categories: list[str],
    referred_on: dt.date,
    meeting_on: dt.date | None,
) -> MeetingReferral:
    """Refer ``case`` to the agency's risk meeting and record what was shared, on what
    authority. Raises ValidationError (nothing saved, nothing shared) when the route or the
    authority does not hold."""
    policy.require(actor, case, "edit")
    settings_row = partner_settings(case.agency_id)
    categories = sorted(set(categories))
    if not categories:
        raise ValidationError(_("Choose what is shared with the meeting."))
    if route == ReferralRoute.ASSESSMENT and not latest_band_is_high(case):
        raise ValidationError(
            _("The latest risk assessment is not high: refer by professional judgement instead.")
        )
    if route == ReferralRoute.JUDGEMENT and not reason.strip():
        raise ValidationError(_("Say why, in your professional judgement, the case is referred."))
    lawful_basis = ""
    if basis == SharingBasis.RELEASE:
        problem = release_problem(case, release, settings_row.meeting_name, categories)
        if problem is not None:
            record(
                "disclosure.refused",
                actor=actor,
                case=case,
                obj=case,
                detail={"kind": "risk_meeting", "categories": categories, "reason": problem},
            )
            raise ValidationError(
                _(
                    "That consent to share does not cover the meeting and everything chosen "
                    "today. Choose another, or the agency's lawful basis."
                )
            )
    elif basis == SharingBasis.LAWFUL_BASIS:
        if not settings_row.lawful_basis:
            raise ValidationError(
                _("The agency has not recorded a lawful basis for high-risk sharing.")
            )
        lawful_basis = settings_row.lawful_basis
        release = None
    else:
        raise ValidationError(_("Choose what allows the sharing."))
    with transaction.atomic():
        return _meeting_create(
            actor=actor,
            case=case,
            route=route,
            reason=reason,
            basis=basis,
            release=release,
            lawful_basis=lawful_basis,
            categories=categories,
            meeting_name=settings_row.meeting_name,
            referred_on=referred_on,
            meeting_on=meeting_on,
        )


def _meeting_create(
    *,
    actor: User,
    case: Case,
    route: str,
    reason: str,
    basis: str,
    release: Release | None,
    lawful_basis: str,
    categories: list[str],
    meeting_name: str,
    referred_on: dt.date,
    meeting_on: dt.date | None,
) -> MeetingReferral:
    referral = MeetingReferral.objects.create(
        case=case,
        route=route,
        reason=reason.strip(),
        basis=basis,
        release=release,
        lawful_basis=lawful_basis,
        categories=categories,
        meeting_name=meeting_name,
        referred_on=referred_on,
        meeting_on=meeting_on,
        repeat=heard_within_a_year(case, referred_on),
        referred_by=actor,
    )
    record(
        "meeting.refer",
        actor=actor,
        case=case,
        obj=referral,
        detail={"route": route, "repeat": referral.repeat},
    )
    record(
        "disclosure.risk_meeting",
        actor=actor,
        case=case,
        obj=referral,
        detail={
            "basis": basis,
            "release": release.pk if release is not None else None,
            "categories": categories,
        },
    )
    # The "consider a multi-agency referral" follow-up a high band opened is done now.
    for followup in FollowUp.objects.filter(
        case=case, kind=SafetyFollowUpKind.MULTI_AGENCY_REFERRAL, status=FollowUpStatus.OPEN
    ):
        followup_done(actor=actor, followup=followup)
    return referral


@transaction.atomic
def meeting_update(
    *,
    actor: User,
    referral: MeetingReferral,
    meeting_on: dt.date | None,
    outcome: str,
) -> MeetingReferral:
    policy.require(actor, referral.case, "edit")
    changed = []
    if referral.meeting_on != meeting_on:
        referral.meeting_on = meeting_on
        changed.append("meeting_on")
    outcome = outcome.strip()
    if referral.outcome != outcome:
        referral.outcome = outcome
        referral.outcome_recorded_at = timezone.now() if outcome else None
        changed.append("outcome")
    referral.save()
    record(
        "meeting.update",
        actor=actor,
        case=referral.case,
        obj=referral,
        detail={"changed": changed},
    )
    return referral


def action_owners(case: Case) -> QuerySet[User]:
    """Who here may own an action: the people who work the case (its advocates and its team's
    supervisors), so that the action reaches someone who may open the case."""
    return (
        policy.assignable_users(case)
        .filter(Q(assigned_cases=case) | Q(membership__role=Role.SUPERVISOR, teams=case.team_id))
        .distinct()
    )


@transaction.atomic
def action_add(
    *,
    actor: User,
    referral: MeetingReferral,
    text: str,
    owner: User | None,
    owner_agency: str,
    due_on: dt.date,
) -> MeetingAction:
    case = referral.case
    policy.require(actor, case, "edit")
    owner_agency = owner_agency.strip()
    if (owner is None) == (not owner_agency):
        raise ValidationError(
            _("Choose who does it: someone here, or the name of the other agency.")
        )
    if owner is not None and not action_owners(case).filter(pk=owner.pk).exists():
        raise ValidationError(_("That person does not work this case."))
    action = MeetingAction.objects.create(
        case=case,
        referral=referral,
        text=text.strip(),
        owner=owner,
        owner_agency=owner_agency,
        due_on=due_on,
    )
    record(
        "meeting.action_add",
        actor=actor,
        case=case,
        obj=action,
        detail={"owner": "staff" if owner else "other_agency"},
    )
    return action


@transaction.atomic
def action_set_status(*, actor: User, action: MeetingAction, status: str) -> MeetingAction:
    policy.require(actor, action.case, "edit")
    if status not in ActionStatus.values:
        raise ValidationError(_("Choose a status."))
    previous = action.status
    action.status = status
    action.save(update_fields=["status", "updated_at"])
    record(
        "meeting.action_status",
        actor=actor,
        case=action.case,
        obj=action,
        detail={"from": previous, "to": status},
    )
    return action


# --- Referrals to and from other services -------------------------------------------------------


def _reply_source(referral: ServiceReferral) -> str:
    return f"referral:{referral.pk}:reply"


def referral_create(
    *,
    actor: User,
    case: Case,
    direction: str,
    service_type: str,
    organisation: str,
    details: str,
    sent_on: dt.date,
    respond_by: dt.date | None,
    release: Release | None,
    needs: list[Need],
) -> ServiceReferral:
    """Record a referral. One that leaves the agency needs a valid release naming the
    organisation (it is what allowed it)."""
    policy.require(actor, case, "edit")
    organisation = organisation.strip()
    if direction == Direction.OUT:
        problem = (
            "unknown_release"
            if release is None
            else release_problem(case, release, organisation, release.categories)
        )
        if problem is not None:
            record(
                "disclosure.refused",
                actor=actor,
                case=case,
                obj=case,
                detail={"kind": "service_referral", "reason": problem},
            )
            raise ValidationError(
                _(
                    "A referral to another service needs the survivor's valid consent to share "
                    "with that organisation. Record it first, or choose the one that names it."
                )
            )
    else:
        release = None
    if respond_by is not None and respond_by < sent_on:
        raise ValidationError(_("The reply is due on or after the day the referral was sent."))
    if any(n.case_id != case.pk for n in needs):
        raise ValidationError(_("A referral serves needs of its own case only."))
    with transaction.atomic():
        return _referral_save(
            actor=actor,
            case=case,
            direction=direction,
            service_type=service_type,
            organisation=organisation,
            details=details,
            sent_on=sent_on,
            respond_by=respond_by,
            release=release,
            needs=needs,
        )


def _referral_save(
    *,
    actor: User,
    case: Case,
    direction: str,
    service_type: str,
    organisation: str,
    details: str,
    sent_on: dt.date,
    respond_by: dt.date | None,
    release: Release | None,
    needs: list[Need],
) -> ServiceReferral:
    referral = ServiceReferral.objects.create(
        case=case,
        direction=direction,
        service_type=service_type,
        organisation=organisation,
        details=details.strip(),
        sent_on=sent_on,
        respond_by=respond_by,
        state_changed_on=sent_on,
        release=release,
        created_by=actor,
    )
    referral.needs.set(needs)
    record(
        "referral.create",
        actor=actor,
        case=case,
        obj=referral,
        detail={"direction": direction, "service": service_type},
    )
    return referral


@transaction.atomic
def referral_set_state(
    *,
    actor: User,
    referral: ServiceReferral,
    state: str,
    on: dt.date,
    expected_version: int,
) -> ServiceReferral:
    case = referral.case
    policy.require(actor, case, "edit")
    locked = ServiceReferral.objects.select_for_update().get(pk=referral.pk)
    if locked.version != expected_version:
        raise ValidationError(_("Someone else changed this referral: look again and retry."))
    if state not in STATE_MOVES.get(locked.state, set()):
        raise ValidationError(_("A referral cannot move to that state from where it is."))
    if on < locked.sent_on:
        raise ValidationError(_("The date cannot be before the referral was sent."))
    previous = locked.state
    locked.state = state
    locked.state_changed_on = on
    locked.version += 1
    locked.save(update_fields=["state", "state_changed_on", "version"])
    record(
        "referral.state",
        actor=actor,
        case=case,
        obj=locked,
        detail={"from": previous, "to": state},
    )
    if state != ReferralState.NO_RESPONSE:
        # A reply came: the "waiting for a reply" follow-up has served its purpose.
        for followup in FollowUp.objects.filter(
            case=case, source_key=_reply_source(locked), status=FollowUpStatus.OPEN
        ):
            followup_done(actor=actor, followup=followup)
    locked.case = case
    return locked


def referral_followups_sweep(now: dt.datetime | None = None) -> dict[str, int]:
    """A follow-up for every referral sent out whose reply is overdue. Idempotent (keyed by
    referral); run hourly from beat through the outbox."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    waiting = (
        ServiceReferral.objects.filter(
            direction=Direction.OUT,
            state__in=[ReferralState.SENT, ReferralState.NO_RESPONSE],
            respond_by__lt=today,
        )
        .exclude(case__status=CaseStatus.CLOSED)
        .select_related("case", "case__primary_advocate")
        .order_by("pk")
    )
    created = 0
    for referral in waiting.iterator(chunk_size=500):
        assert referral.respond_by is not None
        _followup, new = followup_ensure(
            case=referral.case,
            kind=PartnersFollowUpKind.REFERRAL_RESPONSE,
            due_at=local_date_start(referral.respond_by),
            source_key=_reply_source(referral),
            assignee=referral.created_by if referral.created_by.is_active else None,
        )
        created += new
    return {"referral_response": created}


# --- Demographics -------------------------------------------------------------------------------


def survivor_of(case: Case) -> Party | None:
    return case.parties.filter(role=PartyRole.SURVIVOR).order_by("pk").first()


def demographics_of(case: Case) -> Demographics | None:
    survivor = survivor_of(case)
    if survivor is None:
        return None
    found = Demographics.objects.filter(case=case, party=survivor).first()
    if found is None:
        found = Demographics(case=case, party=survivor, version=0)
    found.case = case
    return found


@transaction.atomic
def demographics_save(
    *,
    actor: User,
    case: Case,
    values: dict[str, Any],
    expected_version: int,
) -> Demographics:
    """Save the answers given; a question the agency does not ask keeps what it held."""
    policy.require(actor, case, "edit")
    row = demographics_of(case)
    if row is None:
        raise ValidationError(_("The case has no survivor recorded."))
    if row.pk is not None:
        row = Demographics.objects.select_for_update().get(pk=row.pk)
        row.case = case
    if row.version != expected_version:
        raise ValidationError(_("Someone else changed these answers: look again and retry."))
    changed = []
    for question in QUESTIONS:
        if question not in values:
            continue
        value = values[question] or NOT_ASKED
        if value not in dict(answers(question)):
            raise ValidationError(_("Choose one of the answers offered."))
        if getattr(row, question) != value:
            setattr(row, question, value)
            changed.append(question)
    row.updated_by = actor
    row.updated_at = timezone.now()
    row.version += 1
    row.save()
    record(
        "demographics.save",
        actor=actor,
        case=case,
        obj=row,
        detail={"changed": changed},
    )
    return row


# --- HUD entry and exit answers ------------------------------------------------------------------


def hud_collected(agency_id: int | None) -> bool:
    """The agency asks HUD's entry and exit questions (hidden until it shows them)."""
    return not agency_field_config(agency_id).get(IntakeField.HUD_ANSWERS, {}).get("hidden", True)


def _annual_problems(
    before: dict[str, Any],
    after: dict[str, Any],
    began: dt.date,
    began_words: dict[str, str],
    new_assessment: bool,
) -> list[str]:
    """What is wrong with the annual assessment of ``after`` (its day; a new one after the last)."""
    out = []
    old_on, new_on = before.get("annual_on") or "", after.get("annual_on") or ""
    if _given(after, [e.name for e in hud.ANNUAL_ELEMENTS[1:]]) and not new_on:
        out.append(str(_("Give the day of the annual assessment.")))
    if old_on and not new_on:
        out.append(str(_("An annual assessment once recorded stays: keep its day.")))
    day = hud.date_of(new_on)
    if day is not None and day < began:
        out.append(
            str(_("The annual assessment cannot be before support began (%(day)s).")) % began_words
        )
    if new_assessment and old_on and (not new_on or new_on <= old_on):
        last = hud.date_of(old_on)
        out.append(
            str(_("A new annual assessment must be on a later day than the last one (%(day)s)."))
            % {"day": date_format(last, "DATE_FORMAT") if last else old_on}
        )
    return out


def _given(answers: dict[str, Any], names: list[str]) -> bool:
    """Any of the answers ``names`` is given (not left as :func:`hud.blank` leaves it)."""
    empty = hud.blank()
    return any(answers.get(name, empty[name]) != empty[name] for name in names)


def hud_answers_of(case: Case) -> HudAnswers | None:
    """The answers of the case's current episode of support (unsaved and blank when none were
    given yet; None for a case with no episode)."""
    episode = current_episode(case)
    if episode is None:
        return None
    found = HudAnswers.objects.filter(episode=episode).first()
    if found is None:
        found = HudAnswers(case=case, episode=episode, answers=hud.blank(), version=0)
    found.case = case
    found.answers = {**hud.blank(), **(found.answers or {})}
    return found


@transaction.atomic
def hud_answers_save(
    *,
    actor: User,
    case: Case,
    values: dict[str, Any],
    expected_version: int,
    new_assessment: bool = False,
) -> HudAnswers:
    """Save the answers of the case's current episode. Refused when the agency does not ask
    HUD's questions, and for an answer outside the lists (``hud.problems``). The annual
    assessment given corrects the last one, or, as a ``new_assessment``, follows it (the last
    one is kept among the earlier ones: a new one never replaces an earlier one, and none is
    removed)."""
    policy.require(actor, case, "edit")
    if not hud_collected(case.agency_id):
        raise PermissionDenied
    row = hud_answers_of(case)
    if row is None:
        raise ValidationError(_("The case has no episode of support yet."))
    if row.pk is not None:
        row = HudAnswers.objects.select_for_update().get(pk=row.pk)
        row.case = case
        row.answers = {**hud.blank(), **(row.answers or {})}
    if row.version != expected_version:
        raise ValidationError(_("Someone else changed these answers: look again and retry."))
    answers = {**row.answers, **{k: v for k, v in values.items() if k in hud.BY_NAME}}
    found = hud.problems(answers)
    began = timezone.localtime(row.episode.opened_at).date()
    began_words = {"day": date_format(began, "DATE_FORMAT")}
    since = hud.date_of(answers.get("homeless_since"))
    if since is not None and since > began:
        found.append(
            str(_("The day homelessness began cannot be after support began (%(day)s)."))
            % began_words
        )
    moved = hud.date_of(answers.get("move_in_on"))
    if moved is not None and moved < began:
        found.append(
            str(_("The day they moved into housing cannot be before support began (%(day)s)."))
            % began_words
        )
    found += _annual_problems(row.answers, answers, began, began_words, new_assessment)
    if found:
        raise ValidationError(found)
    earlier = list(row.answers.get(hud.EARLIER) or [])
    if new_assessment and row.answers.get("annual_on"):
        earlier.append({e.name: row.answers.get(e.name) for e in hud.ANNUAL_ELEMENTS})
    answers[hud.EARLIER] = earlier
    changed = sorted(k for k in (*hud.BY_NAME, hud.EARLIER) if answers[k] != row.answers.get(k))
    now = timezone.now()
    if row.pk is None:
        row.recorded_at = now
    at_exit = [e.name for e in hud.ELEMENTS if e.stage == hud.EXIT]
    # The answers at exit, given for the first time now.
    first_at_exit = not _given(row.answers, at_exit) and _given(answers, at_exit)
    if row.exit_recorded_at is None and first_at_exit:
        row.exit_recorded_at = now
    row.answers = answers
    row.updated_by = actor
    row.updated_at = now
    row.version += 1
    row.save()
    record("hud_answers.save", actor=actor, case=case, obj=row, detail={"changed": changed})
    return row
