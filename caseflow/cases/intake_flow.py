"""The steps of taking in a referral, shared by every page that opens a case.

A case is opened from the new-referral page and from a duty-line call. Both run the same steps
in the same order: the survivor's earlier case is offered first (taken up, or its team's
supervisors asked), then the conflict check, whose "open anyway" is its own button, then the
case is opened with the reference checked. What differs between the pages (how a case is
opened or taken up, the words said after, where asking leads) is an :class:`IntakeWay`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.audit.services import record
from caseflow.cases import journey, services
from caseflow.cases.fields import field_config
from caseflow.cases.forms import IntakeForm, offer_to_open_despite_conflict
from caseflow.cases.models import Case, PartyRole
from caseflow.lib.i18n import gettext_lazy as _

#: Opens the case from the valid form (``other_party`` already read from it).
OpenCase = Callable[[IntakeForm, dict | None], Case]
#: Takes up one of the actor's earlier cases with what the form says.
TakeUp = Callable[[Case, str, dict | None], None]


@dataclass(frozen=True)
class IntakeWay:
    """What differs between the places a case is opened from."""

    open_case: OpenCase
    take_up: TakeUp
    #: Said once the case is opened; ``%(reference)s`` is its reference.
    opened: str
    #: Said once an earlier case is taken up; ``%(reference)s`` is its reference.
    taken_up: str
    #: Said once the other team's supervisors are asked.
    asked: str
    #: Where the actor goes once the other team's supervisors are asked.
    after_asking: Callable[[], HttpResponse]


def intake_form(request: AuthenticatedRequest, *, initial: dict | None = None) -> IntakeForm:
    """The intake form for the teams the actor takes referrals for (none: 403)."""
    teams = policy.intake_teams(request.user)
    if not teams.exists():
        raise PermissionDenied
    form = IntakeForm(
        request.POST or None,
        teams=teams,
        field_config=field_config(request).settings,
        initial=initial or {},
    )
    form.helper.form_id = "intake-form"
    return form


def run_intake(
    request: AuthenticatedRequest, form: IntakeForm, way: IntakeWay
) -> HttpResponse | dict[str, Any]:
    """Run the intake's steps on a submitted form: a redirect once a case is opened, taken up or
    asked for; otherwise the page's context (the offer, the warning, the form's errors)."""
    intake_fields = field_config(request).settings
    check = None
    earlier = None
    if request.method == "POST" and form.is_valid():
        other = form.other_party()
        agency_id = form.cleaned_data["team"].agency_id
        survivor_dob = _iso(form.cleaned_data.get("survivor_date_of_birth"))
        # Is this survivor already known to the agency? Offer their earlier case before a new one.
        earlier = journey.earlier_cases(
            actor=request.user,
            agency_id=agency_id,
            full_name=form.cleaned_data["survivor_full_name"],
            date_of_birth=survivor_dob,
        )
        chosen = _earlier_case_choice(request, form, earlier, other, way)
        if chosen is not None:
            return chosen
        people = [(PartyRole.SURVIVOR, form.cleaned_data["survivor_full_name"], survivor_dob)]
        if other:
            people.append((PartyRole.OTHER_PARTY, other["full_name"], _iso(other["date_of_birth"])))
        check = services.conflict_check(agency_id=agency_id, people=people)
        if earlier and "new_anyway" not in request.POST:
            # Offered, not yet chosen: nothing is opened until the advocate says which.
            record(
                "intake.earlier_case",
                actor=request.user,
                detail={
                    "choice": "offered",
                    "cases": [c.pk for c in earlier.yours],
                    "elsewhere": len(earlier.elsewhere),
                },
            )
            check = None
        # Going on despite a possible conflict is its own button, never the one that found it.
        elif check.found and "despite_conflict" not in request.POST:
            record("case.conflict_warning", actor=request.user)
        else:
            try:
                with transaction.atomic():
                    case = way.open_case(form, other)
                    if earlier:
                        record(
                            "intake.earlier_case",
                            actor=request.user,
                            case=case,
                            obj=case,
                            detail={
                                "choice": "new_case",
                                "cases": [c.pk for c in earlier.yours],
                                "elsewhere": len(earlier.elsewhere),
                            },
                        )
            except IntegrityError:
                form.add_error("reference", _("Another case already has this reference."))
            else:
                if case.conflict_flag:
                    messages.warning(
                        request,
                        _(
                            "Opened despite a possible conflict: the case is flagged and your "
                            "supervisor has been told."
                        ),
                    )
                if check.name_only:
                    messages.info(request, _name_only_message(check, intake_fields))
                messages.success(request, way.opened % {"reference": case.reference})
                return redirect("cases:detail", case.public_id)
    if check is not None and check.found:
        offer_to_open_despite_conflict(form)
    offer = bool(earlier) and "new_anyway" not in request.POST
    if offer:
        form.helper.inputs = []  # type: ignore[attr-defined]
    return {
        "form": form,
        "conflict": check is not None and check.found,
        "name_only": _name_only_message(check, intake_fields) if check else "",
        "earlier": earlier if offer else None,
        "new_anyway": "new_anyway" in request.POST,
    }


def _earlier_case_choice(
    request: AuthenticatedRequest, form: IntakeForm, earlier, other: dict | None, way: IntakeWay
) -> HttpResponse | None:
    """The actor chose the survivor's earlier case: take it up (theirs to take up), or ask the
    supervisors of the team that holds it. ``None`` when they chose neither."""
    if not earlier:
        return None
    wanted = request.POST.get("reopen", "")
    if wanted:
        case = next((c for c in earlier.yours if c.public_id == wanted), None)
        if case is None:
            form.add_error(None, gettext("That case cannot be reopened from here."))
            return None
        way.take_up(case, form.cleaned_data.get("summary", ""), other)
        messages.success(request, way.taken_up % {"reference": case.reference})
        return redirect("cases:detail", case.public_id)
    if "ask_reopen" in request.POST and earlier.elsewhere:
        journey.reopen_request_create(
            actor=request.user,
            case_ids=earlier.elsewhere,
            note=form.cleaned_data.get("summary", ""),
        )
        record(
            "intake.earlier_case",
            actor=request.user,
            detail={"choice": "asked_supervisor", "elsewhere": len(earlier.elsewhere)},
        )
        messages.success(request, way.asked)
        return way.after_asking()
    return None


def _name_only_message(check: services.ConflictCheck, intake_fields: dict) -> str:
    """Why the conflict check compared names only, in words (empty if it did not)."""
    if not check.name_only:
        return ""
    not_collected = [
        field
        for field in ("survivor_date_of_birth", "other_date_of_birth")
        if intake_fields.get(field, {}).get("hidden")
    ]
    if not_collected:
        return str(
            _(
                "The conflict check compared names only, because your agency does not collect "
                "dates of birth. It may miss someone whose name is written differently, and may "
                "match people who only share a name."
            )
        )
    return str(
        _(
            "The conflict check compared names only, because no date of birth was given. It may "
            "miss someone whose name is written differently, and may match people who only share "
            "a name."
        )
    )


def _iso(value) -> str | None:
    return value.isoformat() if value else None
