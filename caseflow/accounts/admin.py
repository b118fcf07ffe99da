"""The operators' admin: people and agencies only. Case models are not registered, so the admin
shows no case content. An operator (superuser) account never holds a membership: the admin
refuses one on a superuser and refuses making a member a superuser, so an operator cannot give
themselves case access (and ``policy.active_role`` gives superusers no role in any case)."""

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from caseflow.accounts.models import Agency, Membership, Team, User

OPERATOR_NO_MEMBERSHIP = (
    "An operator account cannot belong to an agency. Use a separate account without operator "
    "rights for agency work."
)


class MembershipFormSet(forms.BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        if not self.instance.is_superuser:
            return
        for form in self.forms:
            kept = form.instance.pk is not None or form.has_changed()
            if kept and not form.cleaned_data.get("DELETE", False):
                raise forms.ValidationError(OPERATOR_NO_MEMBERSHIP)


class MembershipInline(admin.StackedInline):
    model = Membership
    formset = MembershipFormSet
    can_delete = False
    fields = ("agency", "role", "is_active")


@admin.register(User)
class StaffAdmin(UserAdmin):
    inlines = [MembershipInline]
    list_display = ("username", "first_name", "last_name", "is_active", "is_superuser")


@admin.register(Agency)
class AgencyAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "agency")
    list_filter = ("agency",)
    filter_horizontal = ("members",)
