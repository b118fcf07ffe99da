"""The operators' admin site: superusers with a verified second factor, nobody else."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse


class OperatorAdminSite(admin.AdminSite):
    site_header = "caseflow operators"
    site_title = "caseflow operators"
    index_title = "Agencies and staff accounts"

    def has_permission(self, request: HttpRequest) -> bool:
        user = request.user
        return bool(
            user.is_active and user.is_superuser and getattr(user, "is_verified", lambda: False)()
        )

    def login(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        """Operators sign in through caseflow's own sign-in and second factor; the admin has
        no password form of its own."""
        if request.user.is_authenticated:
            if self.has_permission(request):
                return HttpResponseRedirect(reverse("admin:index", current_app=self.name))
            raise PermissionDenied
        query = urlencode({"next": request.GET.get("next") or reverse("admin:index")})
        return HttpResponseRedirect(f"{reverse('accounts:login')}?{query}")


class OperatorAdminConfig(AdminConfig):
    """Django's admin app, with :class:`OperatorAdminSite` as its default site."""

    default_site = "caseflow.accounts.admin_site.OperatorAdminSite"
