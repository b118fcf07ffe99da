"""The case's lifecycle and the survivor's journey through the service: opening a case, its
status, episodes of support inside one case, closure with
its reason, exit check and outcomes (a supervisor's approval when the risk is high), returns and
re-referrals, and where the case's risk level comes from.

Every operation checks policy itself, runs in a transaction and writes its audit. Features that
keep work running on a case (follow-ups, check-ins) declare it (``CaseFeature.open_work``), so
closing lists it and cancels it: nothing keeps running silently.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from caseflow import policy
from caseflow.accounts.models import Team, User
from caseflow.audit.services import record
from caseflow.cases import features, services
from caseflow.cases.models import (
    STATUS_TRANSITIONS,
    AbuseChange,
    Case,
    CaseStatus,
    Closure,
    ClosureReason,
    ClosureState,
    Episode,
    EpisodeStart,
    EpisodeStatus,
    FeelsSafer,
    Party,
    PartyRole,
    PlanExitCheck,
    ReopenRequest,
    ReopenRequestState,
    RiskLevel,
    RiskLevelChange,
    RiskSource,
    StandardClosureReason,
    name_index_for,
)
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.inbox.services import case_supervisors, notifications_resolve, notify
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.outbox import events

#: Risk bands in order, lowest first (``unknown`` is below every band: nothing assessed).
RISK_ORDER: dict[str, int] = {
    RiskLevel.UNKNOWN: 0,
    RiskLevel.STANDARD: 1,
    RiskLevel.MEDIUM: 2,
    RiskLevel.HIGH: 3,
}


# --- Opening, and the case's status -------------------------------------------------------------


@transaction.atomic
def case_open(
    *,
    actor: User,
    team: Team,
    survivor: dict[str, Any],
    other_party: dict[str, Any] | None,
    risk_level: str = RiskLevel.UNKNOWN,
    summary: str = "",
    reference: str = "",
) -> Case:
    """Take in a referral: the case, its survivor and other party, the actor as primary advocate.

    A new case is not yet assessed: intake asks for no risk band (``risk_level`` is for imports
    and the demo, and is recorded as chosen at intake)."""
    if team not in policy.intake_teams(actor):
        raise PermissionDenied(_("You can only open cases in your own teams."))
    return _open(
        actor=actor,
        advocate=actor,
        team=team,
        survivor=survivor,
        other_party=other_party,
        risk_level=risk_level,
        summary=summary,
        reference=reference,
    )


def _open(
    *,
    actor: User,
    advocate: User | None,
    team: Team,
    survivor: dict[str, Any],
    other_party: dict[str, Any] | None,
    risk_level: str,
    summary: str,
    reference: str,
) -> Case:
    """Open the case (the caller checked policy): conflict check, reference, first episode,
    risk at intake, the audit, the people, and the supervisors told of a possible conflict."""
    people = [(PartyRole.SURVIVOR, survivor["full_name"], survivor.get("date_of_birth"))]
    if other_party:
        people.append(
            (PartyRole.OTHER_PARTY, other_party["full_name"], other_party.get("date_of_birth"))
        )
    check = services.conflict_check(agency_id=team.agency_id, people=people)
    conflict = check.found
    case = Case.objects.create(
        agency_id=team.agency_id,
        team=team,
        reference=reference or services.next_reference(team.agency_id),
        risk_level=risk_level,
        primary_advocate=advocate,
        conflict_flag=conflict,
        summary=summary,
    )
    services.set_assignees(case, [advocate] if advocate is not None else [])
    episode_first(case=case, actor=actor)
    risk_from_intake(actor=actor, case=case, level=risk_level)
    record(
        "case.create",
        actor=actor,
        case=case,
        obj=case,
        detail={"conflict_flag": conflict, "checked_by_name_only": list(check.name_only)},
    )
    for role, data in ((PartyRole.SURVIVOR, survivor), (PartyRole.OTHER_PARTY, other_party)):
        if data:
            services.party_write(actor=actor, case=case, party=Party(role=role), data=data)
    if conflict:
        # Opened despite a possible conflict: the team's supervisors decide what happens next.
        notify(
            recipients=case_supervisors(case),
            kind="conflict",
            case=case,
            key=f"conflict:{case.pk}",
            message=gettext_noop(
                "Case %(reference)s was opened despite a possible conflict: please review it."
            ),
            values={"reference": case.reference},
        )
    events.publish(
        events.EventKind.REFERRAL_RECEIVED, agency_id=case.agency_id, case_public_id=case.public_id
    )
    return case


@transaction.atomic
def referral_receive(
    *,
    actor: User,
    integration: policy.IntegrationLike,
    team: Team,
    survivor: dict[str, Any],
    other_party: dict[str, Any] | None,
    summary: str = "",
) -> Case:
    """Take in a referral another system sent (``actor`` is the integration's own account): the
    same conflict check and matching of earlier cases as intake, but nobody is chosen for the
    other system: the case waits, unassigned, in "referral" for the team's supervisors, who are
    told. A possible conflict flags the case; an earlier case of the survivor is named to the
    supervisors only (never to the other system)."""
    if team not in policy.integration_intake_teams(integration):
        raise PermissionDenied(_("This integration may not send referrals to this team."))
    earlier = earlier_cases(
        actor=actor,
        agency_id=team.agency_id,
        full_name=survivor["full_name"],
        date_of_birth=survivor.get("date_of_birth"),
    )
    case = _open(
        actor=actor,
        advocate=None,
        team=team,
        survivor=survivor,
        other_party=other_party,
        risk_level=RiskLevel.UNKNOWN,
        summary=summary,
        reference="",
    )
    supervisors = list(team.supervisors())
    if earlier:
        record(
            "intake.earlier_case",
            actor=actor,
            case=case,
            obj=case,
            detail={"choice": "new_case", "cases": [], "elsewhere": len(earlier.elsewhere)},
        )
        notify(
            recipients=supervisors,
            kind="referral_known",
            case=case,
            key=f"referral-known:{case.pk}",
            message=gettext_noop(
                "Referral %(reference)s may be a survivor the agency already knows: please "
                "check before it is assigned."
            ),
            values={"reference": case.reference},
        )
    notify(
        recipients=supervisors,
        kind="referral_received",
        case=case,
        key=f"referral-received:{case.pk}",
        message=gettext_noop(
            "Referral %(reference)s arrived from another system: please assign it."
        ),
        values={"reference": case.reference},
    )
    return case


@transaction.atomic
def case_set_status(*, actor: User, case: Case, status: str) -> Case:
    """Move a case along referral → active → dormant. Closing goes through the closure (its
    reason, exit check and outcomes: ``closure_submit``); reopening a closed case starts
    a new episode (``case_reopen``) and keeps the whole history."""
    if not policy.may(actor, case, "change_status"):
        raise PermissionDenied
    if status not in STATUS_TRANSITIONS.get(case.status, set()):
        raise ValidationError(
            _("A %(status)s case cannot be made %(status2)s.")
            % {"status": case.get_status_display().lower(), "status2": status}
        )
    if status == CaseStatus.CLOSED:
        raise ValidationError(
            gettext("A case is closed through its closure page, with a reason and outcomes.")
        )
    if case.status == CaseStatus.CLOSED:
        case_reopen(actor=actor, case=case)
        return case
    previous = case.status
    case.status = status
    if status == CaseStatus.CLOSED:
        case.closed_at = timezone.now()
    elif previous in (CaseStatus.CLOSED, CaseStatus.DORMANT):
        case.closed_at = None
    case.save(update_fields=["status", "closed_at", "updated_at"])
    if status == CaseStatus.ACTIVE:
        episode_activate(case=case, actor=actor)
    record(
        "case.status",
        actor=actor,
        case=case,
        obj=case,
        detail={"from": previous, "to": status},
    )
    return case


# --- Episodes ------------------------------------------------------------------------------------


def case_facts() -> dict[str, Any]:
    """Annotations for the case page's one facts query (see ``caseflow.cases.panels``)."""
    from django.db.models import Count, Exists, OuterRef, Subquery

    latest_episode = Episode.objects.filter(case=OuterRef("pk")).order_by("-number")
    return {
        "episode_number": Subquery(latest_episode.values("number")[:1]),
        "episode_start": Subquery(latest_episode.values("start")[:1]),
        "episode_opened_at": Subquery(latest_episode.values("opened_at")[:1]),
        "episode_count": Subquery(
            Episode.objects.filter(case=OuterRef("pk"))
            .values("case")
            .annotate(n=Count("pk"))
            .values("n")[:1]
        ),
        "has_pending_closure": Exists(
            Closure.objects.filter(
                case=OuterRef("pk"),
                state__in=[ClosureState.AWAITING_APPROVAL, ClosureState.RETURNED],
            )
        ),
        "has_reopen_requests": Exists(
            ReopenRequest.objects.filter(case=OuterRef("pk"), state=ReopenRequestState.OPEN)
        ),
        "has_risk_changes": Exists(RiskLevelChange.objects.filter(case=OuterRef("pk"))),
    }


def episodes_of(case: Case) -> list[Episode]:
    """The case's episodes, oldest first, each with its closure (one query)."""
    rows = list(
        Episode.objects.filter(case=case)
        .select_related("opened_by", "closed_by", "closure__reason", "closure__decided_by")
        .order_by("number")
    )
    for row in rows:
        row.case = case
    return rows


def current_episode(case: Case) -> Episode | None:
    """The episode still open, else the latest one (None for a case that has none yet)."""
    return Episode.objects.filter(case=case).order_by("-number").first()


def _ensure_episode(case: Case, actor: User | None) -> Episode:
    """The case's latest episode, starting the first if the case has none (a case made before
    episodes, by a bulk load)."""
    episode = Episode.objects.select_for_update().filter(case=case).order_by("-number").first()
    if episode is None:
        statuses: dict[str, str] = {
            CaseStatus.REFERRAL: EpisodeStatus.REFERRAL,
            CaseStatus.CLOSED: EpisodeStatus.CLOSED,
        }
        status = statuses.get(case.status, EpisodeStatus.ACTIVE)
        episode = Episode.objects.create(
            case=case,
            number=1,
            status=status,
            opened_at=case.opened_at,
            opened_by=case.primary_advocate,
            closed_at=case.closed_at if status == EpisodeStatus.CLOSED else None,
        )
    return episode


def episode_first(*, case: Case, actor: User | None) -> Episode:
    """The first episode of a new case (called by intake)."""
    return Episode.objects.create(
        case=case,
        number=1,
        status=EpisodeStatus.REFERRAL,
        opened_at=case.opened_at,
        opened_by=actor,
    )


def episode_activate(*, case: Case, actor: User | None) -> None:
    """A referral taken on: its episode becomes active."""
    episode = _ensure_episode(case, actor)
    if episode.status == EpisodeStatus.REFERRAL:
        episode.status = EpisodeStatus.ACTIVE
        episode.save(update_fields=["status"])


@transaction.atomic
def case_reopen(
    *,
    actor: User,
    case: Case,
    start: str = EpisodeStart.RETURN,
    via: str = "case",
) -> Episode:
    """Reopen a closed case: a new episode starts in the same case, and everything before it
    stays on the case for whoever may see it. ``start`` says how: the survivor came back, or
    was referred again (found at intake)."""
    policy.require(actor, case, "change_status")
    locked = Case.objects.select_for_update().get(pk=case.pk)
    if locked.status != CaseStatus.CLOSED:
        raise ValidationError(gettext("Only a closed case can be reopened."))
    last = _ensure_episode(case, actor)
    now = timezone.now()
    episode = Episode.objects.create(
        case=case,
        number=last.number + 1,
        status=EpisodeStatus.ACTIVE,
        start=start,
        opened_at=now,
        opened_by=actor,
    )
    previous = locked.status
    case.status = CaseStatus.ACTIVE
    case.closed_at = None
    case.save(update_fields=["status", "closed_at", "updated_at"])
    record(
        "case.status",
        actor=actor,
        case=case,
        obj=case,
        detail={"from": previous, "to": CaseStatus.ACTIVE, "episode": episode.number},
    )
    record(
        "episode.open",
        actor=actor,
        case=case,
        obj=episode,
        object_id=str(episode.pk),
        detail={"number": episode.number, "start": start, "via": via},
    )
    return episode


# --- At intake: the survivor's earlier cases ----------------------------------------------


@dataclass(frozen=True)
class EarlierCases:
    """What matching the survivor at intake found. ``yours``: cases the advocate may reopen
    themselves; ``elsewhere``: how many others (another team's, or restricted) their supervisors
    must reopen. Nothing of those is shown, not even their reference."""

    yours: list[Case] = field(default_factory=list)
    elsewhere: list[int] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.yours or self.elsewhere)


