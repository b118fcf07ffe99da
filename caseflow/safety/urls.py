"""Safety plan and risk assessment pages, under /cases/<public_id>/safety/."""

from django.urls import path

from caseflow.safety import views

app_name = "safety"

CASE = "cases/<pid:public_id>/safety/"

urlpatterns = [
    path(f"{CASE}", views.plan_detail, name="plan"),
    path(f"{CASE}edit/", views.plan_edit, name="plan_edit"),
    path(f"{CASE}versions/<int:number>/", views.plan_version, name="plan_version"),
    path(f"{CASE}diff/", views.plan_diff, name="plan_diff"),
    path(f"{CASE}review/", views.plan_review, name="plan_review"),
    path(f"{CASE}print/", views.plan_print, name="plan_print"),
    path(f"{CASE}hard-dates/new/", views.hard_date_new, name="hard_date_new"),
    path(
        f"{CASE}hard-dates/<pid:hard_date_id>/remove/",
        views.hard_date_remove,
        name="hard_date_remove",
    ),
    path(f"{CASE}assessments/", views.assessment_list, name="assessments"),
    path(
        f"{CASE}assessments/new/<int:instrument_id>/", views.assessment_new, name="assessment_new"
    ),
    path(f"{CASE}assessments/<pid:assessment_id>/", views.assessment_detail, name="assessment"),
]
