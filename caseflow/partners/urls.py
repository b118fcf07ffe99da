"""Case pages under /cases/<id>/partners/ and the agency admin's page under /partners/."""

from django.urls import path

from caseflow.partners import views

app_name = "partners"

CASE = "cases/<pid:public_id>/partners/"

urlpatterns = [
    path(f"{CASE}meetings/new/", views.meeting_new, name="meeting_new"),
    path(f"{CASE}meetings/<pid:referral_id>/", views.meeting_detail, name="meeting"),
    path(f"{CASE}meetings/<pid:referral_id>/change/", views.meeting_change, name="meeting_change"),
    path(f"{CASE}meetings/<pid:referral_id>/actions/new/", views.action_new, name="action_new"),
    path(
        f"{CASE}meetings/<pid:referral_id>/actions/status/",
        views.action_status,
        name="action_status",
    ),
    path(f"{CASE}referrals/new/", views.referral_new, name="referral_new"),
    path(f"{CASE}referrals/<pid:referral_id>/", views.referral_detail, name="referral"),
    path(f"{CASE}demographics/", views.demographics, name="demographics"),
    path(f"{CASE}hud/", views.hud_answers, name="hud_answers"),
    path("partners/settings/", views.partner_settings, name="settings"),
    path("partners/hud-project/", views.hud_project, name="hud_project"),
]
