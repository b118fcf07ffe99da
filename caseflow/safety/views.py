"""Safety-plan and risk-assessment pages. Each view resolves the case through policy, binds a form,
calls a service and redirects; every read of plan or assessment content is audited here."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.audit.services import record
from caseflow.cases.drafts import keep_drafts
from caseflow.cases.fields import field_config
from caseflow.cases.language import survivor_interface_language
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.lib.form_parts import errors_onto
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety import hard_dates, sections, selectors, services
from caseflow.safety.forms import (
    NEUTRAL_TITLE,
    ORDER_SLOTS,
    AssessmentForm,
    DiffForm,
    HardDateForm,
    PlanForm,
    PrintForm,
    ReviewForm,
)


@login_required
@require_GET
@case_page("view")
def plan_detail(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    plan = services.plan_of(case)
    content = services.plan_content(plan)
    versions = list(services.plan_versions(plan)) if plan else []
    record(
        "plan.view",
        actor=request.user,
        case=case,
        obj=plan or case,
        detail={"version": plan.version if plan else 0},
    )
    return render(
        request,
        "safety/plan_detail.html",
        {
            "case": case,
            "plan": plan,
            "plan_sections": sections.display(content) if plan else [],
            "versions": versions,
            "review_form": ReviewForm(),
            "can_edit": policy.may(request.user, case, "edit"),
            "hard_dates": hard_dates.upcoming(case, timezone.localdate()),
            "hard_date_words": hard_dates.words_setting(case),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def plan_edit(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    plan = services.plan_of(case)
    content = services.plan_content(plan)
    slots = max(ORDER_SLOTS, len(content["protective_orders"]) + 1)
    initial = PlanForm.initial_for(content, plan.version if plan else 0)
    form = PlanForm(request.POST or None, initial=initial, order_slots=slots)
    keep_drafts(form, case, "safety-plan")
    stale = None
    if request.method == "POST" and form.is_valid():
        opened = form.cleaned_data["version"]
        try:
            with transaction.atomic():
                services.plan_save(
                    actor=request.user,
                    case=case,
                    expected_version=opened,
                    content=form.content(),
                )
        except services.StalePlan as exc:
            stale = {"opened": opened, "current": exc.current_version}
            form.add_error(None, exc.message)
        except ValidationError as exc:
            form.add_error(None, exc.messages)
        else:
            messages.success(request, _("Safety plan saved as a new version."))
            return redirect("safety:plan", case.public_id)
    if request.method == "GET":
        record(
            "plan.view",
            actor=request.user,
            case=case,
            obj=plan or case,
            detail={"page": "edit", "version": plan.version if plan else 0},
        )
    return render(
        request,
        "safety/plan_form.html",
        {"form": form, "case": case, "plan": plan, "stale": stale},
        status=409 if stale else 200,
    )


@login_required
@require_GET
@case_page("view")
def plan_version(request: AuthenticatedRequest, case: Case, number: int) -> HttpResponse:
    plan = services.plan_of(case)
    version = services.plan_version(plan, number) if plan else None
    if version is None:
        raise Http404(_("No such version"))
    record("plan.view", actor=request.user, case=case, obj=plan, detail={"version": number})
    return render(
        request,
        "safety/plan_version.html",
        {
            "case": case,
            "plan": plan,
            "version": version,
            "plan_sections": sections.display(version.content),
        },
    )


@login_required
@require_GET
@case_page("view")
def plan_diff(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    plan = services.plan_of(case)
    latest = plan.version if plan else 0
    data = request.GET if request.GET else {"a": max(latest - 1, 1), "b": max(latest, 1)}
    form = DiffForm(data)
    context: dict[str, object] = {"case": case, "plan": plan, "form": form, "diff": None}
    if plan is not None and (request.GET or latest >= 2) and form.is_valid():
        a, b = form.cleaned_data["a"], form.cleaned_data["b"]
        old, new = services.plan_version(plan, a), services.plan_version(plan, b)
        if old is None or new is None:
            raise Http404(_("No such version"))
        context.update(
            a=a,
            b=b,
            old=old,
            new=new,
            diff=sections.diff(old.content, new.content),
        )
        record(
            "plan.diff.view", actor=request.user, case=case, obj=plan, detail={"versions": [a, b]}
        )
    else:
        record("case.view", actor=request.user, case=case, obj=case, detail={"page": "plan_diff"})
    return render(request, "safety/plan_diff.html", context)


@login_required
@require_POST
@case_page("edit")
def plan_review(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = ReviewForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect("safety:plan", case.public_id)
    try:
        with transaction.atomic():
            plan = services.plan_mark_reviewed(
                actor=request.user,
                case=case,
                review_by=form.cleaned_data["review_by"],
            )
    except ValidationError as exc:
        messages.error(request, exc.messages[0])
    else:
        messages.success(
            request,
            _("Review recorded. Next review by %(date)s.")
            % {"date": date_format(plan.review_by) if plan.review_by else ""},
        )
    return redirect("safety:plan", case.public_id)


def _neutral_titles() -> set[str]:
    """The neutral title in every language of the interface: left as it was, it is not a
    title of the advocate's choosing, and the paper gets it in its own language."""
    titles = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            titles.add(str(NEUTRAL_TITLE))
    return titles


