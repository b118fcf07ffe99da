from django.contrib import admin
from django.urls import include, path

from caseflow import health
from caseflow.cases import views as case_views

handler500 = "caseflow.accounts.views.server_error"

urlpatterns = [
    path("", case_views.dashboard, name="dashboard"),
    path("accounts/", include("caseflow.accounts.urls")),
    path("cases/", include("caseflow.cases.urls")),
    path("health/", health.health, name="health"),
    path("operator/", admin.site.urls),
]
