"""The agency admin's pages under /integrations/."""

from django.urls import path

from caseflow.api import views

app_name = "integrations"

urlpatterns = [
    path("integrations/", views.integration_list, name="list"),
    path("integrations/new/", views.integration_new, name="new"),
    path(
        "integrations/<pid:integration_id>/revoke/",
        views.integration_revoke,
        name="revoke",
    ),
    path("integrations/webhooks/new/", views.subscription_new, name="subscription_new"),
    path(
        "integrations/webhooks/<pid:subscription_id>/end/",
        views.subscription_end,
        name="subscription_end",
    ),
]