def _printed_sections(content, omit, language: str) -> list:
    with translation.override(language):
        return [
            {**s, "label": str(s["label"])}
            for s in sections.display(content, omit)
            if not s["empty"]
        ]


@login_required
@require_GET
@case_page("view")
def plan_print(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    plan = services.plan_of(case)
    survivor_language = survivor_interface_language(case) or ""
    form = PrintForm(
        request.GET or None, initial={"title": NEUTRAL_TITLE, "language": survivor_language}
    )
    valid = form.is_valid()
    omit = form.cleaned_data["omit"] if valid else []
    typed = form.cleaned_data["title"].strip() if valid else ""
    # The paper's headings in the survivor's language (their first one caseflow speaks), unless
    # the advocate chose otherwise; the advocate's own text is printed as written.
    chosen = form.cleaned_data.get("language") if valid else None
    print_language = (
        (chosen if valid and "language" in request.GET else survivor_language)
        or translation.get_language()
        or settings.LANGUAGE_CODE
    )
    title = typed if typed and typed not in _neutral_titles() else ""
    if not title:
        # The neutral title in the paper's language.
        with translation.override(print_language):
            title = str(NEUTRAL_TITLE)
    content = services.plan_content(plan)
    record(
        "plan.print",
        actor=request.user,
        case=case,
        obj=plan or case,
        detail={"version": plan.version if plan else 0, "omitted": sorted(omit)},
    )
    return render(
        request,
        "safety/plan_print.html",
        {
            "case": case,
            "plan": plan,
            "form": form,
            "title": title,
            "print_language": print_language,
            "printing": True,
            # Paper carries only what was written: an empty section is left out.
            "plan_sections": _printed_sections(content, omit, print_language) if plan else [],
        },
    )


# --- risk assessments ----------------------------------------------------------------------------


@login_required
@require_GET
@case_page("view")
def assessment_list(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    assessments = list(services.assessments_of(case))
    record(
        "risk.view",
        actor=request.user,
        case=case,
        obj=case,
        detail={"page": "list", "assessments": [a.public_id for a in assessments]},
    )
    return render(
        request,
        "safety/assessment_list.html",
        {
            "case": case,
            "assessments": assessments,
            "instruments": services.instruments_for(case.agency_id),
            "can_edit": policy.may(request.user, case, "edit"),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def assessment_new(request: AuthenticatedRequest, case: Case, instrument_id: int) -> HttpResponse:
    row = services.instrument_for_case(case, instrument_id)
    if row is None:
        raise Http404(_("No such instrument"))
    form = AssessmentForm(request.POST or None, instrument=row.instrument())
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                assessment = services.assessment_record(
                    actor=request.user,
                    case=case,
                    instrument=row,
                    answers=form.answers(),
                    override_band=form.cleaned_data["override_band"],
                    override_reason=form.cleaned_data["override_reason"],
                    words=form.words(),
                )
        except ValidationError as exc:
            form.add_error(None, exc.messages)
        else:
            messages.success(
                request,
                _("Assessment saved: %(band)s risk.")
                % {"band": assessment.get_effective_band_display()},
            )
            return redirect(
                reverse("safety:assessment", args=[case.public_id, assessment.public_id])
            )
    if request.method == "GET":
        record(
            "case.view", actor=request.user, case=case, obj=case, detail={"page": "assessment_new"}
        )
    return render(
        request,
        "safety/assessment_form.html",
        {"form": form, "case": case, "instrument": row},
    )


@login_required
@require_GET
@case_page("view")
def assessment_detail(
    request: AuthenticatedRequest, case: Case, assessment_id: str
) -> HttpResponse:
    assessment = services.assessment_of(case, assessment_id)
    if assessment is None:
        raise Http404(_("No such assessment"))
    definition = assessment.instrument.instrument()
    answers = assessment.answers or {}
    labels: dict[object, str] = {True: gettext("Yes"), False: gettext("No")}
    words = answers.get(services.WORDS_KEY) or {}
    items = [
        {
            "item": item,
            "answer": labels.get(answers.get(item.id), gettext("Not answered")),
            "words": words.get(item.id, ""),
        }
        for item in definition.items
    ]
    record("risk.view", actor=request.user, case=case, obj=assessment, detail={"page": "detail"})
    return render(
        request,
        "safety/assessment_detail.html",
        {"case": case, "assessment": assessment, "items": items, "instrument": definition},
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def hard_date_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = HardDateForm(
        request.POST or None, field_config=field_config(request, case).for_kind("hard_date")
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.hard_date_add(
                actor=request.user,
                case=case,
                kind=d["kind"],
                words=d.get("words", ""),
                day=d["day"],
                yearly=d["yearly"],
                support_days_before=d["support_days_before"],
            )
        except ValidationError as exc:
            errors_onto(form, exc)
        else:
            messages.success(request, gettext("Hard date added."))
            # The check-ins proposed before it, in her safe window, to confirm.
            return redirect("checkins:proposals", case.public_id)
    return render(request, "safety/hard_date_form.html", {"case": case, "form": form})


@login_required
@require_POST
@case_page("edit")
def hard_date_remove(request: AuthenticatedRequest, case: Case, hard_date_id: str) -> HttpResponse:
    hard_date = selectors.hard_date_get(case, hard_date_id)
    services.hard_date_remove(actor=request.user, hard_date=hard_date)
    messages.success(request, gettext("Hard date taken off the plan."))
    return redirect("safety:plan", case.public_id)