def survivor_match(
    *, agency_id: int, full_name: str, date_of_birth: str | dt.date | None
) -> Q | None:
    """The parties that are this survivor, by blind index as the conflict check matches: name
    and date of birth when both are known on both sides, else the name alone."""
    name_index = name_index_for(full_name or "")
    if not name_index:
        return None
    identity = services.identity_index_for(full_name, date_of_birth)
    if identity:
        return Q(identity_index=identity) | Q(name_index=name_index, identity_index="")
    return Q(name_index=name_index)


def earlier_cases(
    *, actor: User, agency_id: int, full_name: str, date_of_birth: str | dt.date | None
) -> EarlierCases:
    """The agency's cases (open or closed) whose client is this survivor."""
    match = survivor_match(agency_id=agency_id, full_name=full_name, date_of_birth=date_of_birth)
    if match is None:
        return EarlierCases()
    ids = list(
        Party.objects.filter(match, case__agency_id=agency_id, role=PartyRole.SURVIVOR)
        .values_list("case_id", flat=True)
        .distinct()[:20]
    )
    if not ids:
        return EarlierCases()
    yours = list(
        policy.visible_cases(actor)
        .filter(pk__in=ids)
        .select_related("team", "primary_advocate")
        .order_by("-opened_at")
    )
    # A case the advocate can only read (emergency access) is reopened by its supervisors too.
    yours = [c for c in yours if policy.may(actor, c, "change_status")]
    shown = {c.pk for c in yours}
    return EarlierCases(yours, sorted(pk for pk in ids if pk not in shown))


