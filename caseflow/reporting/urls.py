from django.urls import path

from caseflow.reporting import views

app_name = "reporting"

REPORTS = "reports/funders/"
PREPARED = "reports/prepared/<pid:report_id>/"
COALITION = "reports/coalition/"

urlpatterns = [
    path(f"{REPORTS}", views.report_list, name="list"),
    path(f"{REPORTS}<slug:slug>/", views.report_preview, name="preview"),
    path(f"{REPORTS}<slug:slug>/csv/", views.report_csv, name="csv"),
    path(f"{REPORTS}<slug:slug>/prepare/", views.report_prepare, name="prepare"),
    path(PREPARED, views.prepared, name="prepared"),
    path("reports/insights-return/", views.insights_return, name="insights_return"),
    path(COALITION, views.coalition, name="coalition"),
    path(f"{COALITION}<slug:slug>/", views.coalition_report, name="coalition_report"),
    path(f"{PREPARED}progress/", views.prepared_progress, name="prepared_progress"),
    path(f"{PREPARED}download/", views.prepared_download, name="prepared_download"),
    path(f"{PREPARED}retry/", views.prepared_retry, name="prepared_retry"),
]
