from django.urls import path

from caseflow.reporting import views

app_name = "reporting"

urlpatterns = [
    path("", views.report_list, name="list"),
    path("<slug:slug>/", views.report_preview, name="preview"),
    path("<slug:slug>/csv/", views.report_csv, name="csv"),
]
