"""Safety plan and risk assessment pages, under /cases/<public_id>/safety/."""

from django.urls import path

from caseflow.safety import views

app_name = "safety"

urlpatterns = [
    path("", views.plan_detail, name="plan"),
    path("edit/", views.plan_edit, name="plan_edit"),
    path("versions/<int:number>/", views.plan_version, name="plan_version"),
    path("diff/", views.plan_diff, name="plan_diff"),
    path("review/", views.plan_review, name="plan_review"),
    path("print/", views.plan_print, name="plan_print"),
    path("assessments/", views.assessment_list, name="assessments"),
    path("assessments/new/<int:instrument_id>/", views.assessment_new, name="assessment_new"),
    path("assessments/<pid:assessment_id>/", views.assessment_detail, name="assessment"),
]
