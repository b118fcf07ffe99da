from django.urls import path

from caseflow.checkins import views

app_name = "checkins"

urlpatterns = [
    path("", views.home, name="home"),
    path("notifications/", views.notifications, name="notifications"),
    path("calendar/", views.calendar, name="calendar"),
    path("calendar/<str:token>.ics", views.feed, name="feed"),
    path("case/<pid:public_id>/safe-contact/", views.safe_contact_edit, name="safe_contact"),
    path("case/<pid:public_id>/new/", views.checkin_new, name="new"),
    path("case/<pid:public_id>/<int:checkin_id>/outcome/", views.checkin_outcome, name="outcome"),
    path("case/<pid:public_id>/<int:checkin_id>/cancel/", views.checkin_cancel, name="cancel"),
    path("case/<pid:public_id>/followups/new/", views.followup_edit, name="followup_new"),
    path(
        "case/<pid:public_id>/followups/<int:followup_id>/",
        views.followup_edit,
        name="followup_edit",
    ),
    path(
        "case/<pid:public_id>/followups/<int:followup_id>/done/",
        views.followup_done,
        name="followup_done",
    ),
]
