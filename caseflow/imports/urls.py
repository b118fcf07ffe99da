"""The agency admin's caseload and staff imports, under /imports/."""

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
    path("imports/staff/", views.staff_upload, name="staff_upload"),
    path("imports/staff/template.csv", views.staff_template, name="staff_template"),
    path("imports/staff/sample.csv", views.staff_sample, name="staff_sample"),
    path("imports/staff/<pid:batch_id>/", views.staff_batch, name="staff_batch"),
    path("imports/staff/<pid:batch_id>/commit/", views.staff_commit, name="staff_commit"),
]
