"""Recording her own rating on a case (from a check-in, a note, or on its own), and the agency
admin's choice of questions. Each case view resolves the case through policy (``case_page``),
binds the form, calls a service and redirects."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.lib.form_parts import errors_onto
from caseflow.wellbeing import selectors, services
from caseflow.wellbeing.forms import PREFIX, QuestionSetForm, RatingForm
from caseflow.wellbeing.questions import QUESTIONS


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def rating_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """Her answers now, taken at the check-in or with the note named in the query string."""
    asked = selectors.question_set(case.agency_id)
    source = request.POST if request.method == "POST" else request.GET
    form = RatingForm(
        request.POST or None,
        questions=asked.questions,
        ask_words=asked.ask_words,
        initial={"checkin": source.get("checkin", ""), "note": source.get("note", "")},
    )
    checkin = note = None
    checkin_id, note_id = source.get("checkin", ""), source.get("note", "")
    if checkin_id:
        checkin = selectors.checkin_on(case, checkin_id)
    if note_id:
        note = selectors.note_on(case, note_id)
    missing = (checkin_id and checkin is None) or (note_id and note is None)
    if request.method == "POST" and form.is_valid():
        if missing:
            form.add_error(None, _("That check-in or note is not on this case. Nothing was saved."))
        else:
            try:
                services.rating_record(
                    actor=request.user,
                    case=case,
                    answers=form.answers(),
                    words=form.cleaned_data.get("words", ""),
                    checkin=checkin,
                    note=note,
                )
            except ValidationError as exc:
                errors_onto(form, exc, field_prefix=PREFIX)
            else:
                messages.success(request, _("Her rating is recorded."))
                return redirect("cases:detail", case.public_id)
    return render(
        request,
        "wellbeing/rating_form.html",
        {"case": case, "form": form, "checkin": checkin, "note": note},
    )


@login_required
@require_http_methods(["GET", "POST"])
def question_settings(request: AuthenticatedRequest) -> HttpResponse:
    """The agency admin chooses the questions of her own rating."""
    agency_id = policy.agency_id_of(request.user)
    if not policy.is_agency_admin(request.user) or agency_id is None:
        raise PermissionDenied
    current = selectors.question_set(agency_id)
    form = QuestionSetForm(
        request.POST or None,
        initial={
            "preset": current.preset,
            "off": list(current.off or []),
            "ask_words": current.ask_words,
        },
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.question_set_save(
                actor=request.user,
                preset=d["preset"],
                off=list(d["off"]),
                ask_words=d["ask_words"],
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, _("The questions are saved."))
            return redirect("wellbeing:settings")
    return render(
        request,
        "wellbeing/settings.html",
        {"form": form, "current": current.questions, "all_questions": QUESTIONS.values()},
    )
