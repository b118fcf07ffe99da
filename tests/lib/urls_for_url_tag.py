"""caseflow's case pages under another prefix: a URL configuration a test switches to."""

from django.urls import include, path

urlpatterns = [path("elsewhere/", include("caseflow.cases.urls"))]
