"""The community education page (a session form and the year's sessions) and the outcome
survey page (a survey form and the year's count), for the people who work cases."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.zones import agency_today
from caseflow.audit.services import record
from caseflow.community import selectors, services
from caseflow.community.forms import SessionForm, SurveyForm
from caseflow.community.models import Audience, SessionKind, SurveyService
from caseflow.lib.form_parts import errors_onto
from caseflow.lib.i18n import gettext_lazy as _

#: The last survey's day and service, kept so the next of a pile is quicker to enter.
LAST_SURVEY = "community_last_survey"


def _agency(request: AuthenticatedRequest):
    if not policy.records_community_work(request.user):
        raise PermissionDenied
    return request.user.membership.agency


def _year_start(today: dt.date) -> dt.date:
    """The first day of the federal year ``today`` is in (October to September), as FVPSA
    counts."""
    return dt.date(today.year if today.month >= 10 else today.year - 1, 10, 1)


@login_required
@require_http_methods(["GET", "POST"])
def education(request: AuthenticatedRequest) -> HttpResponse:
    agency = _agency(request)
    today = agency_today(agency)
    form = SessionForm(request.POST or None, initial={"held_on": today})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.session_record(
                actor=request.user,
                held_on=d["held_on"],
                kind=d["kind"],
                audience=d["audience"],
                participants=d["participants"],
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, _("Session recorded. Thank you."))
            return redirect("community:education")
    since = _year_start(today)
    sessions = selectors.recent_sessions(agency.pk, since)
    record("community.sessions_view", actor=request.user, detail={"sessions": len(sessions)})
    kinds, audiences = dict(SessionKind.choices), dict(Audience.choices)
    removable = selectors.removable_session_ids(request.user, sessions)
    rows = [
        {
            "public_id": s.public_id,
            "removable": s.pk in removable,
            "held_on": s.held_on,
            "kind": kinds.get(s.kind, ""),
            "audience": audiences.get(s.audience, ""),
            "participants": s.participants,
        }
        for s in sessions
    ]
    return render(
        request,
        "community/education.html",
        {"form": form, "rows": rows, "since": since},
    )


@login_required
@require_http_methods(["GET", "POST"])
def surveys(request: AuthenticatedRequest) -> HttpResponse:
    agency = _agency(request)
    today = agency_today(agency)
    last = request.session.get(LAST_SURVEY) or {}
    initial = {"returned_on": last.get("on") or today, "service": last.get("service")}
    form = SurveyForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.survey_record(
                actor=request.user,
                returned_on=d["returned_on"],
                service=d["service"],
                safety=d["safety"],
                resources=d["resources"],
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            request.session[LAST_SURVEY] = {
                "on": d["returned_on"].isoformat(),
                "service": d["service"],
            }
            messages.success(request, _("Survey counted. Thank you."))
            return redirect("community:surveys")
    since = _year_start(today)
    counts = selectors.surveys_by_service(agency.pk, since, today)
    rows = [(label, counts.get(code, 0)) for code, label in SurveyService.choices]
    return render(
        request,
        "community/surveys.html",
        {
            "form": form,
            "rows": rows,
            "since": since,
            "total": sum(counts.values()),
            "can_take_back": LAST_SURVEY in request.session,
        },
    )


@login_required
@require_http_methods(["POST"])
def session_remove(request: AuthenticatedRequest, session_id: str) -> HttpResponse:
    _agency(request)
    session = selectors.removable_session(request.user, session_id)
    if session is None:
        raise Http404
    services.session_remove(actor=request.user, session=session)
    messages.success(request, _("The session was removed."))
    return redirect("community:education")


@login_required
@require_http_methods(["POST"])
def survey_take_back(request: AuthenticatedRequest) -> HttpResponse:
    _agency(request)
    if services.survey_take_back(actor=request.user) is None:
        messages.info(
            request, _("There is no survey of yours from the last 30 minutes to take back.")
        )
    else:
        messages.success(request, _("The last survey you counted was taken back."))
    return redirect("community:surveys")
