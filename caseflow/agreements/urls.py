from django.urls import path

from caseflow.agreements import views

app_name = "agreements"

CASE = "cases/<pid:public_id>/agreements/"

urlpatterns = [
    path(f"{CASE}", views.agreement_list, name="list"),
    path(f"{CASE}new/", views.agreement_new, name="new"),
    path(f"{CASE}<pid:agreement_id>/", views.agreement_detail, name="detail"),
    path(f"{CASE}<pid:agreement_id>/edit/", views.agreement_edit, name="edit"),
    path(f"{CASE}<pid:agreement_id>/status/", views.agreement_status, name="status"),
    path(f"{CASE}<pid:agreement_id>/versions/", views.agreement_versions, name="versions"),
    path(f"{CASE}<pid:agreement_id>/events/new/", views.event_new, name="event_new"),
    path(
        f"{CASE}<pid:agreement_id>/events/<pid:event_id>/review/", views.event_review, name="review"
    ),
    path(f"{CASE}<pid:agreement_id>/chronology/", views.chronology, name="chronology"),
    path(f"{CASE}<pid:agreement_id>/chronology.csv", views.chronology_csv, name="chronology_csv"),
    path(f"{CASE}evidence/<pid:evidence_id>/", views.evidence_download, name="evidence"),
    path(f"{CASE}evidence/<pid:evidence_id>/view/", views.evidence_view, name="evidence_view"),
]
