"""The agency admin's pages: staff and teams of their own agency, nothing else."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts import language as language_settings
from caseflow.accounts import oidc, zones
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.models import (
    advocate_title,
    lists_show_initials,
    role_words,
    set_advocate_title,
)
from caseflow.accounts.overview import settings_overview
from caseflow.accounts.reauth import require_recent_auth
from caseflow.agency import services
from caseflow.agency.forms import (
    AgencyLanguageForm,
    LanguageForm,
    ListNamesForm,
    ProviderGroupForm,
    StaffForm,
    TeamForm,
    TimeZoneForm,
)
from caseflow.audit.services import record
from caseflow.lib.i18n import gettext_lazy as _


def _require_admin(request: HttpRequest) -> None:
    if not policy.is_agency_admin(request.user):
        raise PermissionDenied


@login_required
@require_http_methods(["GET"])
def agency_settings(request: AuthenticatedRequest) -> HttpResponse:
    """Every setting an agency admin keeps, in one place, each with a link to change it."""
    _require_admin(request)
    return render(
        request, "agency/settings.html", settings_overview(request.user.membership.agency)
    )


@login_required
@require_http_methods(["GET"])
def staff_list(request: AuthenticatedRequest) -> HttpResponse:
    _require_admin(request)
    users = policy.agency_users(request.user).prefetch_related("teams").order_by("username")
    teams = policy.agency_teams(request.user).prefetch_related("members")
    return render(request, "agency/staff_list.html", {"users": users, "teams": teams})


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
def staff_edit(request: AuthenticatedRequest, user_id: int | None = None) -> HttpResponse:
    _require_admin(request)
    editing = None
    initial: dict = {"is_active": True}
    if user_id is not None:
        editing = policy.agency_users(request.user).filter(pk=user_id).first()
        if editing is None:
            raise Http404(_("No such member of staff"))
        initial = {
            "username": editing.username,
            "first_name": editing.first_name,
            "last_name": editing.last_name,
            "email": editing.email,
            "role": editing.membership.role,
            "is_active": editing.membership.is_active,
            "teams": list(editing.teams.values_list("pk", flat=True)),
        }
    form = StaffForm(
        request.POST or None,
        teams=policy.agency_teams(request.user),
        editing=editing,
        agency_id=request.user.membership.agency_id,
        initial=initial,
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.staff_save(
                actor=request.user,
                user=editing,
                data=form.cleaned_data,
                teams=form.cleaned_data["teams"],
            )
        except PermissionDenied as exc:
            form.add_error(None, str(exc) or _("Not allowed."))
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(
                request,
                _("Staff member saved.")
                if editing
                else _("Staff member added. They are e-mailed a link to choose their password."),
            )
            return redirect("agency:staff_list")
    return render(
        request,
        "accounts/form.html",
        {
            "form": form,
            "title": _("Edit staff member") if editing else _("Add a staff member"),
            "reset_user": editing if editing is not None and editing != request.user else None,
        },
    )


@require_POST
@login_required
@require_recent_auth
def staff_second_factor_reset(request: AuthenticatedRequest, user_id: int) -> HttpResponse:
    _require_admin(request)
    person = policy.agency_users(request.user).filter(pk=user_id).first()
    if person is None:
        raise Http404(_("No such member of staff"))
    services.staff_second_factor_reset(actor=request.user, user=person)
    messages.success(
        request,
        _("%(username)s sets up a new authenticator app at their next sign-in.")
        % {"username": person.username},
    )
    return redirect("agency:staff_list")


@require_POST
@login_required
@require_recent_auth
def staff_password_reset(request: AuthenticatedRequest, user_id: int) -> HttpResponse:
    _require_admin(request)
    person = policy.agency_users(request.user).filter(pk=user_id).first()
    if person is None:
        raise Http404(_("No such member of staff"))
    services.staff_password_reset(actor=request.user, user=person)
    messages.success(
        request,
        _(
            "%(username)s is e-mailed a link to choose a new password. "
            "Their old password no longer works."
        )
        % {"username": person.username},
    )
    return redirect("agency:staff_list")


@login_required
@require_http_methods(["GET", "POST"])
def team_edit(request: AuthenticatedRequest, team_id: int | None = None) -> HttpResponse:
    _require_admin(request)
    editing = None
    initial: dict = {}
    if team_id is not None:
        editing = policy.agency_teams(request.user).filter(pk=team_id).first()
        if editing is None:
            raise Http404(_("No such team"))
        initial = {
            "name": editing.name,
            "members": list(editing.members.values_list("pk", flat=True)),
        }
    users = policy.agency_users(request.user).filter(is_active=True)
    form = TeamForm(
        request.POST or None,
        users=users,
        editing=editing,
        agency_id=request.user.membership.agency_id,
        initial=initial,
    )
    if request.method == "POST" and form.is_valid():
        services.team_save(
            actor=request.user,
            team=editing,
            name=form.cleaned_data["name"],
            members=form.cleaned_data["members"],
        )
        messages.success(request, _("Team saved."))
        return redirect("agency:staff_list")
    return render(
        request,
        "accounts/form.html",
        {
            "form": form,
            "title": _("Edit team") if editing else _("Add a team"),
        },
    )


def _language_name(code: str) -> str:
    return dict(settings.LANGUAGES).get(code, code)


@login_required
@require_http_methods(["GET", "POST"])
def language(request: AuthenticatedRequest) -> HttpResponse:
    """A member of staff chooses the language they read caseflow in."""
    if policy.active_role(request.user) is None:
        raise PermissionDenied
    agency_id = request.user.membership.agency_id
    agency_name = _language_name(language_settings.agency_language(agency_id))
    form = LanguageForm(
        request.POST or None,
        initial={"language": language_settings.user_choice(request.user.pk)},
        agency_language_name=agency_name,
    )
    if request.method == "POST" and form.is_valid():
        chosen = form.cleaned_data["language"]
        language_settings.set_user_language(request.user, chosen)
        record("language.change", actor=request.user, detail={"language": chosen or "agency"})
        translation.activate(language_settings.language_for(request.user) or settings.LANGUAGE_CODE)
        messages.success(request, gettext("Your language is saved."))
        return redirect("agency:language")
    record("language.view", actor=request.user)
    return render(request, "agency/language.html", {"form": form, "title": _("Your language")})


@login_required
@require_http_methods(["GET", "POST"])
def agency_language(request: AuthenticatedRequest) -> HttpResponse:
    """The agency admin picks the agency's locale."""
    _require_admin(request)
    agency_id = request.user.membership.agency_id
    form = AgencyLanguageForm(
        request.POST or None,
        initial={
            "language": language_settings.agency_language(agency_id),
            "advocate_title": advocate_title(agency_id),
        },
    )
    if request.method == "POST" and form.is_valid():
        chosen = form.cleaned_data["language"]
        # Left unanswered, the agency keeps what it calls its advocates.
        title = form.cleaned_data["advocate_title"] or advocate_title(agency_id)
        language_settings.set_agency_language(agency_id, chosen)
        set_advocate_title(agency_id, title)
        record(
            "language.agency_change",
            actor=request.user,
            detail={"language": chosen, "advocate_title": title},
        )
        translation.activate(language_settings.language_for(request.user) or settings.LANGUAGE_CODE)
        messages.success(request, gettext("The agency's language is saved."))
        return redirect("agency:agency_language")
    record("language.agency_view", actor=request.user)
    return render(
        request, "agency/language.html", {"form": form, "title": _("The agency's language")}
    )


