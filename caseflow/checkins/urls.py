"""Check-in pages under /checkins/, and the safe-contact profile on its case's page,
/cases/<id>/safe-contact/ (where it has always been)."""

from django.urls import path

from caseflow.checkins import views

app_name = "checkins"

urlpatterns = [
    path("checkins/", views.home, name="home"),
    path("checkins/notifications/", views.notifications, name="notifications"),
    path(
        "checkins/notifications/read-all/",
        views.notifications_read_all,
        name="notifications_read_all",
    ),
    path(
        "checkins/notifications/<int:notification_id>/",
        views.notification_open,
        name="notification_open",
    ),
    path("checkins/calendar/", views.calendar, name="calendar"),
    path("checkins/calendar/<str:token>.ics", views.feed, name="feed"),
    path("cases/<pid:public_id>/safe-contact/", views.safe_contact_edit, name="safe_contact"),
    path("checkins/case/<pid:public_id>/new/", views.checkin_new, name="new"),
    path("checkins/case/<pid:public_id>/proposed/", views.proposals, name="proposals"),
    path(
        "checkins/case/<pid:public_id>/<int:checkin_id>/outcome/",
        views.checkin_outcome,
        name="outcome",
    ),
    path(
        "checkins/case/<pid:public_id>/<int:checkin_id>/cancel/",
        views.checkin_cancel,
        name="cancel",
    ),
    path("checkins/case/<pid:public_id>/followups/new/", views.followup_edit, name="followup_new"),
    path(
        "checkins/case/<pid:public_id>/followups/<int:followup_id>/",
        views.followup_edit,
        name="followup_edit",
    ),
    path(
        "checkins/case/<pid:public_id>/followups/<int:followup_id>/done/",
        views.followup_done,
        name="followup_done",
    ),
    path(
        "checkins/case/<pid:public_id>/followups/<int:followup_id>/undo/",
        views.followup_undo,
        name="followup_undo",
    ),
]
