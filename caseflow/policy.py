"""Who sees what: the only module that decides.

``visible_cases(user)`` is the scope: the cases whose content a user may read. Every object rule is
derived from it, so list pages and detail pages cannot disagree. Inside the scope, ``rules``
predicates decide which actions a user may take. Views fetch cases only through
:func:`get_case_for`: outside the scope is 404 (the same answer as "no such case"), inside the scope
without the right is 403.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any, Protocol

import rules
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from caseflow.accounts.models import Coalition, Role, Team, User
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import BreakGlassGrant, Case, CaseAssignment, Cover
from caseflow.lib import request_context
from caseflow.lib.compiled import CompiledExists, CompiledQuery
from caseflow.lib.i18n import gettext_lazy as _

#: Roles that work with case content. Auditors read audit trails and metadata; agency admins manage
#: people; operators (superusers) run the system. None of them reads a survivor's file.
CASEWORK_ROLES = frozenset({Role.ADVOCATE, Role.SUPERVISOR})


class CaseNotFound(Http404):
    """Outside the user's scope (or no such case): the two are indistinguishable on purpose."""

    def __init__(self, public_id: str, action: str):
        super().__init__(_("No such case"))
        self.public_id = public_id
        self.action = action


class CaseForbidden(PermissionDenied):
    def __init__(self, case: Case, action: str):
        super().__init__(_("Not allowed"))
        self.case = case
        self.action = action


def active_role(user: Any) -> str | None:
    """The user's app role, or None for anonymous, deactivated and operator accounts. An
    operator (superuser) has no role even if a membership was given to the account: operators
    never read cases."""
    if not getattr(user, "is_authenticated", False) or not user.is_active or user.is_superuser:
        return None
    membership = user.membership_or_none
    if membership is None or not membership.is_active:
        return None
    return membership.role


