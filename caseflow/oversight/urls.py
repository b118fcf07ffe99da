from django.urls import path

from caseflow.oversight import views

app_name = "audit"

urlpatterns = [
    path("", views.events, name="events"),
    path("export.csv", views.export, name="export"),
    path("cases/<pid:public_id>/", views.case_timeline, name="case"),
    path("cases/<pid:public_id>/access/", views.case_access, name="case_access"),
    path("users/<int:user_id>/", views.user_activity, name="user"),
    path("break-glass/", views.break_glass_queue, name="break_glass"),
    path("break-glass/<int:grant_id>/", views.break_glass_review, name="break_glass_review"),
]
