"""Plain writes on cases (details, assignment, restriction, people, emergency access), and the
conflict check: each checks policy itself, runs in a transaction and writes its audit.

The case's lifecycle (opening, status, episodes, reopening, closure) is the journey's
(:mod:`caseflow.cases.journey`), which builds on these; nothing here calls the journey."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_noop

from caseflow import policy
from caseflow.accounts.models import Role, User
from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record
from caseflow.cases.drafts import drafts_forget_lost
from caseflow.cases.models import (
    BreakGlassGrant,
    Case,
    CaseAssignment,
    CaseChange,
    Party,
    PartyRole,
    name_index_for,
)
from caseflow.inbox.services import case_supervisors, notify
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.encryption import blind_index
from caseflow.lib.i18n import gettext_lazy as _


def keep_change_values(case: Case, event, changes: list[list]) -> None:
    """Store the before/after values of an audited change, encrypted, beside its event."""
    if changes:
        CaseChange.objects.create(case=case, audit_seq=event.seq, changes=changes)


def identity_index_for(full_name: str, date_of_birth: str | dt.date | None) -> str:
    if not full_name or not date_of_birth:
        return ""
    if isinstance(date_of_birth, dt.date):
        date_of_birth = date_of_birth.isoformat()
    return blind_index(full_name, date_of_birth)


@dataclass(frozen=True)
class ConflictCheck:
    """What the intake conflict check found, and how strong the check was."""

    found: bool
    #: The roles ("survivor", "other_party") checked by name only, for want of a date of birth:
    #: a weaker check, which also finds people who merely share the name.
    name_only: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return self.found


def conflict_check(
    *, agency_id: int, people: Iterable[tuple[str, str, str | dt.date | None]]
) -> ConflictCheck:
    """Whether any of ``people`` — (role, name, dob) — matches the opposite side of an existing
    case of the agency: a named other party who is a client, or a new client who is named as
    another case's other party. Says only yes or no, never which case.

    With a date of birth the match is on name and date of birth; without one it is on the name
    alone (never skipped), and the result says so."""
    found = False
    name_only: list[str] = []
    for role, name, dob in people:
        opposite = PartyRole.SURVIVOR if role == PartyRole.OTHER_PARTY else PartyRole.OTHER_PARTY
        index = identity_index_for(name, dob)
        if index:
            match = Q(identity_index=index)
        else:
            name_index = name_index_for(name or "")
            if not name_index:
                continue
            name_only.append(role)
            match = Q(name_index=name_index)
        if Party.objects.filter(match, case__agency_id=agency_id, role=opposite).exists():
            found = True
    return ConflictCheck(found, tuple(name_only))


def next_reference(agency_id: int) -> str:
    year = timezone.now().year
    prefix = f"CF-{year}-"
    count = Case.objects.filter(agency_id=agency_id, reference__startswith=prefix).count()
    candidate = count + 1
    while Case.objects.filter(agency_id=agency_id, reference=f"{prefix}{candidate:05d}").exists():
        candidate += 1
    return f"{prefix}{candidate:05d}"


def set_assignees(case: Case, users: Iterable[User]) -> tuple[list[int], list[int]]:
    wanted = {u.pk for u in users}
    current = set(CaseAssignment.objects.filter(case=case).values_list("user_id", flat=True))
    added, removed = sorted(wanted - current), sorted(current - wanted)
    CaseAssignment.objects.filter(case=case, user_id__in=removed).delete()
    CaseAssignment.objects.bulk_create(
        [CaseAssignment(case=case, user_id=pk, agency_id=case.agency_id) for pk in added]
    )
    return added, removed


#: Case fields a case worker may change through the edit form.
#: The risk level is changed on its own page, with a reason (``journey.risk_level_override``);
#: opening, status, reopening and closing are the journey's (``caseflow.cases.journey``).
CASE_EDITABLE = ("reference", "summary")


@transaction.atomic
def case_update(
    *,
    actor: User,
    case: Case,
    expected_version: int,
    data: dict[str, Any],
) -> Case:
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    locked = Case.objects.select_for_update().get(pk=case.pk)
    if locked.version != expected_version:
        raise StaleEdit("case")
    changed = [f for f in CASE_EDITABLE if f in data and getattr(case, f) != data[f]]
    values = [[name, getattr(case, name), data[name]] for name in changed]
    for name in changed:
        setattr(case, name, data[name])
    case.version = locked.version + 1
    case.save()
    event = record("case.update", actor=actor, case=case, obj=case, detail={"fields": changed})
    keep_change_values(case, event, values)
    return case


@transaction.atomic
def case_assign(
    *,
    actor: User,
    case: Case,
    primary: User,
    others: Iterable[User],
) -> Case:
    if not policy.may(actor, case, "assign"):
        raise PermissionDenied
    allowed = set(policy.assignable_users(case).values_list("pk", flat=True))
    people = [primary, *others]
    if any(u.pk not in allowed for u in people):
        raise ValidationError(_("Only active staff of this agency can be assigned."))
    old_primary = case.primary_advocate_id
    added, removed = set_assignees(case, people)
    policy.forget_permissions(case)
    case.primary_advocate = primary
    case.save(update_fields=["primary_advocate", "updated_at"])
    drafts_forget_lost(actor=actor, case=case)
    record(
        "case.assign",
        actor=actor,
        case=case,
        obj=case,
        detail={
            "added": added,
            "removed": removed,
            "primary": primary.pk,
            "previous_primary": old_primary,
        },
    )
    return case


@transaction.atomic
def case_restrict(
    *,
    actor: User,
    case: Case,
    restricted: bool,
    users: Iterable[User],
) -> Case:
    if not policy.may(actor, case, "restrict"):
        raise PermissionDenied
    allowed = set(policy.assignable_users(case).values_list("pk", flat=True))
    listed = {u.pk for u in users}
    if listed - allowed:
        raise ValidationError(_("Only active staff of this agency can be listed."))
    if restricted:
        # Whoever restricts a case keeps it: nobody can lock themselves out by accident.
        listed.add(actor.pk)
    before = set(case.restricted_users.values_list("pk", flat=True))
    case.restricted = restricted
    case.save(update_fields=["restricted", "updated_at"])
    case.restricted_users.set(listed if restricted else [])
    policy.forget_permissions(case)
    after = set(case.restricted_users.values_list("pk", flat=True))
    record(
        "case.restrict",
        actor=actor,
        case=case,
        obj=case,
        detail={
            "restricted": restricted,
            "added": sorted(after - before),
            "removed": sorted(before - after),
        },
    )
    return case


PARTY_FIELDS = (
    "full_name",
    "known_as",
    "aliases",
    "pronouns",
    "date_of_birth",
    "address",
    "phone",
    "email",
    "notes",
    "languages",
    "interpreter_language",
    "other_language",
    "interpreter_independent",
    "communication_needs",
    "access_needs",
)


@transaction.atomic
def party_save(
    *,
    actor: User,
    case: Case,
    party: Party,
    data: dict[str, Any],
) -> Party:
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    return party_write(actor=actor, case=case, party=party, data=data)


def party_write(*, actor: User, case: Case, party: Party, data: dict[str, Any]) -> Party:
    """Save ``party`` on ``case`` and record it: for a caller that has checked policy itself
    (:func:`party_save`, and a referral received from an integration, which no person works)."""
    adding = party.pk is None
    party.case = case
    changed = []
    values = []
    for name in PARTY_FIELDS:
        if name not in data:
            continue
        value = data[name]
        if isinstance(value, dt.date):
            value = value.isoformat()
        if name in ("date_of_birth", "known_as", "aliases", "pronouns") and not value:
            value = None
        if adding or getattr(party, name) != value:
            changed.append(name)
            values.append([name, None if adding else getattr(party, name), value])
            setattr(party, name, value)
    if "role" in data and adding:
        party.role = data["role"]
    party.identity_index = identity_index_for(party.full_name, party.date_of_birth)
    party.save()
    event = record(
        "party.create" if adding else "party.update",
        actor=actor,
        case=case,
        obj=party,
        detail={"role": party.role, "fields": changed},
    )
    keep_change_values(case, event, values)
    return party


class BreakGlassRefused(Exception):
    """No case this user may open through break-glass has that reference."""


class BreakGlassLimited(Exception):
    """The user reached ``BREAK_GLASS_PER_HOUR`` emergency accesses within the last hour."""


def _break_glass_within_limit(*, actor: User) -> None:
    """Refuse a break-glass beyond the hourly limit (grants and refusals both count, so
    guessing references is limited too) and alert the user's supervisors, once an hour."""
    now = timezone.now()
    recent = AuditEvent.objects.filter(
        actor_id=actor.pk,
        action__in=("break_glass.open", "break_glass.refused"),
        at__gte=now - dt.timedelta(hours=1),
    ).count()
    if recent < settings.BREAK_GLASS_PER_HOUR:
        return
    supervisors = (
        User.objects.filter(
            teams__in=actor.teams.all(),
            is_active=True,
            membership__role=Role.SUPERVISOR,
            membership__is_active=True,
        )
        .exclude(pk=actor.pk)
        .distinct()
    )
    notify(
        recipients=supervisors,
        kind="unusual_access",
        case=None,
        key=f"break_glass_limit:{actor.pk}:{now:%Y%m%d%H}",
        message=gettext_noop(
            "Unusual access: a member of your team reached the limit of emergency accesses "
            "within an hour. Please review their activity."
        ),
        link=reverse("audit:user", args=[actor.pk]),
    )
    record("break_glass.limited", actor=actor, detail={"recent": recent})
    raise BreakGlassLimited