def coalition_of(user: Any) -> Coalition | None:
    """The coalition whose roll-ups ``user`` runs: an active seat of an active account that is
    no operator and belongs to no agency (a seat beside a membership gives nothing)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active or user.is_superuser:
        return None
    if user.membership_or_none is not None:
        return None
    seat = user.coalition_seat_or_none
    return seat.coalition if seat is not None and seat.is_active else None


def coalition_agency_ids(coalition: Coalition) -> list[int]:
    """The member agencies of ``coalition``, in the order their names sort."""
    return list(coalition.members.order_by("name").values_list("pk", flat=True))


def agency_id_of(user: Any) -> int | None:
    """The agency whose data ``user`` works with, or None without an app role."""
    return user.membership.agency_id if active_role(user) else None


def covered_for(user: Any, now: dt.datetime | None = None) -> QuerySet[Any]:
    """The ids of the colleagues ``user`` (or the user of that id) covers at ``now`` (a cover a
    supervisor set, started, not yet over and not ended early)."""
    now = timezone.now() if now is None else now
    return Cover.objects.filter(
        covering=user, starts_at__lte=now, ends_at__gt=now, ended_at__isnull=True
    ).values("absent")


def visible_cases(user: Any) -> QuerySet[Case]:
    """The cases whose content ``user`` may read."""
    role = active_role(user)
    if role not in CASEWORK_ROLES:
        return Case.objects.none()
    return _scope(
        role == Role.SUPERVISOR,
        user=user.pk,
        agency=agency_id_of(user),
        now=timezone.now(),
    )


def visible_cases_of(
    supervisor: bool, *, user: int, agency: int | None, now: dt.datetime
) -> QuerySet[Case]:
    """:func:`visible_cases` of a caseworker by their ids (a supervisor, or not), at ``now``:
    what a statement compiled once per process (``caseflow.lib.compiled``) builds with its
    stand-ins, the values given for each request as :func:`visible_cases_values` gives them."""
    return _scope(supervisor, user=user, agency=agency, now=now)


def visible_cases_values(user: Any) -> tuple[bool, dict[str, Any]] | None:
    """Whether ``user`` is a supervisor and the values :func:`visible_cases_of` takes for
    them now, so that it is :func:`visible_cases`; ``None`` for whoever reaches no case."""
    role = active_role(user)
    if role not in CASEWORK_ROLES:
        return None
    return role == Role.SUPERVISOR, {
        "user": user.pk,
        "agency": agency_id_of(user),
        "now": timezone.now(),
    }


def _scope(supervisor: bool, *, user: int, agency: int | None, now: dt.datetime) -> QuerySet[Case]:
    """:func:`visible_cases` of a caseworker: the user of id ``user``, of ``agency``, at ``now``
    (a supervisor also reaches the cases of the teams they belong to)."""
    assigned = Exists(
        CaseAssignment.objects.filter(case=OuterRef("pk")).filter(
            Q(user=user) | Q(user__in=covered_for(user, now))
        )
    )
    break_glass = Exists(
        BreakGlassGrant.objects.filter(case=OuterRef("pk"), user=user, expires_at__gt=now)
    )
    reach = Q(assigned) | Q(break_glass)
    if supervisor:
        reach |= Q(team__in=Team.objects.filter(members=user).values("pk"))
    restricted_listed = Exists(
        Case.restricted_users.through.objects.filter(case=OuterRef("pk"), user=user)
    )
    return Case.objects.filter(
        Q(agency_id=agency) & ((Q(restricted=False) & reach) | Q(restricted_listed))
    )


def can_view_case(user: Any, case: Case) -> bool:
    return visible_cases(user).filter(pk=case.pk).exists()


# --- Actions inside the scope ------------------------------------------------------------------


def _assignments(*, user: int, case: int, now: dt.datetime) -> QuerySet[CaseAssignment]:
    """The assignments of ``case`` to the user of id ``user`` or to a colleague they cover."""
    return CaseAssignment.objects.filter(case=case).filter(
        Q(user=user) | Q(user__in=covered_for(user, now))
    )


#: Every change of a case asks it (and every case page, to offer its changes): its SQL is
#: built once per process.
_ASSIGNED = CompiledExists(CaseAssignment, _assignments, user="int", case="int", now="datetime")


@rules.predicate
def is_assigned(user: User, case: Case) -> bool:
    """Assigned to the case, or covering someone who is."""
    if getattr(user, "pk", None) is None:
        return False  # an anonymous user is assigned to nothing
    return _ASSIGNED.exists(user=user.pk, case=case.pk, now=timezone.now())


def by_cover_only(user: Any, case: Case) -> bool:
    """``user`` reaches ``case`` only because they cover a colleague assigned to it (not assigned
    themselves, not supervising its team, not on its access list, no emergency access)."""
    if not CaseAssignment.objects.filter(case=case, user__in=covered_for(user)).exists():
        return False
    return not (
        CaseAssignment.objects.filter(case=case, user=user).exists()
        or is_case_supervisor(user, case)
        or is_restricted_listed(user, case)
        or holds_break_glass(user, case)
    )


@rules.predicate
def is_case_supervisor(user: User, case: Case) -> bool:
    return active_role(user) == Role.SUPERVISOR and case.team.members.filter(pk=user.pk).exists()


@rules.predicate
def is_restricted_listed(user: User, case: Case) -> bool:
    return case.restricted and case.restricted_users.filter(pk=user.pk).exists()


is_caseworker = is_assigned | is_case_supervisor | is_restricted_listed


@rules.predicate
def holds_break_glass(user: User, case: Case) -> bool:
    """The user opened the case with emergency access that has not yet expired."""
    return BreakGlassGrant.objects.filter(
        case=case, user=user, expires_at__gt=timezone.now()
    ).exists()


CASE_ACTIONS: dict[str, rules.Predicate] = {
    # Reading the file: anyone in scope (assigned, supervising, listed, or break-glass).
    "view": rules.always_allow,
    # Changing the record: the people who work the case. Break-glass reads and records notes.
    "edit": is_caseworker,
    "change_status": is_caseworker,
    # Writing down a call taken under emergency access is allowed (the note is flagged for the
    # supervisor's review); nothing else is.
    "record_note": is_caseworker | holds_break_glass,
    # Deciding who works the case and who may see a restricted one: its team's supervisors.
    "assign": is_case_supervisor,
    "restrict": is_case_supervisor,
    # Approving the closure of a high-risk case: its team's supervisors (never the person who
    # asked for it: ``cases.journey.may_approve``).
    "approve_closure": is_case_supervisor,
    # Approving a payment above the agency's limit: its team's supervisors (never the person who
    # recorded it: ``assistance.services.may_decide``).
    "approve_payment": is_case_supervisor,
}


# Key of the scope answer in a case's memo (never an action name).
_IN_SCOPE = "@scope"


def may(user: Any, case: Case, action: str) -> bool:
    """Whether ``user`` may take ``action`` on ``case`` (scope included).

    The answer is kept on the case instance for the rest of the request (the case page's panels
    ask the same question several times); services that change who may do what on a case call
    :func:`forget_permissions` on it. A new request loads a new instance and asks again."""
    if action not in CASE_ACTIONS:
        raise ValueError(f"unknown case action {action!r}")
    memo = case.__dict__.setdefault("_policy_memo", {})
    uid = getattr(user, "pk", None)
    key = (uid, action)
    if key not in memo:
        scope = (uid, _IN_SCOPE)
        if scope not in memo:
            memo[scope] = can_view_case(user, case)
        memo[key] = memo[scope] and CASE_ACTIONS[action].test(user, case)
    return memo[key]


def require(user: Any, case: Case, action: str) -> None:
    """Raise ``PermissionDenied`` unless ``user`` may take ``action`` on ``case``: the check every
    service makes itself, whoever called it (defence in depth)."""
    if not may(user, case, action):
        raise PermissionDenied


def forget_permissions(case: Case) -> None:
    """Drop the answers :func:`may` kept on ``case`` (after a change of access)."""
    case.__dict__.pop("_policy_memo", None)


def _case_for(
    supervisor: bool, *, user: int, agency: int | None, now: dt.datetime, public_id: str
) -> QuerySet[Case]:
    """The case of ``public_id`` in the scope (:func:`_scope`), with what its pages read
    beside it, as ``first()`` asks for it."""
    return (
        _scope(supervisor, user=user, agency=agency, now=now)
        .select_related("team", "agency", "primary_advocate")
        # Whether a colleague the user covers is assigned to it: only then may the user reach it
        # by cover alone (``by_cover_only``), asked in the same statement.
        .annotate(
            assigned_to_covered=Exists(
                CaseAssignment.objects.filter(case=OuterRef("pk"), user__in=covered_for(user, now))
            )
        )
        .filter(public_id=public_id)[:1]
    )


#: :func:`_case_for` built and compiled to SQL once per process, for an advocate (False) and a
#: supervisor (True): every case page asks it, and building its subqueries cost more than
#: the database's answer.
_CASE_FOR = {
    supervisor: CompiledQuery(
        Case,
        functools.partial(_case_for, supervisor),
        user="int",
        agency="int",
        now="datetime",
        public_id="str",
    )
    for supervisor in (False, True)
}


def get_case_for(user: Any, public_id: str, action: str = "view") -> Case:
    """The case behind ``public_id`` if ``user`` may take ``action`` on it.

    Raises :class:`CaseNotFound` (404) outside the scope and :class:`CaseForbidden` (403) inside
    the scope without the right.
    """
    if action not in CASE_ACTIONS:
        raise ValueError(f"unknown case action {action!r}")
    role = active_role(user)
    found = (
        _CASE_FOR[role == Role.SUPERVISOR].rows(
            user=user.pk, agency=agency_id_of(user), now=timezone.now(), public_id=public_id
        )
        if role in CASEWORK_ROLES
        else []  # outside every scope: nothing to ask
    )
    case = found[0] if found else None
    if case is None:
        raise CaseNotFound(public_id, action)
    if not CASE_ACTIONS[action].test(user, case):
        raise CaseForbidden(case, action)
    # This instance was just loaded through ``visible_cases(user)``: keep the answers for the
    # rest of the request, so that ``may`` does not check the scope (or this action) again.
    memo = case.__dict__.setdefault("_policy_memo", {})
    memo[(user.pk, _IN_SCOPE)] = True
    memo[(user.pk, action)] = True
    context = request_context.current()
    covered = case.assigned_to_covered  # type: ignore[attr-defined]  # annotated by _case_for
    if context is not None and covered and by_cover_only(user, case):
        # Every event of this request about the case says it was done as cover.
        context.cover_cases.add(case.pk)
    return case


# --- Break-glass -------------------------------------------------------------------------------


def break_glass_candidates(user: Any) -> QuerySet[Case]:
    """Cases ``user`` may open through break-glass: same agency, not restricted."""
    if active_role(user) not in CASEWORK_ROLES:
        return Case.objects.none()
    return Case.objects.filter(Q(agency_id=agency_id_of(user)), restricted=False)


def may_break_glass(user: Any) -> bool:
    return active_role(user) in CASEWORK_ROLES


# --- People and teams ----------------------------------------------------------------------------


def is_agency_admin(user: Any) -> bool:
    return active_role(user) == Role.AGENCY_ADMIN


def agency_users(user: Any) -> QuerySet[User]:
    """Staff an agency admin manages: their own agency's, nobody else's."""
    if not is_agency_admin(user):
        return User.objects.none()
    return User.objects.filter(Q(membership__agency_id=agency_id_of(user))).select_related(
        "membership"
    )


def agency_teams(user: Any) -> QuerySet[Team]:
    if active_role(user) is None:
        return Team.objects.none()
    return Team.objects.filter(Q(agency_id=agency_id_of(user)))


def supervised_teams(user: Any) -> QuerySet[Team]:
    if active_role(user) != Role.SUPERVISOR:
        return Team.objects.none()
    return Team.objects.filter(members=user)


def supervised_caseworkers(user: Any) -> QuerySet[User]:
    """Active advocates and supervisors of the teams ``user`` supervises (who may cover, be
    covered, or be handed cases by them)."""
    return (
        User.objects.filter(
            teams__in=supervised_teams(user),
            is_active=True,
            membership__is_active=True,
            membership__role__in=CASEWORK_ROLES,
        )
        .distinct()
        .order_by("first_name", "last_name", "username")
    )


def assignable_users(case: Case) -> QuerySet[User]:
    """Who may be assigned to ``case``: active advocates and supervisors of its agency."""
    return User.objects.filter(
        is_active=True,
        membership__agency_id=case.agency_id,
        membership__is_active=True,
        membership__role__in=list(CASEWORK_ROLES),
    ).order_by("first_name", "last_name", "username")


def intake_teams(user: Any) -> QuerySet[Team]:
    """Teams a user may open a case in: the teams they belong to."""
    if active_role(user) not in CASEWORK_ROLES:
        return Team.objects.none()
    return Team.objects.filter(Q(agency_id=agency_id_of(user)), members=user)


# --- Transfers between agencies -----------------------------------------------------------------


def may_transfer(user: Any, case: Case) -> bool:
    """Whether ``user`` may transfer ``case`` to another service (under a release): a supervisor
    of its team or its primary advocate, as for a referral pack, while the case is open. A
    restricted case: only those on its access list."""
    if not case.is_open or not may(user, case, "edit"):
        return False
    return bool(is_case_supervisor(user, case)) or case.primary_advocate_id == user.pk


def transfer_deciding_agency(user: Any) -> int | None:
    """The agency whose transfers in ``user`` decides (its supervisors), or None. A supervisor
    of the receiving agency sees what the transfer disclosed and nothing else of the sending
    case, which stays outside their scope."""
    return agency_id_of(user) if active_role(user) == Role.SUPERVISOR else None


def may_decide_transfer(user: Any, transfer: Any) -> bool:
    agency_id = transfer_deciding_agency(user)
    return agency_id is not None and transfer.receiving_agency_id == agency_id


# --- Agency-wide duties, by role ------------------------------------------------------------------

#: Who decides purges (propose, approve, run), who runs the aggregate reports, who sees the
#: scheduler's health. None of these shows case content.
PURGE_ROLES = frozenset({Role.SUPERVISOR, Role.AGENCY_ADMIN})
REPORT_ROLES = frozenset({Role.AUDITOR, Role.SUPERVISOR, Role.AGENCY_ADMIN})
SCHEDULER_ROLES = frozenset({Role.SUPERVISOR, Role.AGENCY_ADMIN})


def may_decide_purges(user: Any, agency_id: int | None = None) -> bool:
    """Whether ``user`` decides purges (of ``agency_id``'s cases, when given)."""
    if active_role(user) not in PURGE_ROLES:
        return False
    return agency_id is None or agency_id_of(user) == agency_id


def may_run_reports(user: Any) -> bool:
    return active_role(user) in REPORT_ROLES


def may_see_scheduler(user: Any) -> bool:
    return active_role(user) in SCHEDULER_ROLES


def does_casework(user: Any) -> bool:
    return active_role(user) in CASEWORK_ROLES


def reviews_break_glass(user: Any) -> bool:
    """Supervisors review emergency access to their teams' cases (never their own)."""
    return active_role(user) == Role.SUPERVISOR


def sees_note_versions(user: Any) -> bool:
    """Supervisors see a note's earlier versions, the author's own changes inside the edit
    window included (amendments, with their reasons, are shown to every reader)."""
    return active_role(user) == Role.SUPERVISOR


# --- Shelter and refuge -----------------------------------------------------------------------
# Sites, rooms and beds are the agency's premises: its admin keeps them (as it keeps staff and
# teams), supervisors who run the sites read them with their addresses. Caseworkers (advocates and
# supervisors) see the availability board without addresses, book stays on the cases they may
# edit and count turn-aways. A site's address is shown to its caseworkers on a stay's page.

SHELTER_SITE_READERS = frozenset({Role.SUPERVISOR, Role.AGENCY_ADMIN})


def manages_shelter(user: Any) -> bool:
    """Whether ``user`` adds and changes the agency's sites, rooms and beds."""
    return active_role(user) == Role.AGENCY_ADMIN


def reads_shelter_sites(user: Any) -> bool:
    """Whether ``user`` reads the list of sites with their addresses."""
    return active_role(user) in SHELTER_SITE_READERS


def books_shelter(user: Any) -> bool:
    """Whether ``user`` reads the bed board, books stays and records turn-aways."""
    return active_role(user) in CASEWORK_ROLES


def records_community_work(user: Any) -> bool:
    """Whether ``user`` records community education sessions and returned outcome surveys
    (neither holds anything personal; the people who work cases do both)."""
    return active_role(user) in CASEWORK_ROLES


def community_records_removable_filter(user: Any) -> Q:
    """The condition on a session's or a survey's fields (``agency_id``, ``recorded_by_id``)
    for those ``user`` may remove as a mistake: their own, or any of their agency's for a
    supervisor. Nothing for anyone else."""
    role = active_role(user)
    if role not in CASEWORK_ROLES:
        return Q(pk__in=[])
    mine = Q(agency_id=agency_id_of(user))
    if role != Role.SUPERVISOR:
        mine &= Q(recorded_by=user)
    return mine


def navigation(user: Any) -> list[tuple[str, str]]:
    """The main menu for ``user``: (label, URL name) of each place their role may go."""
    role = active_role(user)
    if role is None:
        if coalition_of(user) is None:
            return []
        return [
            (_("Home"), "dashboard"),
            (_("Coalition reports"), "reporting:coalition"),
            (_("Security"), "accounts:security"),
        ]
    items = [(_("Home"), "dashboard")]
    if role in CASEWORK_ROLES:
        items += [
            (_("Cases"), "cases:list"),
            (_("Find by name"), "cases:find"),
            (_("New referral"), "cases:new"),
            (_("Emergency access"), "cases:break_glass"),
            (_("Check-ins"), "checkins:home"),
            (_("Calls"), "calls:list"),
            (_("Beds"), "shelter:board"),
            (_("Education and surveys"), "community:education"),
        ]
    if role in REPORT_ROLES:
        items.append((_("Reports"), "confidentiality:reports"))
        items.append((_("Funder reports"), "reporting:list"))
    if role in AUDIT_ROLES:
        items.append((_("Audit"), "audit:events"))
    items.append((_("Security"), "accounts:security"))
    if role == Role.AGENCY_ADMIN:
        items.append((_("Staff and teams"), "agency:staff_list"))
        items.append((_("Settings"), "agency:settings"))
    if role in SHELTER_SITE_READERS:
        items.append((_("Shelter sites"), "shelter:sites"))
    return items


# --- Duty-line calls ----------------------------------------------------------------------------
# Calls (``caseflow.calls``) sit above this module, so their rules are written over their fields,
# not their model. Who takes calls on the duty line: the people who work cases. Auditors read
# metadata and agency admins manage people; neither takes calls nor reads one (the funders'
# counts reach them through the reports, which show no call). Who reads a call: while it is on
# no case, the person who logged it and the agency's supervisors; once on a case, exactly those
# who may read that case (the person who logged it included only if they may).

CALL_ROLES = CASEWORK_ROLES


def may_log_calls(user: Any) -> bool:
    """Whether ``user`` takes calls on the duty line (logs them, sees the agency's call list)."""
    return active_role(user) in CALL_ROLES


def visible_calls_filter(user: Any) -> Q:
    """The condition on a call's fields (``agency_id``, ``case_id``, ``logged_by_id``) for the
    calls whose detail ``user`` may read. Nothing for a user who takes no calls."""
    role = active_role(user)
    if role not in CALL_ROLES:
        return Q(pk__in=[])
    loose = Q(case__isnull=True)
    if role != Role.SUPERVISOR:
        loose &= Q(logged_by=user)
    on_a_case = Q(case__in=visible_cases(user).values("pk"))
    return Q(agency_id=agency_id_of(user)) & (loose | on_a_case)


def may_take_on_call(user: Any, call: Any) -> bool:
    """Whether ``user`` may turn a call they can read into a case, or attach it to one: a call
    on no case yet, with someone to support (never an anonymous one)."""
    return (
        may_log_calls(user)
        and call.case_id is None
        and call.caller_kind != "anonymous"
        and call.agency_id == agency_id_of(user)
    )


# --- Audit ---------------------------------------------------------------------------------------
# Who reviews the audit trail. Supervisors: their teams' cases and their team members' actions;
# auditors: the whole agency (metadata only: audit pages never load case content); advocates: the
# timelines of the cases they can see. Agency admins and operators: no audit view.

AUDIT_ROLES = frozenset({Role.SUPERVISOR, Role.AUDITOR})


def may_review_audit(user: Any) -> bool:
    """Whether ``user`` may use the agency-wide audit workspace (lists, people, break-glass)."""
    return active_role(user) in AUDIT_ROLES


def auditable_events(user: Any) -> QuerySet[AuditEvent]:
    """The audit events ``user`` may read. An event about a restricted case is for the case's
    access list only, whatever the role, page or filter: the same rule as ``audit_cases``."""
    found = audit_values(user, events=True)
    if found is None:
        return AuditEvent.objects.none()
    return auditable_events_of(found[0], **found[1])


def audit_values(user: Any, *, events: bool = False) -> tuple[str, dict[str, Any]] | None:
    """``user``'s role and the values :func:`audit_cases_of` (with ``events``,
    :func:`auditable_events_of`) takes for them now, so that it is :func:`audit_cases`
    (:func:`auditable_events`): a statement compiled once per process
    (``caseflow.lib.compiled``) is built with stand-ins for them. ``None`` for whoever reads
    no audit trail. A caseworker's cases depend on the time, and so do an advocate's events."""
    role = active_role(user)
    if role not in (Role.AUDITOR, Role.SUPERVISOR, Role.ADVOCATE):
        return None
    values: dict[str, Any] = {"user": user.pk, "agency": agency_id_of(user)}
    if role == Role.ADVOCATE or (role == Role.SUPERVISOR and not events):
        values["now"] = timezone.now()
    return role, values


def auditable_events_of(
    role: str, *, user: int, agency: int | None, now: dt.datetime | None = None
) -> QuerySet[AuditEvent]:
    """:func:`auditable_events` of the user of id ``user``, of ``role`` in ``agency``, at
    ``now`` (as :func:`audit_values` gives them)."""
    hidden_case = Exists(
        Case.objects.filter(pk=OuterRef("case_id"), restricted=True).exclude(
            Exists(Case.restricted_users.through.objects.filter(case=OuterRef("pk"), user=user))
        )
    )
    events = AuditEvent.objects.filter(Q(agency_id=agency) & ~Q(hidden_case))
    if role == Role.AUDITOR:
        return events
    if role == Role.SUPERVISOR:
        teams = Team.objects.filter(members=user).values("pk")
        return events.filter(
            Q(case_id__in=Case.objects.filter(team__in=teams).values("pk"))
            | Q(actor_id__in=User.objects.filter(teams__in=teams).values("pk"))
        )
    if role == Role.ADVOCATE:
        assert now is not None
        return events.filter(
            case_id__in=_scope(False, user=user, agency=agency, now=now).values("pk")
        )
    return AuditEvent.objects.none()


def audit_cases(user: Any) -> QuerySet[Case]:
    """Cases whose timeline ``user`` may read. A restricted case's timeline is for its access
    list only, like the case itself."""
    found = audit_values(user)
    if found is None:
        return Case.objects.none()
    return audit_cases_of(found[0], **found[1])


def audit_cases_of(
    role: str, *, user: int, agency: int | None, now: dt.datetime | None = None
) -> QuerySet[Case]:
    """:func:`audit_cases` of the user of id ``user``, of ``role`` in ``agency``, at ``now``
    (as :func:`audit_values` gives them)."""
    if role == Role.AUDITOR:
        listed = Exists(
            Case.restricted_users.through.objects.filter(case=OuterRef("pk"), user=user)
        )
        return Case.objects.filter(Q(agency_id=agency) & (Q(restricted=False) | listed))
    assert now is not None
    return _scope(role == Role.SUPERVISOR, user=user, agency=agency, now=now)


def audit_people(user: Any) -> QuerySet[User]:
    """Staff whose activity ``user`` may review: a supervisor's team members, an auditor's
    agency."""
    role = active_role(user)
    if role == Role.AUDITOR:
        return User.objects.filter(Q(membership__agency_id=agency_id_of(user)))
    if role == Role.SUPERVISOR:
        return User.objects.filter(
            pk__in=User.objects.filter(teams__in=supervised_teams(user)).values("pk")
        )
    return User.objects.none()


def may_review_break_glass(user: Any, grant: BreakGlassGrant) -> bool:
    """A supervisor of the case's team reviews each emergency access, never their own."""
    return grant.user_id != user.pk and is_case_supervisor.test(user, grant.case)


# --- Integrations (other systems calling the API) -----------------------------------------------
# An integration is registered by its agency's admin, with scopes, optionally one team, an
# expiry. It is not a person: it has no role and no case is ever assigned to it. What it may
# read is derived here from the same facts as everyone else's scope, and never reaches a
# restricted case.

#: Scopes an integration may be given.
SCOPE_REFERRALS_WRITE = "referrals:write"
SCOPE_CASES_SUMMARY = "cases:read-summary"
SCOPE_CASES_NARRATIVE = "cases:read-narrative"
SCOPE_REPORTS = "reports:read"
SCOPE_CONTACTS_WRITE = "contacts:write"
INTEGRATION_SCOPES = (
    SCOPE_REFERRALS_WRITE,
    SCOPE_CASES_SUMMARY,
    SCOPE_CASES_NARRATIVE,
    SCOPE_REPORTS,
    SCOPE_CONTACTS_WRITE,
)


class IntegrationLike(Protocol):
    """What policy reads of an integration (``caseflow.api.models.Integration``, a layer above)."""

    agency_id: int
    team_id: int | None
    scopes: list[str]

    def is_usable(self) -> bool: ...


def may_manage_integrations(user: Any) -> bool:
    """The agency admin registers and revokes integrations and webhook subscriptions."""
    return is_agency_admin(user)


def integration_may(integration: IntegrationLike | None, scope: str) -> bool:
    """Whether ``integration`` is usable now (not revoked, not expired) and holds ``scope``."""
    if integration is None or not integration.is_usable():
        return False
    if scope == SCOPE_CASES_NARRATIVE:
        # Narratives are read with the summary, never on their own.
        return SCOPE_CASES_SUMMARY in integration.scopes and scope in integration.scopes
    return scope in integration.scopes


def integration_cases(
    integration: IntegrationLike | None, scope: str = SCOPE_CASES_SUMMARY
) -> QuerySet[Case]:
    """The cases ``integration`` may read (or, with ``scope``, act on through that scope): its
    agency's (its team's, when it has one), never a restricted one, and none without the
    scope."""
    if not integration_may(integration, scope):
        return Case.objects.none()
    assert integration is not None
    cases = Case.objects.filter(Q(agency_id=integration.agency_id), restricted=False)
    if integration.team_id is not None:
        cases = cases.filter(team_id=integration.team_id)
    return cases


def integration_intake_teams(integration: IntegrationLike | None) -> QuerySet[Team]:
    """Teams a referral sent by ``integration`` may land in."""
    if not integration_may(integration, SCOPE_REFERRALS_WRITE):
        return Team.objects.none()
    assert integration is not None
    teams = Team.objects.filter(Q(agency_id=integration.agency_id))
    if integration.team_id is not None:
        teams = teams.filter(pk=integration.team_id)
    return teams


def get_case_for_integration(
    integration: IntegrationLike | None, public_id: str, scope: str = SCOPE_CASES_SUMMARY
) -> Case:
    """The case behind ``public_id`` if ``integration`` may read it (or act on it through
    ``scope``); :class:`CaseNotFound` otherwise (no such case, another agency's or team's,
    restricted: one answer)."""
    case = (
        integration_cases(integration, scope)
        .select_related("team", "agency")
        .filter(public_id=public_id)
        .first()
    )
    if case is None:
        raise CaseNotFound(public_id, "view")
    return case


def require_integration(integration: IntegrationLike, case: Case, scope: str) -> None:
    """Raise ``PermissionDenied`` unless ``integration`` may act on ``case`` through ``scope``:
    the check a service makes itself when an integration, not a person, calls it."""
    if not integration_cases(integration, scope).filter(pk=case.pk).exists():
        raise PermissionDenied
