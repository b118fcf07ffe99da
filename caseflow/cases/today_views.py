"""The home page: the member of staff's open cases and their today queue (the queue itself, and
how each feature adds to it, is :mod:`caseflow.cases.today`)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.models import Role
from caseflow.accounts.overview import settings_overview
from caseflow.audit.services import record
from caseflow.cases import audit_start, decisions, selectors, today
from caseflow.cases.forms import QueueFilterForm
from caseflow.cases.selectors import supervisor_overview
from caseflow.lib.i18n import gettext_lazy as _


@login_required
@require_http_methods(["GET"])
def dashboard(request: AuthenticatedRequest) -> HttpResponse:
    role = policy.active_role(request.user)
    context: dict = {"role": role}
    if role == Role.ADVOCATE or role == Role.SUPERVISOR:
        mine = list(selectors.my_open_cases(request.user))
        context["cases"] = mine
        shown = list(mine)
        if role == Role.SUPERVISOR:
            # The teams' open cases, by the supervisor's ids: each queue source's SQL is
            # compiled once per process for a supervisor's teams.
            scope = today.team_scope(request.user)
            context.update(supervisor_overview(request.user))
            context["decisions"] = decisions.decisions_waiting(request.user)
            context["decisions_total"] = decisions.waiting_count(context["decisions"])
            shown += context["unassigned"]
        else:
            # The cases just listed, by id: each queue source's query then carries their ids
            # instead of building the policy's scope again (its SQL compiled once per process
            # for that number of cases).
            scope = today.listed_scope(request.user, [c.pk for c in mine], own_only=True)
        queue = today.queue(scope)
        context["queue"] = queue
        context["queue_groups"] = [
            ("overdue", _("Overdue"), queue.overdue),
            ("today", _("Due today"), queue.today),
            ("recent", _("Just done"), queue.recent),
        ]
        context["staff_zone"] = today.staff_zone().key
        if role == Role.SUPERVISOR:
            _overdue_per_person(context["per_advocate"], queue)
            context.update(_team_queue(request, queue, context["per_advocate"]))
        # The read covers the cases listed and those the queue names.
        listed = {c.pk for c in shown} | queue.case_ids
        record("dashboard.view", actor=request.user, detail={"cases": sorted(listed)})
    elif role == Role.AUDITOR:
        # The auditor starts with what waits in the trail, counted (no case content).
        context["starts"] = audit_start.where_to_start(request.user)
    elif role == Role.AGENCY_ADMIN:
        # The admin's real work is the agency's settings: they start the home page.
        context.update(settings_overview(request.user.membership.agency))
    elif role is None:
        # A coalition's person starts with the roll-ups (counts only).
        context["coalition"] = policy.coalition_of(request.user)
    return render(request, "cases/dashboard.html", context)


def _team_queue(request: AuthenticatedRequest, queue: today.Queue, people: list) -> dict:
    """The supervisor's queue by person then kind, with its filter form (GET)."""
    form = QueueFilterForm(
        request.GET or None,
        owners=[(str(p.pk), p.get_full_name() or p.username) for p in people],
        choices=today.kinds_listed(queue),
    )
    filters: dict = {}
    if form.is_bound and form.is_valid():
        filters = {
            "owner_id": form.cleaned_data["staff"] or 0,
            "kind": form.cleaned_data["kind"],
            "overdue_only": form.cleaned_data["overdue"],
        }
    return {
        "queue_filter": form,
        "queue_filtered": bool(filters and any(filters.values())),
        "queue_people": today.grouped(queue, **filters),
    }


def _overdue_per_person(people: list, queue: today.Queue) -> None:
    """How many overdue items each person of the supervisor's teams has (for their table)."""
    counts: dict[str, int] = {}
    for item in queue.overdue:
        counts[item.owner] = counts.get(item.owner, 0) + item.count
    for person in people:
        person.overdue = counts.get(person.get_full_name() or person.username, 0)
