"""Shelter pages: the bed board and booking (caseworkers), turn-aways, the agency's sites
(its admin keeps them; supervisors read them) and a stay on a case. Each view resolves what it
touches through policy, binds a form, calls a service and redirects."""

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
from caseflow.accounts.zones import agency_today
from caseflow.audit.services import record
from caseflow.cases.models import OPEN_STATUSES, Case
from caseflow.cases.pages import case_page
from caseflow.shelter import selectors, services
from caseflow.shelter.forms import (
    BedForm,
    NeedsForm,
    RoomForm,
    SiteForm,
    StayEndForm,
    StayForm,
    TurnAwayForm,
)
from caseflow.shelter.models import Access

#: The most cases offered when booking (an advocate works about 40).
CASE_CHOICES = 300


def _caseworker(request: AuthenticatedRequest) -> None:
    if not policy.books_shelter(request.user):
        raise PermissionDenied


def _agency_today(request: AuthenticatedRequest):
    return agency_today(request.user.membership.agency)


# --- The bed board and booking ------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
def board(request: AuthenticatedRequest) -> HttpResponse:
    _caseworker(request)
    needs_form = NeedsForm(request.GET or None)
    needs = needs_form.cleaned_data["need"] if needs_form.is_valid() else []
    today = _agency_today(request)
    nights, sites = selectors.board(selectors.bookable_beds(request.user), today, needs)
    record("shelter.board_view", actor=request.user, detail={"needs": needs})
    return render(
        request,
        "shelter/board.html",
        {"needs_form": needs_form, "nights": nights, "sites": sites, "needs": needs},
    )


def _bookable_cases(request: AuthenticatedRequest) -> dict[str, Case]:
    cases = (
        policy.visible_cases(request.user)
        .filter(status__in=OPEN_STATUSES)
        .select_related("team")
        .order_by("reference")[:CASE_CHOICES]
    )
    return {c.public_id: c for c in cases if policy.may(request.user, c, "edit")}


def _case_label(case: Case) -> str:
    survivor = services.survivor_of(case)
    return f"{case.reference} · {survivor.full_name}" if survivor else case.reference


