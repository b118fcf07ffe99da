from django.contrib import admin
from django.urls import include, path

from caseflow import health
from caseflow.cases import views as case_views
from caseflow.checkins import views as checkin_views

handler400 = "caseflow.errors.bad_request"
handler403 = "caseflow.errors.permission_denied"
handler404 = "caseflow.errors.page_not_found"
handler500 = "caseflow.errors.server_error"

urlpatterns = [
    path("", case_views.dashboard, name="dashboard"),
    path("accounts/", include("caseflow.accounts.urls")),
    path("accounts/", include("caseflow.agency.urls")),
    path("cases/", include("caseflow.cases.urls")),
    path("cases/<pid:public_id>/safety/", include("caseflow.safety.urls")),
    path("cases/<pid:public_id>/agreements/", include("caseflow.agreements.urls")),
    path("cases/<pid:public_id>/casework/", include("caseflow.casework.urls")),
    path("", include("caseflow.confidentiality.urls")),
    path("audit/", include("caseflow.oversight.urls")),
    path("", include("caseflow.partners.urls")),
    path("", include("caseflow.imports.urls")),
    path("reports/funders/", include("caseflow.reporting.urls")),
    path("", include("caseflow.checkins.urls")),
    path("health/", health.health, name="health"),
    path("health/ready/", health.ready, name="health_ready"),
    path("status/", health.status, name="status"),
    path("health/scheduler/", checkin_views.scheduler_health, name="scheduler_health"),
    path("operator/", admin.site.urls),
]
