from django.urls import path

from caseflow.casework import views

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
]
