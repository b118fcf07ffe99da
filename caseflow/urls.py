"""Every app once, each spelling its own full prefix in its ``urls.py``."""

from django.contrib import admin
from django.urls import include, path

handler400 = "caseflow.errors.bad_request"
handler403 = "caseflow.errors.permission_denied"
handler404 = "caseflow.errors.page_not_found"
handler500 = "caseflow.errors.server_error"

urlpatterns = [
    path("", include("caseflow.platform.urls")),
    path("", include("caseflow.accounts.urls")),
    path("", include("caseflow.agency.urls")),
    path("", include("caseflow.cases.urls")),
    path("", include("caseflow.safety.urls")),
    path("", include("caseflow.agreements.urls")),
    path("", include("caseflow.casework.urls")),
    path("", include("caseflow.confidentiality.urls")),
    path("", include("caseflow.oversight.urls")),
    path("", include("caseflow.partners.urls")),
    path("", include("caseflow.calls.urls")),
    path("", include("caseflow.community.urls")),
    path("", include("caseflow.reporting.urls")),
    path("", include("caseflow.shelter.urls")),
    path("", include("caseflow.court.urls")),
    path("", include("caseflow.servicelog.urls")),
    path("", include("caseflow.transfers.urls")),
    path("", include("caseflow.cycle.urls")),
    path("", include("caseflow.wellbeing.urls")),
    path("", include("caseflow.assistance.urls")),
    path("", include("caseflow.imports.urls")),
    path("", include("caseflow.checkins.urls")),
    path("", include("caseflow.api.urls")),
    path("", include("caseflow.api.api_urls")),
    path("operator/", admin.site.urls),
]
