"""The agency admin's caseload import, under /imports/."""

from django.urls import path

from caseflow.imports import views

app_name = "imports"

urlpatterns = [
    path("imports/", views.upload, name="upload"),
    path("imports/template.csv", views.template_file, name="template"),
    path("imports/sample.csv", views.sample_file, name="sample"),
    path("imports/<pid:batch_id>/", views.batch, name="batch"),
    path("imports/<pid:batch_id>/commit/", views.commit, name="commit"),
    path("imports/<pid:batch_id>/progress/", views.batch_progress, name="progress"),
]