@transaction.atomic
def reopen_from_intake(
    *,
    actor: User,
    case: Case,
    summary: str = "",
    other_party: dict[str, Any] | None = None,
) -> Episode | None:
    """The advocate took up the survivor's earlier case instead of opening a duplicate. A closed
    case is reopened (a new episode, "referred again"); an open one carries on. A new other party
    named in the referral is added to the case; nothing typed is lost."""
    policy.require(actor, case, "change_status")
    episode = None
    if case.status == CaseStatus.CLOSED:
        episode = case_reopen(actor=actor, case=case, start=EpisodeStart.REREFERRAL, via="intake")
    elif case.status == CaseStatus.DORMANT:
        case_set_status(actor=actor, case=case, status=CaseStatus.ACTIVE)
    if summary.strip():
        stamp = timezone.localdate().isoformat()
        case.summary = f"{case.summary}\n\n{stamp}: {summary.strip()}".strip()
        case.save(update_fields=["summary", "updated_at"])
    if other_party and other_party.get("full_name"):
        index = name_index_for(other_party["full_name"])
        known = Party.objects.filter(
            case=case, role=PartyRole.OTHER_PARTY, name_index=index
        ).exists()
        if not known:
            services.party_save(
                actor=actor,
                case=case,
                party=Party(role=PartyRole.OTHER_PARTY),
                data=other_party,
            )
    record(
        "intake.earlier_case",
        actor=actor,
        case=case,
        obj=case,
        detail={"choice": "reopen", "reopened": episode is not None},
    )
    return episode


