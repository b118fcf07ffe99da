"""Risk meeting, referral and demographics pages of a case, and the agency admin's risk meeting
settings. Each case view resolves the case through policy (``case_page``), looks the record up
inside that case, calls a service and redirects; reads of a record are audited here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.audit.services import record
from caseflow.cases.fields import field_config
from caseflow.cases.models import Case
from caseflow.cases.pages import case_page
from caseflow.partners import hud, selectors, services
from caseflow.partners.forms import (
    ActionForm,
    ActionStatusForm,
    DemographicsForm,
    HudAnswersForm,
    HudProjectForm,
    MeetingReferralForm,
    MeetingUpdateForm,
    PartnerSettingsForm,
    ReferralForm,
    ReferralStateForm,
)
from caseflow.partners.models import (
    QUESTIONS,
    STATE_MOVES,
    answer_label,
)
from caseflow.partners.needs import need_choices, needs_for

_releases = selectors.case_releases
_release = selectors.release_of
_meeting = selectors.meeting_get
_referral = selectors.referral_get


def _owners(case: Case) -> list[tuple[str, str]]:
    return [
        (str(u.pk), u.get_full_name() or u.username) for u in services.action_owners(case)[:200]
    ]


# --- Risk meetings ------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def meeting_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    settings_row = services.partner_settings(case.agency_id)
    high = services.latest_band_is_high(case)
    form = MeetingReferralForm(
        request.POST or None,
        releases=_releases(case),
        initial={
            "route": "assessment" if high else "judgement",
            "basis": "release",
            "referred_on": timezone.localdate(),
        },
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            referral = services.meeting_refer(
                actor=request.user,
                case=case,
                route=d["route"],
                reason=d["reason"],
                basis=d["basis"],
                release=_release(case, d["release"]),
                categories=d["categories"],
                referred_on=d["referred_on"],
                meeting_on=d["meeting_on"],
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Referred to the risk meeting."))
            return redirect("partners:meeting", case.public_id, referral.public_id)
    return render(
        request,
        "partners/meeting_new.html",
        {
            "case": case,
            "form": form,
            "meeting_name": settings_row.meeting_name,
            "has_lawful_basis": bool(settings_row.lawful_basis),
            "high": high,
        },
    )


@login_required
@require_http_methods(["GET"])
@case_page("view")
def meeting_detail(request: AuthenticatedRequest, case: Case, referral_id: str) -> HttpResponse:
    referral = _meeting(case, referral_id)
    record("meeting.view", actor=request.user, case=case, obj=referral)
    actions = selectors.meeting_actions(case, referral)
    today = timezone.localdate()
    for action in actions:
        action.overdue = action.status == "open" and action.due_on < today  # type: ignore[attr-defined]
    return render(
        request,
        "partners/meeting_detail.html",
        {
            "case": case,
            "referral": referral,
            "actions": actions,
            "can_edit": policy.may(request.user, case, "edit"),
            "status_form": ActionStatusForm(),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def meeting_change(request: AuthenticatedRequest, case: Case, referral_id: str) -> HttpResponse:
    referral = _meeting(case, referral_id)
    form = MeetingUpdateForm(
        request.POST or None,
        initial={"meeting_on": referral.meeting_on, "outcome": referral.outcome},
    )
    if request.method == "POST" and form.is_valid():
        services.meeting_update(
            actor=request.user,
            referral=referral,
            meeting_on=form.cleaned_data["meeting_on"],
            outcome=form.cleaned_data["outcome"],
        )
        messages.success(request, _("Meeting saved."))
        return redirect("partners:meeting", case.public_id, referral.public_id)
    return render(
        request,
        "partners/form.html",
        {"case": case, "form": form, "title": _("The meeting and its outcome")},
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def action_new(request: AuthenticatedRequest, case: Case, referral_id: str) -> HttpResponse:
    referral = _meeting(case, referral_id)
    owners = _owners(case)
    form = ActionForm(request.POST or None, owners=owners)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        owner = services.action_owners(case).filter(pk=d["owner"]).first() if d["owner"] else None
        try:
            services.action_add(
                actor=request.user,
                referral=referral,
                text=d["text"],
                owner=owner,
                owner_agency=d["owner_agency"],
                due_on=d["due_on"],
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Action recorded."))
            return redirect("partners:meeting", case.public_id, referral.public_id)
    return render(
        request,
        "partners/form.html",
        {"case": case, "form": form, "title": _("An action the meeting agreed")},
    )


@login_required
@require_POST
@case_page("edit")
def action_status(request: AuthenticatedRequest, case: Case, referral_id: str) -> HttpResponse:
    referral = _meeting(case, referral_id)
    form = ActionStatusForm(request.POST)
    if form.is_valid():
        action = selectors.action_get(case, referral, form.cleaned_data["action"])
        services.action_set_status(
            actor=request.user, action=action, status=form.cleaned_data["status"]
        )
        messages.success(request, _("Action updated."))
    else:
        messages.error(request, _("Choose a status for the action."))
    return redirect("partners:meeting", case.public_id, referral.public_id)


# --- Referrals to and from other services -------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def referral_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = ReferralForm(
        request.POST or None,
        releases=_releases(case),
        needs=need_choices(case),
        initial={"direction": "out", "sent_on": timezone.localdate()},
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            referral = services.referral_create(
                actor=request.user,
                case=case,
                direction=d["direction"],
                service_type=d["service_type"],
                organisation=d["organisation"],
                details=d["details"],
                sent_on=d["sent_on"],
                respond_by=d["respond_by"],
                release=_release(case, d["release"]),
                needs=needs_for(case, d.get("needs", [])),
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Referral recorded."))
            return redirect("partners:referral", case.public_id, referral.public_id)
    return render(
        request,
        "partners/form.html",
        {"case": case, "form": form, "title": _("A referral to or from another service")},
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("view")
def referral_detail(request: AuthenticatedRequest, case: Case, referral_id: str) -> HttpResponse:
    referral = _referral(case, referral_id)
    can_edit = policy.may(request.user, case, "edit")
    allowed = STATE_MOVES.get(referral.state, set())
    form = None
    if can_edit and allowed:
        form = ReferralStateForm(
            request.POST or None,
            allowed=allowed,
            initial={"on": timezone.localdate(), "version": referral.version},
        )
    if request.method == "POST":
        if form is None:
            raise PermissionDenied
        if form.is_valid():
            try:
                services.referral_set_state(
                    actor=request.user,
                    referral=referral,
                    state=form.cleaned_data["state"],
                    on=form.cleaned_data["on"],
                    expected_version=form.cleaned_data["version"],
                )
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, _("Referral updated."))
                return redirect("partners:referral", case.public_id, referral.public_id)
    else:
        record("referral.view", actor=request.user, case=case, obj=referral)
    return render(
        request,
        "partners/referral_detail.html",
        {
            "case": case,
            "referral": referral,
            "form": form,
            "needs": [str(n) for n in referral.needs.all()],
        },
    )


# --- Demographics -------------------------------------------------------------------------------


def _answers_saved(
    request: AuthenticatedRequest, form: Any, case: Case, save: Callable[[], object]
) -> HttpResponse | None:
    """Save a survivor's answers with ``save``: back to the case once saved, or None with the
    refusal on the form (someone else's change, an answer outside the lists)."""
    try:
        save()
    except ValidationError as exc:
        form.add_error(None, exc)
        return None
    messages.success(request, _("Answers saved."))
    return redirect("cases:detail", case.public_id)


@login_required
@require_http_methods(["GET", "POST"])
@case_page("view")
def demographics(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    row = services.demographics_of(case)
    if row is None:
        raise Http404
    fields = field_config(request, case).for_kind("demographics")
    can_edit = policy.may(request.user, case, "edit")
    initial: dict[str, Any] = {name: getattr(row, name) for name in QUESTIONS}
    initial["version"] = row.version
    form = DemographicsForm(request.POST or None, fields=fields, initial=initial)
    if request.method == "POST":
        if not can_edit:
            raise PermissionDenied
        if form.is_valid():
            values = {k: v for k, v in form.cleaned_data.items() if k in QUESTIONS}
            saved = _answers_saved(
                request,
                form,
                case,
                lambda: services.demographics_save(
                    actor=request.user,
                    case=case,
                    values=values,
                    expected_version=form.cleaned_data["version"],
                ),
            )
            if saved is not None:
                return saved
    else:
        record("demographics.view", actor=request.user, case=case, obj=case)
    shown = [
        (fields.get(name, {}).get("label") or label, answer_label(name, getattr(row, name)))
        for name, (label, _choices) in QUESTIONS.items()
        if not fields.get(name, {}).get("hidden")
    ]
    return render(
        request,
        "partners/demographics.html",
        {"case": case, "form": form if can_edit else None, "shown": shown},
    )


# --- HUD entry and exit answers ------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@case_page("view")
def hud_answers(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """The HUD entry and exit answers of the case's current episode: not found for an agency
    that does not ask them (the section is hidden until the agency shows it)."""
    if not services.hud_collected(case.agency_id):
        raise Http404
    row = services.hud_answers_of(case)
    if row is None:
        raise Http404
    can_edit = policy.may(request.user, case, "edit")
    form = HudAnswersForm(request.POST or None, initial={**row.answers, "version": row.version})
    if request.method == "POST":
        if not can_edit:
            raise PermissionDenied
        if form.is_valid():
            saved = _answers_saved(
                request,
                form,
                case,
                lambda: services.hud_answers_save(
                    actor=request.user,
                    case=case,
                    values=form.answers(),
                    expected_version=form.cleaned_data["version"],
                    new_assessment=bool(form.cleaned_data.get("new_assessment")),
                ),
            )
            if saved is not None:
                return saved
    else:
        record("hud_answers.view", actor=request.user, case=case, obj=case)
    title = field_config(request, case).for_kind("hud").get("answers", {}).get("label")
    return render(
        request,
        "partners/hud_answers.html",
        {
            "case": case,
            "title": title or _("HUD entry and exit"),
            "form": form if can_edit else None,
            "shown": hud.shown(row.answers),
            "earlier": hud.earlier_shown(row.answers),
            "episode": row.episode,
        },
    )


# --- The agency's settings ----------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def hud_project(request: AuthenticatedRequest) -> HttpResponse:
    """The agency's project as HUD knows it: what the HUD report prints first (Q4a)."""
    if not policy.is_agency_admin(request.user):
        raise PermissionDenied
    row = services.hud_project(policy.agency_id_of(request.user))
    form = HudProjectForm(request.POST or None, instance=row)
    if request.method == "POST" and form.is_valid():
        services.hud_project_save(actor=request.user, values=form.cleaned_data)
        messages.success(request, _("Settings saved."))
        return redirect("partners:hud_project")
    if request.method == "GET":
        record("partners.hud_project.view", actor=request.user)
    return render(request, "partners/hud_project.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def partner_settings(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.is_agency_admin(request.user):
        raise PermissionDenied
    row = services.partner_settings(policy.agency_id_of(request.user))
    form = PartnerSettingsForm(
        request.POST or None,
        initial={"meeting_name": row.meeting_name, "lawful_basis": row.lawful_basis},
    )
    if request.method == "POST" and form.is_valid():
        services.settings_save(
            actor=request.user,
            meeting_name=form.cleaned_data["meeting_name"].strip(),
            lawful_basis=form.cleaned_data["lawful_basis"].strip(),
        )
        messages.success(request, _("Settings saved."))
        return redirect("partners:settings")
    if request.method == "GET":
        record("partners.settings.view", actor=request.user)
    return render(
        request,
        "partners/settings.html",
        {"form": form, "recorded_at": row.lawful_basis_recorded_at},
    )
