"""The operators' admin site: superusers with a verified second factor, nobody else.

Every addition, change and deletion made through it is recorded in the audit trail
(``operator.add`` / ``operator.change`` / ``operator.delete``): the model, the object's id and
the names of the fields changed, never their values. The authenticator and recovery-code
device admins are not registered: they would show every person's secret key.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlencode

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse


def _field_names(message: Any) -> list[str]:
    """The names of the fields and related records an admin change message lists (its object
    descriptions, which may name a person, are left out)."""
    names: list[str] = []
    for part in message if isinstance(message, list) else []:
        for verb, what in part.items():
            if verb == "changed" and "name" not in what:
                names.extend(str(f) for f in what.get("fields", []))
            elif "name" in what:
                names.append(f"{verb} {what['name']}")
    return names


def _event(request: HttpRequest, obj: Any, message: Any = None) -> dict[str, Any]:
    """The audit event's fields for a change to ``obj`` (by the operator signed in)."""
    return {
        "actor": request.user,
        "object_type": obj._meta.label_lower,
        "object_id": str(obj.pk),
        "detail": {"model": obj._meta.label_lower, "fields": _field_names(message)},
    }


class AuditedModelAdmin(admin.ModelAdmin):
    """Mixed into every model admin the operators' site registers."""

    # caseflow.audit is imported in the methods: this module is loaded with the app registry,
    # before any model.
    def log_addition(self, request, obj, message):  # type: ignore[no-untyped-def]
        from caseflow.audit.services import record

        entry = super().log_addition(request, obj, message)
        record("operator.add", **_event(request, obj, message))
        return entry

    def log_change(self, request, obj, message):  # type: ignore[no-untyped-def]
        from caseflow.audit.services import record

        entry = super().log_change(request, obj, message)
        record("operator.change", **_event(request, obj, message))
        return entry

    def log_deletions(self, request, queryset: Iterable[Any]):  # type: ignore[no-untyped-def]
        from caseflow.audit.services import record

        objects = list(queryset)
        entries = super().log_deletions(request, objects)  # type: ignore[arg-type]
        for obj in objects:
            record("operator.delete", **_event(request, obj))
        return entries


class OperatorAdminSite(admin.AdminSite):
    site_header = "caseflow operators"
    site_title = "caseflow operators"
    index_title = "Agencies and staff accounts"

    def register(self, model_or_iterable, admin_class=None, **options):  # type: ignore[no-untyped-def]
        """Every model admin writes its changes to the audit trail."""
        base = admin_class or admin.ModelAdmin
        if not issubclass(base, AuditedModelAdmin):
            base = type(f"Audited{base.__name__}", (AuditedModelAdmin, base), {})
        return super().register(model_or_iterable, base, **options)

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

    def ready(self) -> None:
        super().ready()
        from django_otp.plugins.otp_static.models import StaticDevice
        from django_otp.plugins.otp_totp.models import TOTPDevice

        # Their admins show each person's secret key and set-up address.
        for model in (TOTPDevice, StaticDevice):
            if admin.site.is_registered(model):
                admin.site.unregister(model)
