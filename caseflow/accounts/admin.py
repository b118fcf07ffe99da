"""The operators' admin: people and agencies only. Case models are not registered, so the admin
shows no case content. An operator (superuser) account never holds a membership: the admin
refuses one on a superuser and refuses making a member a superuser, so an operator cannot give
themselves case access (and ``policy.active_role`` gives superusers no role in any case).

Operators set up agencies and their first agency admins. They do not make caseworkers and do not
set caseworkers' passwords: an agency admin creates staff, who choose their own password from a
one-time link, so nobody else ever knows a caseworker's password. The admin refuses a new
casework membership, a change of role to a casework one, and the password form of anyone who
does casework."""

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied

from caseflow.accounts.models import (
    Agency,
    Coalition,
    CoalitionSeat,
    IdentityProvider,
    Membership,
    Role,
    Team,
    User,
)

CASEWORK_ROLES = frozenset({Role.ADVOCATE, Role.SUPERVISOR, Role.AUDITOR})
NO_CASEWORK_BY_OPERATORS = (
    "Operators only set up agency admins. Caseworkers and auditors are added by their agency "
    "admin, and choose their own password from a one-time link."
)
NO_PASSWORD_BY_OPERATORS = (
    "Operators do not set the passwords of people who work with cases: their agency admin sends "
    "them a one-time link to choose their own."
)

OPERATOR_NO_MEMBERSHIP = (
    "An operator account cannot belong to an agency. Use a separate account without operator "
    "rights for agency work."
)


SEAT_OR_MEMBERSHIP = (
    "A coalition seat is for someone who is no agency's staff, and never for an operator: use a "
    "separate account."
)


class MembershipFormSet(forms.BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        seated = CoalitionSeat.objects.filter(user_id=self.instance.pk).exists()
        if self.instance.pk is not None and seated:
            for form in self.forms:
                kept = form.instance.pk is not None or form.has_changed()
                if kept and not form.cleaned_data.get("DELETE", False):
                    raise forms.ValidationError(SEAT_OR_MEMBERSHIP)
        if self.instance.is_superuser:
            for form in self.forms:
                kept = form.instance.pk is not None or form.has_changed()
                if kept and not form.cleaned_data.get("DELETE", False):
                    raise forms.ValidationError(OPERATOR_NO_MEMBERSHIP)
        for form in self.forms:
            role = form.cleaned_data.get("role")
            if form.cleaned_data.get("DELETE", False) or role not in CASEWORK_ROLES:
                continue
            before = form.initial.get("role") if form.instance.pk is not None else None
            if role != before:
                raise forms.ValidationError(NO_CASEWORK_BY_OPERATORS)


class MembershipInline(admin.StackedInline):
    model = Membership
    formset = MembershipFormSet
    can_delete = False
    fields = ("agency", "role", "is_active")


@admin.register(User)
class StaffAdmin(UserAdmin):
    inlines = [MembershipInline]
    list_display = ("username", "first_name", "last_name", "is_active", "is_superuser")

    def user_change_password(self, request, id, form_url=""):
        user = self.get_object(request, unquote(id))
        membership = getattr(user, "membership_or_none", None) if user is not None else None
        if membership is not None and membership.role in CASEWORK_ROLES:
            raise PermissionDenied(NO_PASSWORD_BY_OPERATORS)
        return super().user_change_password(request, id, form_url)


@admin.register(Agency)
class AgencyAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    prepopulated_fields = {"slug": ("name",)}
    # What the agency calls its advocates is the agency admin's choice, on the agency's pages.
    exclude = ("advocate_title",)


@admin.register(Coalition)
class CoalitionAdmin(admin.ModelAdmin):
    """A coalition and its member agencies: its people see the members' funder reports rolled
    up, each agency's small counts suppressed before they are added."""

    list_display = ("name",)
    filter_horizontal = ("members",)


class CoalitionSeatForm(forms.ModelForm):
    class Meta:
        model = CoalitionSeat
        fields = ("user", "coalition", "is_active")

    def clean_user(self) -> User:
        user = self.cleaned_data["user"]
        if user.is_superuser or Membership.objects.filter(user=user).exists():
            raise forms.ValidationError(SEAT_OR_MEMBERSHIP)
        return user


@admin.register(CoalitionSeat)
class CoalitionSeatAdmin(admin.ModelAdmin):
    """Who runs a coalition's roll-ups: an account of its own, in no agency."""

    form = CoalitionSeatForm
    list_display = ("user", "coalition", "is_active")
    list_filter = ("coalition",)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "agency")
    list_filter = ("agency",)
    filter_horizontal = ("members",)


class IdentityProviderForm(forms.ModelForm):
    """The client secret is written, never shown: left empty, the one kept stays."""

    issuer = forms.URLField(
        max_length=300,
        assume_scheme="https",
        help_text="The provider's issuer; its discovery document is read from "
        "<issuer>/.well-known/openid-configuration.",
    )

    client_secret = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text="Leave empty to keep the secret already saved.",
    )

    class Meta:
        model = IdentityProvider
        fields = ("agency", "issuer", "client_id", "client_secret", "scopes", "enabled")

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.initial["client_secret"] = ""

    def clean_client_secret(self) -> str:
        secret = self.cleaned_data.get("client_secret") or ""
        if not secret and self.instance.pk is None:
            raise forms.ValidationError("The provider's client secret is needed.")
        return secret

    def save(self, commit: bool = True):  # type: ignore[no-untyped-def]
        secret = self.cleaned_data.get("client_secret")
        obj = super().save(commit=False)
        if not secret and obj.pk is not None:
            obj.client_secret = IdentityProvider.objects.get(pk=obj.pk).client_secret
        if commit:
            obj.save()
        return obj


@admin.register(IdentityProvider)
class IdentityProviderAdmin(admin.ModelAdmin):
    """An agency's identity provider (OpenID Connect). Which of its groups gives which role is
    kept by the agency admin, on the agency's settings."""

    form = IdentityProviderForm
    list_display = ("agency", "issuer", "enabled")
