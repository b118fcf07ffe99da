from django.urls import path

from caseflow.agency import views

app_name = "agency"

urlpatterns = [
    path("staff/", views.staff_list, name="staff_list"),
    path("staff/new/", views.staff_edit, name="staff_new"),
    path("staff/<int:user_id>/", views.staff_edit, name="staff_edit"),
    path(
        "staff/<int:user_id>/second-factor-reset/",
        views.staff_second_factor_reset,
        name="staff_second_factor_reset",
    ),
    path(
        "staff/<int:user_id>/password-reset/",
        views.staff_password_reset,
        name="staff_password_reset",
    ),
    path("time-zone/", views.time_zone, name="time_zone"),
    path("teams/new/", views.team_edit, name="team_new"),
    path("teams/<int:team_id>/", views.team_edit, name="team_edit"),
    path("language/", views.language, name="language"),
    path("agency-language/", views.agency_language, name="agency_language"),
]
