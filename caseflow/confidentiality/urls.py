"""Case pages under /cases/<id>/confidentiality/ and agency pages under /confidentiality/."""

from django.urls import path

from caseflow.confidentiality import views

app_name = "confidentiality"

CASE = "cases/<pid:public_id>/confidentiality/"
EXPORT = f"{CASE}exports/<pid:export_id>/"

urlpatterns = [
    path(f"{CASE}releases/new/", views.release_new, name="release_new"),
    path(f"{CASE}releases/<pid:release_id>/revoke/", views.release_revoke, name="release_revoke"),
    path(f"{CASE}research-consent/", views.research_consent, name="research_consent"),
    path(f"{CASE}referral-pack/", views.referral_pack, name="referral_pack"),
    path(f"{CASE}evidence-pack/", views.evidence_pack, name="evidence_pack"),
    path(f"{CASE}case-export/", views.case_export, name="case_export"),
    path(f"{EXPORT}", views.prepared_export, name="prepared_export"),
    path(f"{EXPORT}progress/", views.prepared_export_progress, name="prepared_export_progress"),
    path(f"{EXPORT}download/", views.prepared_export_download, name="prepared_export_download"),
    path(f"{EXPORT}retry/", views.prepared_export_retry, name="prepared_export_retry"),
    path(
        "cases/<pid:public_id>/agreements/<pid:agreement_id>/chronology/share/",
        views.chronology_share,
        name="chronology_share",
    ),
    path("cases/<pid:public_id>/timeline/share/", views.timeline_share, name="timeline_share"),
    path(f"{CASE}own-copy/", views.own_copy, name="own_copy"),
    path(f"{CASE}compelled/new/", views.compelled_new, name="compelled_new"),
    path("confidentiality/purges/", views.purges, name="purges"),
    path("confidentiality/purges/approve/", views.purge_approve, name="purge_approve"),
    path("confidentiality/purges/execute/", views.purge_execute, name="purge_execute"),
    path("confidentiality/purges/hold/", views.legal_hold_place, name="legal_hold_place"),
    path("confidentiality/purges/hold/lift/", views.legal_hold_lift, name="legal_hold_lift"),
    path("confidentiality/retention/", views.retention, name="retention"),
    path("confidentiality/fields/", views.field_settings, name="fields"),
    path("confidentiality/reports/", views.reports, name="reports"),
    path("confidentiality/reports/csv/", views.report_csv, name="report_csv"),
]
