from django.urls import path

from caseflow.oversight import views

app_name = "audit"

AUDIT = "audit/"

urlpatterns = [
    path(f"{AUDIT}", views.events, name="events"),
    path(f"{AUDIT}export.csv", views.export, name="export"),
    path(f"{AUDIT}cases/<pid:public_id>/", views.case_timeline, name="case"),
    path(f"{AUDIT}cases/<pid:public_id>/access/", views.case_access, name="case_access"),
    path(f"{AUDIT}users/<int:user_id>/", views.user_activity, name="user"),
    path(f"{AUDIT}break-glass/", views.break_glass_queue, name="break_glass"),
    path(
        f"{AUDIT}break-glass/<int:grant_id>/", views.break_glass_review, name="break_glass_review"
    ),
]