@login_required
@require_http_methods(["GET", "POST"])
def book(request: AuthenticatedRequest) -> HttpResponse:
    _caseworker(request)
    cases = _bookable_cases(request)
    beds = {
        b.public_id: b
        for b in selectors.bookable_beds(request.user)
        .select_related("room__site")
        .order_by("room__site__name", "room__name", "label")
    }
    bed_choices = [
        (pid, f"{b.room.site.name} · {b.room.name} · {b.label}") for pid, b in beds.items()
    ]
    today = _agency_today(request)
    form = StayForm(
        request.POST or None,
        cases=[(pid, _case_label(c)) for pid, c in cases.items()],
        beds=bed_choices,
        initial={
            "bed": request.GET.get("bed", ""),
            "starts_on": request.GET.get("from") or today,
            "children": 0,
        },
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        case = cases[d["case"]]
        try:
            stay = services.stay_book(
                actor=request.user,
                case=case,
                bed=beds[d["bed"]],
                starts_on=d["starts_on"],
                ends_on=d["ends_on"],
                planned_end_on=d["planned_end_on"],
                children=d["children"],
                notes=d["notes"].strip(),
            )
        except services.BedTaken as exc:
            form.add_error("bed", exc)
        except ValidationError as exc:
            form.add_error(None, exc)
        except PermissionDenied:
            form.add_error("bed", _("This bed is not at a site you can book. Choose another bed."))
        else:
            messages.success(request, _("Stay booked."))
            return redirect("shelter:stay", case.public_id, stay.public_id)
    return render(request, "shelter/book.html", {"form": form, "has_beds": bool(beds)})


@login_required
@require_http_methods(["GET", "POST"])
def turn_away(request: AuthenticatedRequest) -> HttpResponse:
    _caseworker(request)
    form = TurnAwayForm(request.POST or None, initial={"on": _agency_today(request)})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.turnaway_record(
                actor=request.user, on=d["on"], adults=d["adults"], children=d["children"]
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Counted. Thank you."))
            return redirect("shelter:board")
    return render(request, "shelter/turn_away.html", {"form": form})


# --- Sites, rooms and beds ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
def sites(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.reads_shelter_sites(request.user):
        raise PermissionDenied
    rows = selectors.sites_of(request.user)
    record("shelter.sites_view", actor=request.user, detail={"sites": len(rows)})
    return render(
        request,
        "shelter/sites.html",
        {
            "sites": rows,
            "can_manage": policy.manages_shelter(request.user),
            "access_labels": dict(Access.choices),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def site_edit(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.manages_shelter(request.user):
        raise PermissionDenied
    site = selectors.site_get(request.user, request.GET["site"]) if "site" in request.GET else None
    initial = (
        {"name": site.name, "address": site.address, "active": site.active}
        if site is not None
        else {"active": True}
    )
    form = SiteForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.site_save(
                actor=request.user,
                site=site,
                name=d["name"],
                address=d["address"],
                active=d["active"],
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Site saved."))
            return redirect("shelter:sites")
    return render(request, "shelter/site_edit.html", {"form": form, "site": site})


@login_required
@require_http_methods(["GET", "POST"])
def room_new(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.manages_shelter(request.user):
        raise PermissionDenied
    own = {s.public_id: s for s in selectors.sites_of(request.user)}
    form = RoomForm(
        request.POST or None,
        sites=[(pid, s.name) for pid, s in own.items()],
        initial={"site": request.GET.get("site", "")},
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.room_add(
                actor=request.user, site=own[d["site"]], name=d["name"], features=d["features"]
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Room added."))
            return redirect("shelter:sites")
    return render(request, "shelter/room_new.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def bed_new(request: AuthenticatedRequest) -> HttpResponse:
    if not policy.manages_shelter(request.user):
        raise PermissionDenied
    form = BedForm(
        request.POST or None,
        rooms=selectors.room_choices(request.user),
        initial={"room": request.GET.get("room", "")},
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        room = selectors.room_get(request.user, d["room"])
        try:
            services.bed_add(
                actor=request.user, room=room, label=d["label"], features=d["features"]
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Bed added."))
            return redirect("shelter:sites")
    return render(request, "shelter/bed_new.html", {"form": form})


# --- A stay on a case ---------------------------------------------------------------------------


@login_required
@require_http_methods(["GET"])
@case_page("view")
def stay_detail(request: AuthenticatedRequest, case: Case, stay_id: str) -> HttpResponse:
    stay = selectors.stay_get(case, stay_id)
    record("shelter.stay_view", actor=request.user, case=case, obj=stay)
    today = agency_today(case.agency)
    return render(
        request,
        "shelter/stay.html",
        {
            "case": case,
            "stay": stay,
            "site": stay.bed.room.site,
            "nights": stay.nights_until(today),
            "features": stay.bed.all_features(),
            "access_labels": dict(Access.choices),
            "can_end": stay.ended_at is None and policy.may(request.user, case, "edit"),
            "may_count": policy.may(request.user, case, "edit"),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def stay_end(request: AuthenticatedRequest, case: Case, stay_id: str) -> HttpResponse:
    stay = selectors.stay_get(case, stay_id)
    form = StayEndForm(request.POST or None, initial={"ends_on": agency_today(case.agency)})
    if request.method == "POST" and form.is_valid():
        try:
            services.stay_end(actor=request.user, stay=stay, ends_on=form.cleaned_data["ends_on"])
        except ValidationError as exc:
            form.add_error("ends_on", exc)
        else:
            messages.success(request, _("Stay ended."))
            return redirect("shelter:stay", case.public_id, stay.public_id)
    return render(request, "shelter/stay_end.html", {"case": case, "stay": stay, "form": form})
