"""Logging a duty-line call, and taking it on: a new case, the survivor's earlier case, or an
existing case found by name.

Every write checks policy itself, runs in a transaction and writes one audit event holding ids
and codes only. An anonymous call is refused any personal data here (and by the database), not
only by the form.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import Team, User
from caseflow.audit.services import record
from caseflow.calls.models import (
    CASE_NEED_OF,
    ENCRYPTED_FIELDS,
    Call,
    CallerKind,
    CallNeed,
    CallResponse,
    SafetyConcern,
)
from caseflow.cases import journey
from caseflow.cases.models import Case
from caseflow.casework import needs as casework_needs
from caseflow.casework.models import Direction, NeedKind, NoteKind, Participant
from caseflow.casework.services import note_create
from caseflow.lib.i18n import gettext_lazy as _

#: How far back a call may be logged (a busy shift written up the next days), and ahead (clocks).
OLDEST = dt.timedelta(days=92)
AHEAD = dt.timedelta(minutes=5)
LONGEST_MINUTES = 24 * 60


class CallRefused(ValidationError):
    """The call cannot be kept as given; ``message_dict`` says which field and why."""


def _codes(values: Sequence[str], choices: type[models.TextChoices], field: str) -> list[str]:
    allowed = set(choices.values)
    unknown = [v for v in values if v not in allowed]
    if unknown:
        raise CallRefused({field: [_("Choose from the list.")]})
    # Kept in the catalogue's order, each once.
    return [v for v in choices.values if v in set(values)]


def _clean_text(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value or None


@transaction.atomic
def call_log(
    *,
    actor: User,
    caller_kind: str,
    taken_at: dt.datetime | None = None,
    duration_minutes: int | None = None,
    needs: Sequence[str] = (),
    safety_concerns: Sequence[str] = (),
    responses: Sequence[str] = (),
    follow_up_wanted: bool = False,
    caller_name: str | None = None,
    caller_phone: str | None = None,
    notes: str | None = None,
    safety_detail: str | None = None,
    follow_up_detail: str | None = None,
) -> Call:
    """Record a call taken on the duty line by ``actor``, for ``actor``'s agency.

    Raises :class:`CallRefused` for an anonymous call that carries a name, a phone, any free
    text or a follow-up, for a time in the future or too long ago, and for an unknown code."""
    agency_id = policy.agency_id_of(actor)
    if not policy.may_log_calls(actor) or agency_id is None:
        raise PermissionDenied
    if caller_kind not in CallerKind.values:
        raise CallRefused({"caller_kind": [_("Choose who called.")]})
    now = timezone.now()
    taken_at = taken_at or now
    if taken_at > now + AHEAD:
        raise CallRefused({"taken_at": [_("This time is in the future.")]})
    if taken_at < now - OLDEST:
        raise CallRefused(
            {"taken_at": [_("A call can be logged up to three months after it was taken.")]}
        )
    if duration_minutes is not None and not 0 <= duration_minutes <= LONGEST_MINUTES:
        raise CallRefused({"duration_minutes": [_("Give the length in minutes, up to a day.")]})
    texts = {
        "caller_name": _clean_text(caller_name),
        "caller_phone": _clean_text(caller_phone),
        "notes": _clean_text(notes),
        "safety_detail": _clean_text(safety_detail),
        "follow_up_detail": _clean_text(follow_up_detail),
    }
    if caller_kind == CallerKind.ANONYMOUS:
        given = sorted(name for name, value in texts.items() if value is not None)
        if follow_up_wanted:
            given.append("follow_up_wanted")
        if given:
            raise CallRefused(
                {
                    name: [
                        _(
                            "An anonymous call keeps nothing that could identify the caller: "
                            "leave this empty, or choose who called."
                        )
                    ]
                    for name in given
                }
            )
    call = Call(
        agency_id=agency_id,
        taken_at=taken_at,
        duration_minutes=duration_minutes,
        caller_kind=CallerKind(caller_kind),
        needs=_codes(needs, CallNeed, "needs"),
        safety_concerns=_codes(safety_concerns, SafetyConcern, "safety_concerns"),
        responses=_codes(responses, CallResponse, "responses"),
        follow_up_wanted=follow_up_wanted,
        logged_by=actor,
        **texts,
    )
    call.save()
    record(
        "call.create",
        actor=actor,
        obj=call,
        agency_id=call.agency_id,
        detail={
            "caller_kind": call.caller_kind,
            "needs": call.needs,
            "safety_concerns": call.safety_concerns,
            "responses": call.responses,
            "follow_up_wanted": call.follow_up_wanted,
            "fields": sorted(name for name, value in texts.items() if value is not None),
        },
    )
    return call


def _require_take_on(actor: User, call: Call) -> None:
    if not policy.may_take_on_call(actor, call):
        raise PermissionDenied


def _move_to_case(call: Call, case: Case) -> None:
    """Re-encrypt the call's content with ``case``'s key and drop the call's own key."""
    plain = {name: getattr(call, name) for name in ENCRYPTED_FIELDS}
    call.case = case
    call.wrapped_key = ""
    call.__dict__.pop("_data_key", None)
    for name, value in plain.items():
        setattr(call, name, value)


