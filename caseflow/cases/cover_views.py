"""The supervisor's page for cover: who covers whom, from when to when (see
:mod:`caseflow.cases.cover`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from caseflow import policy
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.accounts.models import Role
from caseflow.cases import cover
from caseflow.cases.forms import CoverForm
from caseflow.lib.i18n import gettext_lazy as _


def _require_supervisor(request: AuthenticatedRequest) -> None:
    if policy.active_role(request.user) != Role.SUPERVISOR:
        raise PermissionDenied


@login_required
@require_http_methods(["GET", "POST"])
def cover_list(request: AuthenticatedRequest) -> HttpResponse:
    """Covers now and to come in the supervisor's teams, and the form to set one."""
    _require_supervisor(request)
    form = CoverForm(request.POST or None, people=policy.supervised_caseworkers(request.user))
    if request.method == "POST" and form.is_valid():
        try:
            cover.cover_set(
                actor=request.user,
                absent=form.cleaned_data["absent"],
                covering=form.cleaned_data["covering"],
                first_day=form.cleaned_data["first_day"],
                last_day=form.cleaned_data["last_day"],
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(
                request,
                _(
                    "Cover set. The colleague covering sees and works the cases of the person "
                    "away on those days, and it ends by itself."
                ),
            )
            return redirect("cases:cover")
    return render(
        request,
        "cases/cover.html",
        {"form": form, "covers": cover.covers_to_show(request.user)},
    )


@login_required
@require_POST
def cover_end(request: AuthenticatedRequest, cover_id: str) -> HttpResponse:
    _require_supervisor(request)
    found = cover.covers_to_show(request.user).filter(public_id=cover_id).first()
    if found is None:
        raise Http404(_("No such cover"))
    cover.cover_end(actor=request.user, cover=found)
    messages.success(request, _("Cover ended."))
    return redirect("cases:cover")
