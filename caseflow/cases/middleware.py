"""Records denied access to case URLs, after the request's own transaction has rolled back."""

from __future__ import annotations

from django.http import HttpRequest

from caseflow.audit.services import record
from caseflow.policy import CaseForbidden, CaseNotFound


class AccessDeniedAuditMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        # The view ran inside ATOMIC_REQUESTS and has rolled back by now: this write stands alone.
        if isinstance(exception, CaseNotFound):
            record(
                "access.denied",
                actor=getattr(request, "user", None),
                object_type="case",
                detail={
                    "status": 404,
                    "action": exception.action,
                    "path_name": getattr(request.resolver_match, "view_name", ""),
                },
            )
        elif isinstance(exception, CaseForbidden):
            record(
                "access.denied",
                actor=getattr(request, "user", None),
                case=exception.case,
                obj=exception.case,
                detail={
                    "status": 403,
                    "action": exception.action,
                    "path_name": getattr(request.resolver_match, "view_name", ""),
                },
            )
        return None
