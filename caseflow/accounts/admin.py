"""The operators' admin: people and agencies only. Case models are not registered, so the admin
shows no case content."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from caseflow.accounts.models import Agency, Membership, Team, User


class MembershipInline(admin.StackedInline):
    model = Membership
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
