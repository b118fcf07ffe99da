from django.urls import path

from caseflow.reporting import views

app_name = "reporting"

REPORTS = "reports/funders/"

urlpatterns = [
    path(f"{REPORTS}", views.report_list, name="list"),
    path(f"{REPORTS}<slug:slug>/", views.report_preview, name="preview"),
    path(f"{REPORTS}<slug:slug>/csv/", views.report_csv, name="csv"),
]
