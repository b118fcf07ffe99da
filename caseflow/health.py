"""Liveness and readiness for load balancers and docker-compose health checks."""

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_http_methods


@require_http_methods(["GET"])
def health(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
        database = "ok"
    except Exception:  # noqa: BLE001 - any failure means "not ready"
        database = "unavailable"
    status = 200 if database == "ok" else 503
    return JsonResponse({"database": database}, status=status)
