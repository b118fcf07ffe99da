from django.contrib import admin
from django.urls import include, path

from caseflow import health
from caseflow.cases import views as case_views
from caseflow.checkins import views as checkin_views

urlpatterns = [
    path("", case_views.dashboard, name="dashboard"),
    path("accounts/", include("caseflow.accounts.urls")),
    path("cases/", include("caseflow.cases.urls")),
    path("checkins/", include("caseflow.checkins.urls")),
    path("health/", health.health, name="health"),
    path("health/scheduler/", checkin_views.scheduler_health, name="scheduler_health"),
    path("operator/", admin.site.urls),
]