@transaction.atomic
def reopen_request_create(
    *, actor: User, case_ids: Iterable[int], note: str = ""
) -> list[ReopenRequest]:
    """Ask the supervisors of the survivor's earlier case(s) in another team to reopen it and
    assign it to ``actor``. The advocate never sees those cases; their supervisors are told."""
    if not policy.does_casework(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    made = []
    for case in Case.objects.filter(pk__in=list(case_ids), agency_id=agency_id).select_related(
        "team"
    ):
        existing = ReopenRequest.objects.filter(
            case=case, requested_by=actor, state=ReopenRequestState.OPEN
        ).first()
        if existing is not None:
            made.append(existing)
            continue
        asked = ReopenRequest.objects.create(case=case, requested_by=actor, note=note)
        record(
            "reopen_request.create",
            actor=actor,
            case=case,
            obj=asked,
            detail={"case_status": case.status},
        )
        notify(
            recipients=case_supervisors(case),
            kind="reopen_request",
            case=case,
            key=f"reopen_request:{asked.pk}",
            message=gettext_noop(
                "A colleague has a new referral for the client of case %(reference)s: please "
                "reopen it and assign it, or decline."
            ),
            values={"reference": case.reference},
        )
        made.append(asked)
    return made


def open_reopen_requests(case: Case) -> list[ReopenRequest]:
    return list(
        ReopenRequest.objects.filter(case=case, state=ReopenRequestState.OPEN).select_related(
            "requested_by"
        )
    )


@transaction.atomic
def reopen_request_decide(*, actor: User, asked: ReopenRequest, accept: bool) -> None:
    """A supervisor of the case's team reopens the case and assigns it to the advocate who
    asked (who becomes its primary advocate, the others stay), or declines."""
    case = asked.case
    policy.require(actor, case, "assign")
    locked = ReopenRequest.objects.select_for_update().get(pk=asked.pk)
    if locked.state != ReopenRequestState.OPEN:
        raise ValidationError(gettext("This request has already been decided."))
    if accept:
        if case.status == CaseStatus.CLOSED:
            case_reopen(
                actor=actor,
                case=case,
                start=EpisodeStart.REREFERRAL,
                via="reopen_request",
            )
        elif case.status == CaseStatus.DORMANT:
            case_set_status(actor=actor, case=case, status=CaseStatus.ACTIVE)
        others = [u for u in case.assignees.all() if u.pk != asked.requested_by_id]
        if policy.assignable_users(case).filter(pk=asked.requested_by_id).exists():
            services.case_assign(actor=actor, case=case, primary=asked.requested_by, others=others)
    locked.state = ReopenRequestState.REOPENED if accept else ReopenRequestState.DECLINED
    locked.decided_by = actor
    locked.decided_at = timezone.now()
    locked.save(update_fields=["state", "decided_by", "decided_at"])
    asked.state = locked.state
    record(
        "reopen_request.decide",
        actor=actor,
        case=case,
        obj=locked,
        detail={"accepted": accept},
    )
    notifications_resolve(key=f"reopen_request:{asked.pk}")
    notify(
        recipients=[asked.requested_by],
        kind="reopen_request",
        case=case if accept else None,
        key=f"reopen_request:{asked.pk}:decided",
        message=(
            gettext_noop("Your request was accepted: case %(reference)s is assigned to you.")
            if accept
            else gettext_noop(
                "Your request to take up a client's earlier case was declined. Ask the "
                "supervisor of that team."
            )
        ),
        values={"reference": case.reference} if accept else None,
        link=None if accept else "",
    )


# --- Closure ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenWork:
    """Work still running on a case that closing cancels: its label and one line per item."""

    kind: str
    label: str
    items: list[str]


def _open_followups(case: Case) -> QuerySet[FollowUp]:
    return FollowUp.objects.filter(case=case, status=FollowUpStatus.OPEN).order_by("due_at")


def _followup_lines(case: Case) -> list[str]:
    zone = timezone.get_current_timezone()
    return [
        gettext("%(kind)s, due %(due)s")
        % {"kind": f.kind_label, "due": f"{timezone.localtime(f.due_at, zone):%d %b %Y}"}
        for f in _open_followups(case)[:50]
    ]


def _cancel_followups(case: Case, *, actor: User | None) -> int:
    ids = list(_open_followups(case).values_list("pk", flat=True))
    cancelled = FollowUp.objects.filter(pk__in=ids, status=FollowUpStatus.OPEN).update(
        status=FollowUpStatus.CANCELLED
    )
    if cancelled:
        record(
            "followup.cancel",
            actor=actor,
            case=case,
            detail={"source": "closure", "count": cancelled},
        )
    return cancelled


def closure_need_choices(case: Case) -> list[tuple[str, str]]:
    """The case's needs still open, which the closure may record as met (the feature that keeps
    needs says which: ``CaseFeature.closure_needs``)."""
    needs = features.closure_needs()
    return needs.open_choices(case) if needs is not None else []


def closure_need_labels(case: Case, closure: Closure) -> list[str]:
    """The needs a closure recorded as met, in words."""
    needs = features.closure_needs()
    if not closure.needs_met or needs is None:
        return []
    return needs.labels(case, list(closure.needs_met))


def open_work(case: Case) -> list[OpenWork]:
    """What is still running on the case, by kind (only kinds with something open)."""
    found = []
    for work in features.members(lambda f: f.open_work):
        items = work.list_open(case)
        if items:
            found.append(OpenWork(work.kind, str(work.label), items))
    return found


def needs_approval(case: Case) -> bool:
    """Closing a case whose latest risk band is high needs a supervisor's approval."""
    return case.risk_level == RiskLevel.HIGH


def closure_reasons(agency_id: int) -> QuerySet[ClosureReason]:
    """The reasons a case of the agency may be closed for (the standard ones are made the first
    time they are asked for, for an agency created after they were introduced)."""
    if not ClosureReason.objects.filter(agency_id=agency_id).exclude(standard="").exists():
        ensure_standard_reasons(agency_id)
    return ClosureReason.objects.filter(agency_id=agency_id, active=True)


def ensure_standard_reasons(agency_id: int) -> None:
    for position, (code, label) in enumerate(StandardClosureReason.choices):
        ClosureReason.objects.get_or_create(
            agency_id=agency_id,
            standard=code,
            defaults={"label": str(label), "position": position},
        )


def pending_closure(case: Case) -> Closure | None:
    """The closure of the current episode that is waiting for a supervisor, or was returned."""
    return (
        Closure.objects.filter(
            case=case, state__in=[ClosureState.AWAITING_APPROVAL, ClosureState.RETURNED]
        )
        .select_related("reason", "requested_by", "decided_by", "episode")
        .first()
    )


def approved_closure(case: Case) -> Closure | None:
    """The latest closure a supervisor approved (with their reason), for the closed case's page."""
    return (
        Closure.objects.filter(case=case, state=ClosureState.CLOSED, decided_by__isnull=False)
        .select_related("decided_by")
        .order_by("-closed_at", "-pk")
        .first()
    )


def risk_at_intake(case: Case, episode: Episode) -> str:
    """The risk band at the start of the episode: the first band recorded from its opening
    (or the one in force then), else not assessed."""
    first = (
        RiskLevelChange.objects.filter(case=case, at__gte=episode.opened_at)
        .order_by("at", "pk")
        .first()
    )
    before = (
        RiskLevelChange.objects.filter(case=case, at__lt=episode.opened_at)
        .order_by("-at", "-pk")
        .first()
    )
    if before is not None:
        return before.level
    return first.level if first is not None else RiskLevel.UNKNOWN


CLOSURE_FIELDS = (
    "reason",
    "contact_attempts",
    "reason_details",
    "plan_check",
    "if_things_change",
    "abuse_change",
    "feels_safer",
    "quality_of_life_start",
    "quality_of_life_exit",
    "needs_met",
)


@transaction.atomic
def closure_submit(*, actor: User, case: Case, data: dict[str, Any]) -> Closure:
    """Close the case's episode with its reason, exit check and outcomes; or, when the latest
    risk band is high, ask a supervisor to approve the closure (the case stays open until then).
    """
    policy.require(actor, case, "change_status")
    locked = Case.objects.select_for_update().get(pk=case.pk)
    if locked.status == CaseStatus.CLOSED:
        raise ValidationError(gettext("This case is already closed."))
    reason = data["reason"]
    if reason.agency_id != case.agency_id:
        raise ValidationError(gettext("Choose one of your agency's reasons."))
    episode = _ensure_episode(case, actor)
    closure = Closure.objects.filter(episode=episode).first()
    if closure is not None and closure.state == ClosureState.CLOSED:
        raise ValidationError(gettext("This episode is already closed."))
    closure = closure or Closure(case=case, episode=episode)
    for name in CLOSURE_FIELDS:
        if name in data:
            setattr(closure, name, data[name])
    # Only needs of this case still open count; marked met when the case closes.
    open_needs = {key for key, _label in closure_need_choices(case)}
    closure.needs_met = [key for key in data.get("needs_met") or [] if key in open_needs]
    closure.risk_at_intake = risk_at_intake(case, episode)
    closure.risk_at_exit = locked.risk_level
    closure.requested_by = actor
    closure.requested_at = timezone.now()
    closure.decided_by = None
    closure.decided_at = None
    closure.decision_comment = ""
    closure.needs_approval = needs_approval(locked)
    closure.state = (
        ClosureState.AWAITING_APPROVAL if closure.needs_approval else ClosureState.CLOSED
    )
    if closure.pk:
        closure.version += 1
    closure.save()
    record(
        "closure.request" if closure.needs_approval else "closure.record",
        actor=actor,
        case=case,
        obj=closure,
        detail=_closure_detail(closure),
    )
    if closure.needs_approval:
        supervisors = [u for u in case_supervisors(case) if u.pk != actor.pk]
        notify(
            recipients=supervisors,
            kind="closure_approval",
            case=case,
            key=f"closure:{closure.pk}:{closure.version}",
            message=gettext_noop("Closing high-risk case %(reference)s needs your approval."),
            values={"reference": case.reference},
            link=reverse("cases:closure", args=[case.public_id]),
        )
        events.publish(
            events.EventKind.CLOSURE_AWAITING_APPROVAL,
            agency_id=case.agency_id,
            case_public_id=case.public_id,
        )
        return closure
    _close(actor=actor, case=case, closure=closure)
    return closure


def _closure_detail(closure: Closure) -> dict[str, Any]:
    """What the audit keeps of a closure: its structured choices, never its text."""
    return {
        "reason": closure.reason.standard or f"agency:{closure.reason_id}",
        "plan_check": closure.plan_check,
        "abuse_change": closure.abuse_change,
        "feels_safer": closure.feels_safer,
        "risk_at_intake": closure.risk_at_intake,
        "risk_at_exit": closure.risk_at_exit,
        "needs_approval": closure.needs_approval,
        "episode": closure.episode.number,
    }


def may_approve(user: User, closure: Closure) -> bool:
    """A supervisor of the case's team who did not ask for the closure (a second person)."""
    return (
        closure.state == ClosureState.AWAITING_APPROVAL
        and closure.requested_by_id != user.pk
        and policy.may(user, closure.case, "approve_closure")
    )


@transaction.atomic
def closure_decide(
    *,
    actor: User,
    closure: Closure,
    approve: bool,
    comment: str = "",
) -> Closure:
    """A supervisor approves the closure (the case closes) or returns it with a comment."""
    case = closure.case
    locked = Closure.objects.select_for_update().get(pk=closure.pk)
    locked.case = case
    if not may_approve(actor, locked):
        raise PermissionDenied
    if not comment.strip():
        raise ValidationError(
            gettext("Give your reason for approving the closure.")
            if approve
            else gettext("Say why the closure is returned.")
        )
    locked.decided_by = actor
    locked.decided_at = timezone.now()
    locked.decision_comment = comment.strip()
    locked.state = ClosureState.CLOSED if approve else ClosureState.RETURNED
    locked.save(update_fields=["decided_by", "decided_at", "decision_comment", "state"])
    record(
        "closure.approve" if approve else "closure.return",
        actor=actor,
        case=case,
        obj=locked,
        # The reason is on the closure, encrypted with the case: the event names the field only.
        detail={"episode": locked.episode.number, "fields": ["decision_comment"]},
    )
    notifications_resolve(prefix=f"closure:{locked.pk}:")
    notify(
        recipients=[locked.requested_by],
        kind="closure_approval",
        case=case,
        key=f"closure:{locked.pk}:{locked.version}:decided",
        message=(
            gettext_noop("The closure of case %(reference)s was approved.")
            if approve
            else gettext_noop("The closure of case %(reference)s was returned: see the comment.")
        ),
        values={"reference": case.reference},
    )
    if approve:
        _close(actor=actor, case=case, closure=locked)
    return locked


@transaction.atomic
def close_on_transfer(*, actor: User, case: Case) -> Closure:
    """Close ``case`` because another service on caseflow accepted its transfer: the caller
    (``caseflow.transfers``) checked that ``actor``, a supervisor of the receiving agency, may
    decide it, under a valid release, in the transaction that opens the new case.

    The reason is "Transferred to another service"; the safety plan goes with the transfer (the
    receiving service reviews it) and the outcomes are not known. No second approval is asked
    for, whatever the risk: a supervisor took the case on. A closure waiting for approval or
    returned is replaced. The case is then closed, and read-only, like any closed case."""
    locked = Case.objects.select_for_update().get(pk=case.pk)
    if locked.status == CaseStatus.CLOSED:
        raise ValidationError(gettext("This case is already closed."))
    ensure_standard_reasons(case.agency_id)
    reason = ClosureReason.objects.get(
        agency_id=case.agency_id, standard=StandardClosureReason.TRANSFERRED
    )
    episode = _ensure_episode(case, None)
    closure = Closure.objects.filter(episode=episode).first()
    if closure is not None:
        notifications_resolve(prefix=f"closure:{closure.pk}:")
        closure.version += 1
    closure = closure or Closure(case=case, episode=episode)
    closure.reason = reason
    closure.plan_check = PlanExitCheck.TRANSFERRED
    closure.abuse_change = AbuseChange.NOT_KNOWN
    closure.feels_safer = FeelsSafer.NOT_ASKED
    closure.needs_met = []
    closure.risk_at_intake = risk_at_intake(case, episode)
    closure.risk_at_exit = locked.risk_level
    closure.requested_by = actor
    closure.requested_at = timezone.now()
    closure.decided_by = None
    closure.decided_at = None
    closure.decision_comment = ""
    closure.needs_approval = False
    closure.state = ClosureState.CLOSED
    closure.save()
    record("closure.record", actor=actor, case=case, obj=closure, detail=_closure_detail(closure))
    _close(actor=actor, case=case, closure=closure)
    return closure


def _close(*, actor: User, case: Case, closure: Closure) -> None:
    """Close the episode and the case, and cancel everything still running on it."""
    now = timezone.now()
    cancelled = {}
    for work in features.members(lambda f: f.open_work):
        count = work.cancel(case, actor=actor)
        if count:
            cancelled[work.kind] = count
    needs = features.closure_needs()
    if closure.needs_met and needs is not None:
        needs.mark_met(case, list(closure.needs_met), actor)
    closure.cancelled = cancelled
    closure.closed_at = now
    closure.save(update_fields=["cancelled", "closed_at"])
    episode = closure.episode
    episode.status = EpisodeStatus.CLOSED
    episode.closed_at = now
    episode.closed_by = actor
    episode.save(update_fields=["status", "closed_at", "closed_by"])
    previous = Case.objects.filter(pk=case.pk).values_list("status", flat=True).get()
    case.status = CaseStatus.CLOSED
    case.closed_at = now
    case.save(update_fields=["status", "closed_at", "updated_at"])
    record(
        "case.status",
        actor=actor,
        case=case,
        obj=case,
        detail={
            "from": previous,
            "to": CaseStatus.CLOSED,
            "episode": episode.number,
            "cancelled": cancelled,
        },
    )


# --- Where the risk level comes from -------------------------------------------------------------


def risk_source(case: Case) -> RiskLevelChange | None:
    """The change that set the case's current risk level (None: never assessed nor set)."""
    cached = case.__dict__.get("_risk_source", False)
    if cached is not False:
        return cached
    row = (
        RiskLevelChange.objects.filter(case=case)
        .select_related("by")
        .order_by("-at", "-pk")
        .first()
    )
    if row is not None and row.level != case.risk_level:
        row = None  # changed outside these services (an old import): say so, never invent
    case.__dict__["_risk_source"] = row
    return row


def latest_assessed(case: Case) -> RiskLevelChange | None:
    return (
        RiskLevelChange.objects.filter(case=case, source=RiskSource.ASSESSMENT)
        .order_by("-at", "-pk")
        .first()
    )


def risk_from_assessment(
    *,
    actor: User | None,
    case: Case,
    level: str,
    assessment_id: str,
    assessed_at: dt.datetime,
) -> RiskLevelChange:
    """Record that an assessment (by its public id and date) set the case's risk level. Called
    by the safety part of caseflow when an assessment is recorded (it updates the case itself)."""
    change = RiskLevelChange.objects.create(
        case=case,
        level=level,
        previous=_current_level(case),
        source=RiskSource.ASSESSMENT,
        assessment_id=assessment_id,
        assessed_at=assessed_at,
        by=actor,
        at=assessed_at,
    )
    case.__dict__.pop("_risk_source", None)
    return change


def _current_level(case: Case) -> str:
    row = RiskLevelChange.objects.filter(case=case).order_by("-at", "-pk").first()
    return row.level if row is not None else case.risk_level


def risk_from_intake(*, actor: User, case: Case, level: str) -> RiskLevelChange | None:
    """A band given when the case was opened (only imports and the demo do this)."""
    if level == RiskLevel.UNKNOWN:
        return None
    return RiskLevelChange.objects.create(
        case=case, level=level, source=RiskSource.INTAKE, by=actor, at=case.opened_at
    )


@transaction.atomic
def risk_level_override(
    *,
    actor: User,
    case: Case,
    level: str,
    reason: str,
    expected_version: int | None = None,
) -> RiskLevelChange:
    """Change the case's risk level by hand, with the reason why. Below the latest assessment,
    the case's supervisors are told."""
    from caseflow.lib.concurrency import StaleEdit

    policy.require(actor, case, "edit")
    if level not in RiskLevel.values:
        raise ValidationError(gettext("Choose a risk level."))
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(gettext("Say why the risk level is changed."))
    locked = Case.objects.select_for_update().get(pk=case.pk)
    if expected_version is not None and locked.version != expected_version:
        raise StaleEdit("case")
    if level == locked.risk_level:
        raise ValidationError(
            gettext("The risk level is already %(level)s.") % {"level": RiskLevel(level).label}
        )
    assessed = latest_assessed(case)
    below = assessed is not None and RISK_ORDER[level] < RISK_ORDER[assessed.level]
    now = timezone.now()
    change = RiskLevelChange.objects.create(
        case=case,
        level=level,
        previous=locked.risk_level,
        source=RiskSource.OVERRIDE,
        assessed_level=assessed.level if assessed else "",
        below_assessment=below,
        by=actor,
        at=now,
        reason=reason,
    )
    case.risk_level = level
    case.version = locked.version + 1
    case.save(update_fields=["risk_level", "version", "updated_at"])
    case.__dict__.pop("_risk_source", None)
    record(
        "risk.override",
        actor=actor,
        case=case,
        obj=change,
        detail={
            "from": change.previous,
            "to": level,
            "below_assessment": below,
            "assessed": change.assessed_level,
        },
    )
    if below:
        notify(
            recipients=[u for u in case_supervisors(case) if u.pk != actor.pk],
            kind="risk_lowered",
            case=case,
            key=f"risk_lowered:{change.pk}",
            message=gettext_noop(
                "The risk level of case %(reference)s was lowered below its latest assessment: "
                "please review the reason."
            ),
            values={"reference": case.reference},
        )
    return change


def risk_history(case: Case) -> list[RiskLevelChange]:
    return list(RiskLevelChange.objects.filter(case=case).select_related("by").order_by("at", "pk"))
