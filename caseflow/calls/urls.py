"""The duty line's pages under /calls/ (a call on no case has no case URL to live under)."""

from django.urls import path

from caseflow.calls import views

app_name = "calls"

CALL = "calls/<pid:call_id>/"

urlpatterns = [
    path("calls/", views.call_list, name="list"),
    path("calls/new/", views.call_new, name="new"),
    path(CALL, views.call_detail, name="detail"),
    path(f"{CALL}case/new/", views.call_open_case, name="open_case"),
    path(f"{CALL}case/existing/", views.call_attach, name="attach"),
]
