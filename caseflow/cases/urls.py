from django.urls import path

from caseflow.cases import cover_views, journey_views, reassign_views, views

app_name = "cases"

CASES = "cases/"

urlpatterns = [
    path(f"{CASES}", views.case_list, name="list"),
    path(f"{CASES}new/", views.case_new, name="new"),
    path(f"{CASES}break-glass/", views.break_glass, name="break_glass"),
    path(f"{CASES}find/", views.case_find, name="find"),
    path(f"{CASES}reassign/", reassign_views.reassign_cases, name="reassign"),
    path(f"{CASES}cover/", cover_views.cover_list, name="cover"),
    path(f"{CASES}cover/<pid:cover_id>/end/", cover_views.cover_end, name="cover_end"),
    path(f"{CASES}find/emergency/", views.case_find_emergency, name="find_emergency"),
    path(f"{CASES}closure-reasons/", journey_views.closure_reasons, name="closure_reasons"),
    path(f"{CASES}<pid:public_id>/", views.case_detail, name="detail"),
    path(f"{CASES}<pid:public_id>/close/", journey_views.closure, name="closure"),
    path(
        f"{CASES}<pid:public_id>/close/decide/", journey_views.closure_decide, name="closure_decide"
    ),
    path(f"{CASES}<pid:public_id>/journey/", journey_views.journey_page, name="journey"),
    path(f"{CASES}<pid:public_id>/risk/", journey_views.risk_level, name="risk"),
    path(
        f"{CASES}<pid:public_id>/reopen-requests/<pid:request_id>/",
        journey_views.reopen_request_decide,
        name="reopen_request",
    ),
    path(f"{CASES}<pid:public_id>/edit/", views.case_edit, name="edit"),
    path(f"{CASES}<pid:public_id>/assign/", views.case_assign, name="assign"),
    path(f"{CASES}<pid:public_id>/restrict/", views.case_restrict, name="restrict"),
    path(f"{CASES}<pid:public_id>/status/", views.case_status, name="status"),
    path(f"{CASES}<pid:public_id>/drafts/<str:form>/", views.draft, name="draft"),
    path(f"{CASES}<pid:public_id>/timeline/", views.case_timeline, name="timeline"),
    path(f"{CASES}<pid:public_id>/timeline/print/", views.timeline_print, name="timeline_print"),
    path(f"{CASES}<pid:public_id>/people/new/", views.party_edit, name="party_new"),
    path(f"{CASES}<pid:public_id>/people/<pid:party_id>/", views.party_edit, name="party_edit"),
]
