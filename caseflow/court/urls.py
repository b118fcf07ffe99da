"""A case's court hearings, under /cases/<id>/court/."""

from django.urls import path

from caseflow.court import views

app_name = "court"

CASE = "cases/<pid:public_id>/court/"

urlpatterns = [
    path(f"{CASE}hearings/new/", views.hearing_new, name="hearing_new"),
    path(f"{CASE}hearings/<pid:hearing_id>/", views.hearing_detail, name="hearing"),
    path(f"{CASE}hearings/<pid:hearing_id>/change/", views.hearing_change, name="hearing_change"),
    path(f"{CASE}hearings/<pid:hearing_id>/outcome/", views.hearing_outcome, name="outcome"),
    path(f"{CASE}hearings/<pid:hearing_id>/safety-steps/", views.hearing_steps, name="steps"),
]
