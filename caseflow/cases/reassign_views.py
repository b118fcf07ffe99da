"""The supervisor's page for handing many open cases to a new primary advocate at once (see
:mod:`caseflow.cases.reassign`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.models import Role
from caseflow.accounts.reauth import require_recent_auth
from caseflow.audit.services import record
from caseflow.cases import reassign
from caseflow.cases.forms import ReassignFilterForm, ReassignForm
from caseflow.inbox.kinds import NOTIFICATION_WORDS
from caseflow.inbox.services import notify

HANDOVER_KIND = "handover"


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
def reassign_cases(request: AuthenticatedRequest) -> HttpResponse:
    """Choose cases of your teams by advocate, team and risk, then a new primary advocate."""
    if policy.active_role(request.user) != Role.SUPERVISOR:
        raise PermissionDenied
    advocates = policy.supervised_caseworkers(request.user)
    # Whoever was primary, active or not, can be picked to find their cases.
    current = reassign.reassignable_cases(request.user).values("primary_advocate")
    holders = (advocates | policy.agency_users(request.user).filter(pk__in=current)).distinct()
    filters = ReassignFilterForm(
        request.GET or None,
        advocates=holders.order_by("first_name", "last_name", "username"),
        teams=policy.supervised_teams(request.user),
    )
    chosen_filters = filters.cleaned_data if filters.is_valid() else {}
    if filters.is_bound and not filters.is_valid():
        cases = []  # the filters say what is wrong; nothing is offered until they are right
    else:
        cases = list(
            reassign.reassignable_cases(
                request.user,
                advocate=chosen_filters.get("advocate"),
                team=chosen_filters.get("team"),
                risk=chosen_filters.get("risk") or "",
            )[: reassign.MOST_AT_ONCE]
        )
    # A leaving advocate's cases are all ticked; otherwise the supervisor ticks each one.
    ticked = [c.public_id for c in cases] if chosen_filters.get("advocate") else []
    initial = {"cases": ticked}
    form = ReassignForm(request.POST or None, cases=cases, advocates=advocates, initial=initial)
    if request.method == "POST" and form.is_valid():
        wanted = set(form.cleaned_data["cases"])
        primary = form.cleaned_data["primary"]
        try:
            changed = reassign.cases_reassign(
                actor=request.user,
                cases=[c for c in cases if c.public_id in wanted],
                primary=primary,
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            if changed:
                notify(
                    recipients=[primary],
                    kind=HANDOVER_KIND,
                    case=None,
                    key=f"handover:{request.user.pk}:{int(timezone.now().timestamp())}",
                    text=str(NOTIFICATION_WORDS[HANDOVER_KIND]),
                    link=reverse("cases:list"),
                )
            messages.success(
                request,
                ngettext(
                    "%(count)s case handed over. Its survivor's safe ways to be contacted are "
                    "at the top of the case, and a first check-in is proposed in her safe "
                    "window where none was booked.",
                    "%(count)s cases handed over. Each survivor's safe ways to be contacted are "
                    "at the top of her case, and a first check-in is proposed in her safe "
                    "window where none was booked.",
                    changed,
                )
                % {"count": changed},
            )
            # Back to the same filters: what is left of that advocate's cases, if anything.
            return redirect(request.get_full_path())
    record(
        "case.list",
        actor=request.user,
        detail={"cases": [c.pk for c in cases]},
    )
    return render(
        request,
        "cases/reassign.html",
        {"filters": filters, "form": form, "count": len(cases)},
    )
