"""Transfer pages: on the sending case under /cases/<id>/transfers/, and the receiving agency's
under /transfers/. No personal data in any URL: the case's and the transfer's public ids only."""

from django.urls import path

from caseflow.transfers import views

app_name = "transfers"

CASE = "cases/<pid:public_id>/transfers/"

urlpatterns = [
    path(f"{CASE}new/", views.transfer_request, name="request"),
    path(f"{CASE}external/", views.transfer_external, name="external"),
    path("transfers/incoming/", views.incoming, name="incoming"),
    path("transfers/<pid:transfer_id>/", views.decide, name="decide"),
]