@login_required
@require_http_methods(["GET", "POST"])
def time_zone(request: AuthenticatedRequest) -> HttpResponse:
    """Where the agency works: the zone of every time its staff enter and read."""
    _require_admin(request)
    agency = request.user.membership.agency
    form = TimeZoneForm(request.POST or None, initial={"time_zone": zones.agency_zone(agency).key})
    if request.method == "POST" and form.is_valid():
        services.agency_time_zone_save(actor=request.user, time_zone=form.cleaned_data["time_zone"])
        messages.success(request, gettext("Time zone saved. Times are now shown in it."))
        return redirect("agency:time_zone")
    return render(
        request,
        "agency/time_zone.html",
        {"form": form, "agency": agency, "chosen": bool(agency.time_zone)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def list_names(request: AuthenticatedRequest) -> HttpResponse:
    """Whether the agency's case lists name survivors or show their initials only."""
    _require_admin(request)
    agency_id = request.user.membership.agency_id
    # An unticked box sends nothing: a POST is bound even when empty.
    form = ListNamesForm(
        request.POST if request.method == "POST" else None,
        initial={"list_initials": lists_show_initials(agency_id)},
    )
    if request.method == "POST" and form.is_valid():
        services.agency_list_initials_save(
            actor=request.user, initials=form.cleaned_data["list_initials"]
        )
        messages.success(request, gettext("Saved. Case lists now show it this way."))
        return redirect("agency:list_names")
    return render(request, "agency/list_names.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
@require_recent_auth(methods=("POST",))
def provider_groups(request: AuthenticatedRequest) -> HttpResponse:
    """Which groups of the agency's identity provider give which role and team in caseflow."""
    _require_admin(request)
    agency = request.user.membership.agency
    form = ProviderGroupForm(
        request.POST or None,
        teams=policy.agency_teams(request.user),
        agency_id=agency.pk,
    )
    if request.method == "POST" and form.is_valid():
        services.provider_group_add(
            actor=request.user,
            name=form.cleaned_data["name"],
            role=form.cleaned_data["role"],
            team=form.cleaned_data["team"],
        )
        messages.success(request, _("Saved. It applies from each person's next sign-in."))
        return redirect("agency:provider_groups")
    groups = oidc.groups_of(agency)
    return render(
        request,
        "agency/provider_groups.html",
        {
            "form": form,
            "groups": [(g, role_words(g.role, agency.pk)) for g in groups],
            "provider": oidc.provider_set_up(agency),
        },
    )


@require_POST
@login_required
@require_recent_auth
def provider_group_delete(request: AuthenticatedRequest, group_id: int) -> HttpResponse:
    _require_admin(request)
    if not services.provider_group_delete(actor=request.user, group_id=group_id):
        raise Http404(_("No such group"))
    messages.success(request, _("Removed. It applies from each person's next sign-in."))
    return redirect("agency:provider_groups")
