from django.urls import path

from caseflow.casework import views, views_needs

app_name = "casework"

CASE = "cases/<pid:public_id>/casework/"

urlpatterns = [
    path(f"{CASE}notes/new/", views.note_new, name="note_new"),
    path(f"{CASE}notes/<pid:note_id>/", views.note_detail, name="note"),
    path(f"{CASE}notes/<pid:note_id>/change/", views.note_change, name="note_change"),
    path(f"{CASE}incidents/new/", views.incident_new, name="incident_new"),
    path(f"{CASE}incidents/<pid:incident_id>/", views.incident_detail, name="incident"),
    path(
        f"{CASE}incidents/<pid:incident_id>/evidence/",
        views.incident_evidence,
        name="incident_evidence",
    ),
    path(f"{CASE}evidence/<pid:evidence_id>/", views.evidence_file, name="evidence_file"),
    path(
        f"{CASE}evidence/<pid:evidence_id>/download/",
        views.evidence_download,
        name="evidence_download",
    ),
    path(f"{CASE}needs/", views_needs.needs_list, name="needs"),
    path(f"{CASE}needs/new/", views_needs.need_new, name="need_new"),
    path(f"{CASE}needs/<pid:need_id>/", views_needs.need_detail, name="need"),
    path(f"{CASE}needs/<pid:need_id>/change/", views_needs.need_change, name="need_change"),
    path(f"{CASE}needs/<pid:need_id>/status/", views_needs.need_status, name="need_status"),
    path(f"{CASE}goals/new/", views_needs.goal_new, name="goal_new"),
    path(f"{CASE}goals/<pid:goal_id>/change/", views_needs.goal_change, name="goal_change"),
    path(f"{CASE}services/new/", views_needs.service_new, name="service_new"),
    path(
        f"{CASE}services/<pid:service_id>/change/",
        views_needs.service_change,
        name="service_change",
    ),
]