def break_glass_open(*, actor: User, reference: str, reason: str) -> BreakGlassGrant:
    """Open an unassigned, unrestricted case of the actor's agency for a limited time."""
    if not policy.may_break_glass(actor):
        raise PermissionDenied
    # Outside the grant's transaction: the alert and its audit event stay when this refuses.
    _break_glass_within_limit(actor=actor)
    case = policy.break_glass_candidates(actor).filter(reference=reference.strip()).first()
    return _break_glass_grant(actor=actor, case=case, reason=reason, via="")


def break_glass_open_by_name(*, actor: User, name: str, reason: str) -> BreakGlassGrant:
    """Emergency access to the one case, outside the actor's scope, whose client has ``name``
    (found through the blind index): a duty worker taking a crisis call who does not know the
    reference. Refused when no case or more than one matches: then a supervisor must help."""
    if not policy.may_break_glass(actor):
        raise PermissionDenied
    _break_glass_within_limit(actor=actor)
    index = name_index_for(name)
    candidates = (
        policy.break_glass_candidates(actor)
        .filter(
            pk__in=Party.objects.filter(role=PartyRole.SURVIVOR, name_index=index).values("case_id")
        )
        .exclude(pk__in=policy.visible_cases(actor).values("pk"))
    )
    found = list(candidates[:2]) if index else []
    return _break_glass_grant(
        actor=actor,
        case=found[0] if len(found) == 1 else None,
        reason=reason,
        via="name",
    )


@transaction.atomic
def _break_glass_grant(*, actor: User, case: Case | None, reason: str, via: str) -> BreakGlassGrant:
    if case is None:
        raise BreakGlassRefused
    now = timezone.now()
    grant = BreakGlassGrant.objects.create(
        case=case,
        user=actor,
        reason=reason,
        granted_at=now,
        expires_at=now + dt.timedelta(minutes=settings.BREAK_GLASS_MINUTES),
    )
    notify(
        recipients=case_supervisors(case),
        kind="break_glass",
        case=case,
        key=f"break_glass:{grant.pk}",
        message=gettext_noop("Emergency access opened on case %(reference)s: please review it."),
        values={"reference": case.reference},
    )
    detail: dict = {"grant": grant.pk, "minutes": settings.BREAK_GLASS_MINUTES}
    if via:
        detail["found_by"] = via
    record(
        "break_glass.open",
        actor=actor,
        case=case,
        obj=grant,
        object_id=str(grant.pk),
        detail=detail,
    )
    return grant
