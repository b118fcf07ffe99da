"""caseflow's URLs plus the peers benchmarks compare with (used as ROOT_URLCONF by bench/run.py)."""

from django.urls import path

from bench.peers import bench_site, floor_dashboard
from caseflow.urls import urlpatterns as caseflow_urlpatterns

urlpatterns = [
    path("bench/admin/", bench_site.urls),
    path("bench/floor/dashboard/", floor_dashboard, name="bench_floor_dashboard"),
    *caseflow_urlpatterns,
]
