"""The site's root: the home page (the cases app's today queue, :mod:`caseflow.cases.today_views`)
and the health and status pages. Their names carry no namespace (``dashboard``, ``health``,
``health_ready``, ``status``, ``scheduler_health``), as they always have: settings, templates and
the health checks of the deployment name them so."""

from django.urls import path

from caseflow.cases import today_views
from caseflow.platform import health

urlpatterns = [
    path("", today_views.dashboard, name="dashboard"),
    path("health/", health.health, name="health"),
    path("health/ready/", health.ready, name="health_ready"),
    path("health/scheduler/", health.scheduler_health, name="scheduler_health"),
    path("status/", health.status, name="status"),
]
