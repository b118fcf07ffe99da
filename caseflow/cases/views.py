"""Case pages. Each view: resolve the case through policy → bind the form → call a service →
redirect. Reads of case content are audited here, in the request's transaction."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.models import AdvocateTitle, advocate_title
from caseflow.accounts.reauth import require_recent_auth
from caseflow.audit.services import record
from caseflow.cases import (
    contact,
    drafts,
    features,
    journey,
    selectors,
    services,
    timeline,
    today,
)
from caseflow.cases.fields import field_config
from caseflow.cases.forms import (
    AssignForm,
    BreakGlassForm,
    CaseEditForm,
    EmergencyByNameForm,
    IntakeForm,
    NameSearchForm,
    PartyForm,
    RestrictForm,
    SearchForm,
    StatusForm,
    TimelineFilterForm,
)
from caseflow.cases.intake_flow import IntakeWay, intake_form, run_intake
from caseflow.cases.language import split_languages
from caseflow.cases.models import STATUS_TRANSITIONS, Case, CaseStatus, Party, PartyRole
from caseflow.cases.pages import case_page
from caseflow.cases.panels import panel_facts, remember_facts, render_sections
from caseflow.cases.selectors import case_rows
from caseflow.lib import weekly_windows
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.i18n import gettext_lazy as _

PAGE_SIZE = 50


def _audit_list(request: HttpRequest, action: str, cases) -> None:
    record(action, actor=request.user, detail={"cases": [c.pk for c in cases]})


@login_required
@require_http_methods(["GET"])
def case_list(request: AuthenticatedRequest) -> HttpResponse:
    if policy.active_role(request.user) not in policy.CASEWORK_ROLES:
        raise PermissionDenied
    form = SearchForm(request.GET or None)
    status = request.GET.get("status", "")
    asked = status if status in CaseStatus.values else ""
    searched = form.is_valid() and form.cleaned_data["q"]
    # Without a search, the rows are read with SQL compiled once per process.
    rows: Any = None if searched else selectors.CaseList.of(request.user, asked, PAGE_SIZE)
    if rows is None:
        cases = policy.visible_cases(request.user)
        if asked:
            cases = cases.filter(status=asked)
        if searched:
            cases = cases.filter(reference__icontains=form.cleaned_data["q"].strip())
        rows = case_rows(cases, request.user)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    _audit_list(request, "case.list", page.object_list)
    return render(
        request,
        "cases/case_list.html",
        {
            "page": page,
            "form": form,
            "status": status,
            "statuses": CaseStatus.choices,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def case_find(request: AuthenticatedRequest) -> HttpResponse:
    """Find a case by a person's name (a duty worker taking a crisis call, or a conflict check
    before taking someone on). The search is audited with what it found, never the name."""
    if policy.active_role(request.user) not in policy.CASEWORK_ROLES:
        raise PermissionDenied
    form = NameSearchForm(request.POST or None)
    result = None
    similar = None
    if request.method == "POST" and form.is_valid():
        role = form.cleaned_data["role"]
        name = form.cleaned_data["name"]
        born = form.cleaned_data["date_of_birth"]
        result = (
            selectors.find_by_name(request.user, name=name, role=role)
            if name
            else selectors.NameMatches([], False)
        )
        similar = selectors.find_similar_in_own_cases(
            request.user, name=name, role=role, date_of_birth=born
        )
        if born is not None:
            # A name and a date of birth: the exact matches were born that day too.
            result = replace(result, cases=[c for c in result.cases if c.pk in similar.found])
        exact = {c.pk for c in result.cases}
        similar.cases = [c for c in similar.cases if c.pk not in exact]
        record(
            "case.search_name",
            actor=request.user,
            detail={
                "role": role,
                "with_name": bool(name),
                "with_date_of_birth": born is not None,
                "cases": [c.pk for c in result.cases],
                "similar": [c.pk for c in similar.cases],
                "elsewhere": result.elsewhere,
            },
        )
    emergency = None
    if result is not None and result.elsewhere and form.cleaned_data["role"] == PartyRole.SURVIVOR:
        emergency = EmergencyByNameForm(initial={"name": form.cleaned_data["name"]})
    return render(
        request,
        "cases/case_find.html",
        {
            "form": form,
            "result": result,
            "similar": similar,
            "emergency": emergency,
            "searched_role": form.cleaned_data.get("role") if result is not None else None,
            "searched_name": bool(form.cleaned_data.get("name")) if result is not None else False,
            "searched_born": result is not None
            and form.cleaned_data.get("date_of_birth") is not None,
            "survivor": PartyRole.SURVIVOR,
            "may_break_glass": policy.may_break_glass(request.user),
        },
    )


def _open_emergency_access(
    request: AuthenticatedRequest, form, open_grant, *, refused: tuple[str | None, str]
) -> HttpResponse | None:
    """Open emergency access with ``open_grant()``: the case page on success, else ``None``
    with the reason on ``form`` (over the hourly limit, or refused: ``refused`` is the field
    and the words)."""
    try:
        grant = open_grant()
    except services.BreakGlassLimited:
        form.add_error(
            None,
            _(
                "You have reached the limit of emergency accesses for this hour. "
                "Ask your supervisor, who has been told."
            ),
        )
    except services.BreakGlassRefused:
        record("break_glass.refused", actor=request.user)
        form.add_error(refused[0], refused[1])
    else:
        messages.warning(
            request,
            _("Emergency access granted for a limited time. Your supervisor has been told."),
        )
        return redirect(reverse("cases:detail", args=[grant.case.public_id]))
    return None


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
def case_find_emergency(request: AuthenticatedRequest) -> HttpResponse:
    """Emergency access to the one case a name search found outside the user's scope."""
    if not policy.may_break_glass(request.user):
        raise PermissionDenied
    if request.method != "POST":
        # Back from confirming who they are: the name was not kept, so search again.
        return redirect(reverse("cases:find"))
    form = EmergencyByNameForm(request.POST)
    if form.is_valid():
        granted = _open_emergency_access(
            request,
            form,
            lambda: services.break_glass_open_by_name(
                actor=request.user,
                name=form.cleaned_data["name"],
                reason=form.cleaned_data["reason"],
            ),
            refused=(
                None,
                _(
                    "No single case can be opened this way for this name: there may be none, or "
                    "more than one, or it may be restricted. Ask your supervisor."
                ),
            ),
        )
        if granted is not None:
            return granted
    return render(request, "cases/case_find_emergency.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def case_new(request: AuthenticatedRequest) -> HttpResponse:
    """Take in a referral: the intake's steps (:mod:`caseflow.cases.intake_flow`), then the case
    is opened by ``journey.case_open``."""
    form = intake_form(request)

    def open_case(form: IntakeForm, other: dict | None) -> Case:
        return journey.case_open(
            actor=request.user,
            team=form.cleaned_data["team"],
            survivor=form.survivor(),
            other_party=other,
            summary=form.cleaned_data.get("summary", ""),
            reference=form.cleaned_data["reference"],
        )

    def take_up(case: Case, summary: str, other: dict | None) -> None:
        journey.reopen_from_intake(
            actor=request.user, case=case, summary=summary, other_party=other
        )

    result = run_intake(
        request,
        form,
        IntakeWay(
            open_case=open_case,
            take_up=take_up,
            opened=_("Case %(reference)s opened."),
            taken_up=_("Case %(reference)s reopened: everything from before is on it."),
            asked=_(
                "Your request was sent to the supervisors of the team that holds the survivor's "
                "earlier case. You will be told when they decide; nothing was opened."
            ),
            after_asking=lambda: redirect("dashboard"),
        ),
    )
    if isinstance(result, HttpResponse):
        return result
    return render(request, "cases/case_new.html", result)


#: Where each role stands in the case page's People.
PARTY_ORDER: dict[str, int] = {PartyRole.SURVIVOR: 0, PartyRole.CHILD: 1, PartyRole.OTHER_PARTY: 2}


@functools.cache
def _facts_asked(
    registered: tuple[features.CaseFeature, ...],
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The facts query's annotations and relations: the features' and the journey's, the same
    dictionary for the process (its statement is compiled once, see ``case_page_facts``)."""
    annotations, related = panel_facts()
    return {**annotations, **journey.case_facts()}, related


@login_required
@require_http_methods(["GET"])
@case_page("view")
def case_detail(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    # One query for the data key, the safe-contact profile and what the panels need to know
    # before they query their own rows (see caseflow/cases/panels.py).
    facts = selectors.case_page_facts(case, *_facts_asked(features.registered()))
    remember_facts(case, facts)
    # The survivor first, then the children, the other party last and apart (the template marks
    # it "do not contact" and gives its phone no link): nobody dials the wrong person in a hurry.
    parties = sorted(
        selectors.case_parties(case), key=lambda p: (PARTY_ORDER.get(p.role, 1), p.created_at)
    )
    fields = field_config(request, case)
    for party in parties:
        party.case = case  # share the unwrapped data key
        # Hidden or relabelled by the agency, read by the template.
        party.field_settings = fields.for_role(party.role)  # type: ignore[attr-defined]
    profile = getattr(case, "safe_contact", None) if hasattr(case, "safe_contact") else None
    if profile is not None:
        profile.case = case
    assignees = selectors.case_assignees(case)
    record("case.view", actor=request.user, case=case, obj=case)
    # ``may`` keeps its answers on the case for the panels, which ask "edit" again; the scope is
    # known from ``get_case_for`` just above.
    caseworker = policy.may(request.user, case, "edit")
    panels, contents = render_sections(request, case)
    return render(
        request,
        "cases/case_detail.html",
        {
            "case": case,
            "case_fields": fields.for_case(),
            "parties": [p for p in parties if p.role != PartyRole.OTHER_PARTY],
            "other_parties": [p for p in parties if p.role == PartyRole.OTHER_PARTY],
            "survivor": next((p for p in parties if p.role == PartyRole.SURVIVOR), None),
            "profile": profile,
            "contact_now": contact.contact_now(profile, timezone.now()) if profile else None,
            "profile_windows": (
                weekly_windows.format_windows(
                    [weekly_windows.Window.from_dict(w) for w in profile.windows]
                )
                if profile
                else ""
            ),
            "assignees": assignees,
            "restricted_users": list(case.restricted_users.all()) if case.restricted else [],
            "can_edit": caseworker,
            "can_assign": policy.may(request.user, case, "assign"),
            "status_choices": _status_choices(case),
            "break_glass": not caseworker,
            "break_glass_until": (
                selectors.break_glass_until(request.user, case) if not caseworker else None
            ),
            "panels": panels,
            "contents": [*contents, ("people-h", _("People"))],
            "facts": facts,
            "pending_closure": journey.pending_closure(case)
            if facts["has_pending_closure"]
            else None,
            "reopen_requests": journey.open_reopen_requests(case)
            if facts["has_reopen_requests"] and policy.may(request.user, case, "assign")
            else [],
            "risk_source": journey.risk_source(case) if facts["has_risk_changes"] else None,
            "may_close": caseworker and case.status != CaseStatus.CLOSED,
        },
    )


def _status_choices(case) -> list[tuple[str, str]]:
    labels = {
        CaseStatus.ACTIVE: _("Make active") if case.status == CaseStatus.REFERRAL else _("Reopen"),
        CaseStatus.DORMANT: _("Mark dormant"),
    }
    # Closing has its own page (a reason, the exit check, outcomes): never one click.
    return [
        (s, labels[CaseStatus(s)])
        for s in CaseStatus.values
        if s in STATUS_TRANSITIONS[case.status] and s != CaseStatus.CLOSED
    ]


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def case_edit(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    initial = {
        "reference": case.reference,
        "summary": case.summary,
        "version": case.version,
    }
    form = CaseEditForm(
        request.POST or None, initial=initial, field_config=field_config(request, case).for_case()
    )
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            with transaction.atomic():
                services.case_update(
                    actor=request.user,
                    case=case,
                    expected_version=data.pop("version"),
                    data=data,
                )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        except IntegrityError:
            form.add_error("reference", _("Another case already has this reference."))
        else:
            messages.success(request, _("Case saved."))
            return redirect("cases:detail", case.public_id)
    else:
        record("case.view", actor=request.user, case=case, obj=case, detail={"page": "edit"})
    return render(
        request, "cases/case_form.html", {"form": form, "case": case, "title": _("Edit case")}
    )


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
@case_page("assign")
def case_assign(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    users = policy.assignable_users(case)
    initial = {
        "primary": case.primary_advocate_id,
        "others": [u.pk for u in case.assignees.exclude(pk=case.primary_advocate_id)],
    }
    form = AssignForm(
        request.POST or None,
        users=users,
        initial=initial,
        idva=advocate_title(case.agency_id) == AdvocateTitle.IDVA,
    )
    if request.method == "POST" and form.is_valid():
        others = [u for u in form.cleaned_data["others"] if u != form.cleaned_data["primary"]]
        services.case_assign(
            actor=request.user,
            case=case,
            primary=form.cleaned_data["primary"],
            others=others,
        )
        messages.success(request, _("Assignment saved."))
        return redirect("cases:detail", case.public_id)
    if request.method == "GET":
        record("case.view", actor=request.user, case=case, obj=case, detail={"page": "assign"})
    return render(
        request, "cases/case_form.html", {"form": form, "case": case, "title": _("Assign case")}
    )


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
@case_page("restrict")
def case_restrict(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    users = policy.assignable_users(case)
    initial = {
        "restricted": case.restricted,
        "users": list(case.restricted_users.values_list("pk", flat=True))
        or list(case.assignees.values_list("pk", flat=True)),
    }
    form = RestrictForm(request.POST or None, users=users, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.case_restrict(
            actor=request.user,
            case=case,
            restricted=form.cleaned_data["restricted"],
            users=form.cleaned_data["users"],
        )
        messages.success(request, _("Access list saved."))
        if not policy.can_view_case(request.user, case):
            return redirect("dashboard")
        return redirect("cases:detail", case.public_id)
    if request.method == "GET":
        record("case.view", actor=request.user, case=case, obj=case, detail={"page": "restrict"})
    return render(
        request, "cases/case_form.html", {"form": form, "case": case, "title": _("Restrict access")}
    )


@login_required
@require_POST
@case_page("change_status")
def case_status(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    form = StatusForm(request.POST, choices=_status_choices(case))
    if form.is_valid():
        try:
            journey.case_set_status(
                actor=request.user, case=case, status=form.cleaned_data["status"]
            )
        except ValidationError as exc:
            messages.error(request, exc.messages[0])
        else:
            messages.success(
                request,
                _("Case is now %(status)s.") % {"status": case.get_status_display().lower()},
            )
    else:
        messages.error(request, _("That status change is not possible for this case."))
    return redirect("cases:detail", case.public_id)


def _party_roles(case, party: Party | None) -> list[tuple[str, str]]:
    roles = list(PartyRole.choices)
    has_survivor = (
        case.parties.filter(role=PartyRole.SURVIVOR).exclude(pk=getattr(party, "pk", None)).exists()
    )
    if has_survivor:
        roles = [r for r in roles if r[0] != PartyRole.SURVIVOR]
    return roles


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def party_edit(
    request: AuthenticatedRequest, case: Case, party_id: str | None = None
) -> HttpResponse:
    party = None
    if party_id is not None:
        party = case.parties.filter(public_id=party_id).first()
        if party is None:
            raise Http404(_("No such person on this case"))
        party.case = case
    roles = _party_roles(case, party) if party is None else [(party.role, party.get_role_display())]
    initial = {}
    if party is not None:
        initial = {name: getattr(party, name) for name in services.PARTY_FIELDS}
        initial["role"] = party.role
        initial["languages"] = split_languages(party.languages)
        initial["communication_needs"] = party.communication_needs or []
    fields = field_config(request, case)
    form = PartyForm(
        request.POST or None,
        roles=roles,
        role_fields={role: fields.for_role(role) for role, _ in roles},
        initial=initial,
    )
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        services.party_save(
            actor=request.user,
            case=case,
            party=party or Party(role=data["role"]),
            data=data,
        )
        messages.success(request, _("Saved."))
        return redirect("cases:detail", case.public_id)
    if request.method == "GET":
        record(
            "case.view", actor=request.user, case=case, obj=party or case, detail={"page": "party"}
        )
    return render(
        request,
        "cases/case_form.html",
        {
            "form": form,
            "case": case,
            "title": _("Edit person") if party else _("Add a person"),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth
def break_glass(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.may_break_glass(request.user):
        raise PermissionDenied
    form = BreakGlassForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        granted = _open_emergency_access(
            request,
            form,
            lambda: services.break_glass_open(
                actor=request.user,
                reference=form.cleaned_data["reference"],
                reason=form.cleaned_data["reason"],
            ),
            refused=(
                "reference",
                _(
                    "There is no case with this reference that you can "
                    "open this way. Restricted cases cannot be opened."
                ),
            ),
        )
        if granted is not None:
            return granted
    return render(request, "cases/break_glass.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit", read="draft.view")
def draft(request: AuthenticatedRequest, case: Case, form: str) -> HttpResponse:
    """The signed-in user's own unsaved text of one form of this case: GET offers it back
    (JSON, or 204 when there is none), POST keeps the form's fields, or forgets them with
    ``discard``. Called by the page's script as the advocate types."""
    if not drafts.FORM_KEY.fullmatch(form):
        raise Http404
    if request.method == "GET":
        kept = drafts.draft_get(user=request.user, case=case, form=form)
        if kept is None:
            return HttpResponse(status=204)
        saved = timezone.localtime(kept.updated_at, today.staff_zone())
        return JsonResponse(
            {
                # In the reader's language: "14:30 on 3 Dec 2026".
                "saved": gettext("%(time)s on %(day)s")
                % {"time": time_format(saved, "H:i"), "day": date_format(saved, "DATE_FORMAT")},
                "fields": kept.data,
            }
        )
    if request.POST.get("discard"):
        drafts.draft_discard(user=request.user, case=case, form=form)
        return HttpResponse(status=204)
    data = {name: request.POST.getlist(name) for name in request.POST}
    try:
        drafts.draft_save(user=request.user, case=case, form=form, data=data)
    except drafts.DraftTooLarge:
        return HttpResponse(status=413)
    return HttpResponse(status=204)


# --- The case timeline and its printed chronology -----------------------------------------------

TIMELINE_PAGE = 50
BAD_CURSOR = _(
    "That link to older entries does not work any more (it may have been copied or cut short). "
    "Showing the newest entries instead."
)
BAD_FILTERS = _("Check the filters: nothing is shown until they are corrected.")


def timeline_filters(request: HttpRequest) -> TimelineFilterForm:
    """The timeline's filters from the query string (bound only when it has any)."""
    data = request.GET.copy()
    data.pop("before", None)
    return TimelineFilterForm(data or None, sources=timeline.registered_sources())


def timeline_heading(case: Case, form: TimelineFilterForm) -> dict[str, Any]:
    """The case and the filters in words, as the chronology prints them (and fingerprints)."""
    data = form.cleaned_data if form.is_bound else {}
    labels = dict(form.fields["kind"].choices)  # type: ignore[attr-defined]
    return {
        "case": case.reference,
        "kinds": [labels[k] for k in data.get("kind") or []] or [_("Every kind of record")],
        "since": data["since"].isoformat() if data.get("since") else "",
        "until": data["until"].isoformat() if data.get("until") else "",
        "person": timeline.PEOPLE.get(data.get("person") or "", _("Anyone")),
    }


@login_required
@require_http_methods(["GET"])
@case_page("view", read="timeline.view")
def case_timeline(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """Every dated record of the case, newest first, a page at a time (keyset)."""
    return _timeline_page(request, case)


def _timeline_page(request: HttpRequest, case: Case) -> HttpResponse:
    form = timeline_filters(request)
    result, problem = None, ""
    if not form.is_bound or form.is_valid():
        before = None
        token = request.GET.get("before", "")
        if token:
            try:
                kinds = [s.kind for s in timeline.registered_sources()]
                before = timeline.Cursor.parse(token, kinds)
            except ValueError:
                problem = BAD_CURSOR
        result = timeline.page(case, form.query(limit=TIMELINE_PAGE, before=before))
    else:
        problem = BAD_FILTERS
    older = ""
    if result is not None and result.next is not None:
        params = request.GET.copy()
        params["before"] = result.next.token()
        older = params.urlencode()
    filters = request.GET.copy()
    filters.pop("before", None)
    record(
        "timeline.view",
        actor=request.user,
        case=case,
        obj=case,
        detail={
            "kinds": sorted(form.cleaned_data.get("kind") or []) if form.is_bound else [],
            "older": bool(request.GET.get("before")),
            "entries": len(result.entries) if result else 0,
        },
    )
    return render(
        request,
        "cases/timeline.html",
        {
            "case": case,
            "form": form,
            "page": result,
            "problem": problem,
            "rows": _rows(result.entries if result else []),
            "older": older,
            "filters": filters.urlencode(),
            "paged": bool(request.GET.get("before")),
        },
    )


def _rows(entries: list[timeline.Entry]) -> list[dict[str, Any]]:
    labels = {s.kind: s.label for s in timeline.registered_sources()}
    return [{"entry": e, "label": labels.get(e.kind, "")} for e in entries]


def chronology_page(
    request: HttpRequest,
    case: Case,
    form: TimelineFilterForm,
    chronology: timeline.Chronology,
    recipient: str = "",
) -> HttpResponse:
    """The printable case chronology (internal, or produced for ``recipient`` outside)."""
    filters = request.GET.copy()
    return render(
        request,
        "cases/chronology.html",
        {
            "case": case,
            "heading": timeline_heading(case, form),
            "chronology": chronology,
            "rows": _rows(chronology.entries),
            "generated_at": timezone.now(),
            "recipient": recipient,
            "filters": filters.urlencode(),
            "can_share": policy.may(request.user, case, "edit"),
        },
    )


@login_required
@require_http_methods(["GET"])
@case_page("view", read="timeline.print")
def timeline_print(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """The case chronology for the agency's own file."""
    form = timeline_filters(request)
    if form.is_bound and not form.is_valid():
        return _timeline_page(request, case)
    chronology = timeline.chronology(case, form.query(limit=1), timeline_heading(case, form))
    record(
        "timeline.print",
        actor=request.user,
        case=case,
        obj=case,
        detail={
            "audience": "internal",
            "sha256": chronology.sha256,
            "entries": len(chronology.entries),
        },
    )
    return chronology_page(request, case, form, chronology)
