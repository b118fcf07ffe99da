from django.urls import path

from caseflow.casework import views, views_needs

app_name = "casework"

urlpatterns = [
    path("notes/new/", views.note_new, name="note_new"),
    path("notes/<pid:note_id>/", views.note_detail, name="note"),
    path("notes/<pid:note_id>/change/", views.note_change, name="note_change"),
    path("incidents/new/", views.incident_new, name="incident_new"),
    path("incidents/<pid:incident_id>/", views.incident_detail, name="incident"),
    path(
        "incidents/<pid:incident_id>/evidence/",
        views.incident_evidence,
        name="incident_evidence",
    ),
    path("evidence/<pid:evidence_id>/", views.evidence_file, name="evidence_file"),
    path("evidence/<pid:evidence_id>/download/", views.evidence_download, name="evidence_download"),
    path("needs/", views_needs.needs_list, name="needs"),
    path("needs/new/", views_needs.need_new, name="need_new"),
    path("needs/<pid:need_id>/", views_needs.need_detail, name="need"),
    path("needs/<pid:need_id>/change/", views_needs.need_change, name="need_change"),
    path("needs/<pid:need_id>/status/", views_needs.need_status, name="need_status"),
    path("goals/new/", views_needs.goal_new, name="goal_new"),
    path("goals/<pid:goal_id>/change/", views_needs.goal_change, name="goal_change"),
    path("services/new/", views_needs.service_new, name="service_new"),
    path("services/<pid:service_id>/change/", views_needs.service_change, name="service_change"),
]
