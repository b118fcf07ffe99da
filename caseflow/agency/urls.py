from django.urls import path

from caseflow.agency import views

app_name = "agency"

ACCOUNTS = "accounts/"

urlpatterns = [
    path(f"{ACCOUNTS}settings/", views.agency_settings, name="settings"),
    path(f"{ACCOUNTS}staff/", views.staff_list, name="staff_list"),
    path(f"{ACCOUNTS}staff/new/", views.staff_edit, name="staff_new"),
    path(f"{ACCOUNTS}staff/<int:user_id>/", views.staff_edit, name="staff_edit"),
    path(
        f"{ACCOUNTS}staff/<int:user_id>/second-factor-reset/",
        views.staff_second_factor_reset,
        name="staff_second_factor_reset",
    ),
    path(
        f"{ACCOUNTS}staff/<int:user_id>/password-reset/",
        views.staff_password_reset,
        name="staff_password_reset",
    ),
    path(f"{ACCOUNTS}time-zone/", views.time_zone, name="time_zone"),
    path(f"{ACCOUNTS}names-in-lists/", views.list_names, name="list_names"),
    path(f"{ACCOUNTS}teams/new/", views.team_edit, name="team_new"),
    path(f"{ACCOUNTS}teams/<int:team_id>/", views.team_edit, name="team_edit"),
    path(f"{ACCOUNTS}language/", views.language, name="language"),
    path(f"{ACCOUNTS}agency-language/", views.agency_language, name="agency_language"),
    path(f"{ACCOUNTS}provider-groups/", views.provider_groups, name="provider_groups"),
    path(
        f"{ACCOUNTS}provider-groups/<int:group_id>/delete/",
        views.provider_group_delete,
        name="provider_group_delete",
    ),
]
