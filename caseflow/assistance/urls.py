"""Case pages under /cases/<id>/assistance/ and the agency admin's page under /assistance/."""

from django.urls import path

from caseflow.assistance import views

app_name = "assistance"

CASE = "cases/<pid:public_id>/assistance/"

urlpatterns = [
    path(f"{CASE}payments/new/", views.payment_new, name="payment_new"),
    path(f"{CASE}payments/<pid:payment_id>/", views.payment_detail, name="payment"),
    path(f"{CASE}payments/<pid:payment_id>/decide/", views.payment_decide, name="decide"),
    path(f"{CASE}payments/<pid:payment_id>/receipts/", views.receipt_add, name="receipt_add"),
    path(f"{CASE}receipts/<pid:receipt_id>/", views.receipt_file, name="receipt"),
    path("assistance/settings/", views.assistance_settings, name="settings"),
]