@transaction.atomic
def call_attach(*, actor: User, call: Call, case: Case) -> Call:
    """Put ``call`` on ``case`` (one the actor works): it shows on the case's timeline and is read
    from then on by whoever may read the case."""
    return _attach(actor=actor, call=call, case=case, opened=False)


def _attach(*, actor: User, call: Call, case: Case, opened: bool) -> Call:
    """Attach ``call`` to ``case``; ``opened`` says the case was opened (or taken up) from the
    call, which records ``call.open_case`` rather than ``call.attach``."""
    _require_take_on(actor, call)
    policy.require(actor, case, "edit")
    if case.agency_id != call.agency_id:
        raise PermissionDenied
    # Another tab, another colleague: the first one to take the call on wins.
    locked = Call.objects.select_for_update().get(pk=call.pk)
    if locked.case_id is not None:
        raise PermissionDenied
    _move_to_case(call, case)
    call.attached_at = timezone.now()
    call.attached_by = actor
    call.save()
    record(
        "call.open_case" if opened else "call.attach",
        actor=actor,
        case=case,
        obj=call,
        detail={"caller_kind": call.caller_kind},
    )
    return call


def _note_text(call: Call) -> str:
    parts = [p for p in (call.notes, call.safety_detail) if p]
    return "\n\n".join(parts) or str(_("Call taken on the duty line."))


def _carry(*, actor: User, call: Call, case: Case) -> None:
    """What the call recorded, onto the case: a dated note of the call, its needs (those the
    case does not already hold open) and, if wanted, a follow-up."""
    open_kinds = {n.kind for n in casework_needs.needs_for(case) if n.is_open}
    for code in call.needs:
        kind = CASE_NEED_OF.get(code)
        if kind is None or kind in open_kinds:
            continue
        casework_needs.need_create(
            actor=actor,
            case=case,
            kind=NeedKind(kind),
            identified_on=timezone.localdate(call.taken_at),
        )
        open_kinds.add(kind)
    follow_up_due = None
    if call.follow_up_wanted:
        follow_up_due = max(timezone.now(), call.taken_at) + dt.timedelta(days=1)
    note_create(
        actor=actor,
        case=case,
        kind=NoteKind.CALL,
        participants=[Participant.SURVIVOR] if call.caller_kind == CallerKind.SURVIVOR else [],
        direction=Direction.INCOMING,
        occurred_at=call.taken_at,
        duration_minutes=call.duration_minutes,
        text=_note_text(call),
        followup_due=follow_up_due,
        followup_details=call.follow_up_detail or "",
    )


@transaction.atomic
def call_open_case(
    *,
    actor: User,
    call: Call,
    team: Team,
    survivor: dict[str, Any],
    other_party: dict[str, Any] | None,
    summary: str = "",
    reference: str = "",
) -> Case:
    """Open a new case from ``call`` through the case's own intake (the conflict check runs and
    flags it, as at any intake), and carry what the call recorded onto it."""
    _require_take_on(actor, call)
    case = journey.case_open(
        actor=actor,
        team=team,
        survivor=survivor,
        other_party=other_party,
        summary=summary,
        reference=reference,
    )
    _attach(actor=actor, call=call, case=case, opened=True)
    _carry(actor=actor, call=call, case=case)
    return case


@transaction.atomic
def call_take_up_earlier(
    *,
    actor: User,
    call: Call,
    case: Case,
    summary: str = "",
    other_party: dict[str, Any] | None = None,
) -> Case:
    """The caller is the client of an earlier case the actor may reopen: reopen it (or carry on
    with it) as intake does, and carry what the call recorded onto it."""
    _require_take_on(actor, call)
    journey.reopen_from_intake(actor=actor, case=case, summary=summary, other_party=other_party)
    _attach(actor=actor, call=call, case=case, opened=True)
    _carry(actor=actor, call=call, case=case)
    return case
