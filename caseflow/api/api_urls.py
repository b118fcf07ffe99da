"""The API, version 1, under /api/v1/, with its OpenAPI schema and documentation page."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from caseflow.api import endpoints
from caseflow.api.docs import ApiDocs

app_name = "api"

V1 = "api/v1/"

urlpatterns = [
    path(f"{V1}referrals/", endpoints.referrals, name="referrals"),
    path(f"{V1}cases/<pid:public_id>/summary/", endpoints.case_summary, name="case_summary"),
    path(f"{V1}cases/<pid:public_id>/follow-ups/", endpoints.case_followups, name="case_followups"),
    path(
        f"{V1}cases/<pid:public_id>/contact-events/",
        endpoints.contact_events,
        name="contact_events",
    ),
    path(f"{V1}reports/", endpoints.report_list, name="reports"),
    path(f"{V1}reports/<slug:slug>/<str:start>/", endpoints.report_figures, name="report"),
    path(f"{V1}schema/", SpectacularAPIView.as_view(), name="schema"),
    path(f"{V1}docs/", ApiDocs.as_view(url_name="api:schema"), name="docs"),
]
