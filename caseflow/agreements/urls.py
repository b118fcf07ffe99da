from django.urls import path

from caseflow.agreements import views

app_name = "agreements"

urlpatterns = [
    path("", views.agreement_list, name="list"),
    path("new/", views.agreement_new, name="new"),
    path("<pid:agreement_id>/", views.agreement_detail, name="detail"),
    path("<pid:agreement_id>/edit/", views.agreement_edit, name="edit"),
    path("<pid:agreement_id>/status/", views.agreement_status, name="status"),
    path("<pid:agreement_id>/versions/", views.agreement_versions, name="versions"),
    path("<pid:agreement_id>/events/new/", views.event_new, name="event_new"),
    path("<pid:agreement_id>/events/<pid:event_id>/review/", views.event_review, name="review"),
    path("<pid:agreement_id>/chronology/", views.chronology, name="chronology"),
    path("<pid:agreement_id>/chronology.csv", views.chronology_csv, name="chronology_csv"),
    path("evidence/<pid:evidence_id>/", views.evidence_download, name="evidence"),
    path("evidence/<pid:evidence_id>/view/", views.evidence_view, name="evidence_view"),
]
