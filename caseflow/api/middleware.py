"""Records a refused call of a known integration, after the request's own transaction.

A call is refused inside the view (its key revoked or expired, an address it may not call from,
a scope it does not hold, over its rate), and the view's transaction rolls back with the
refusal (ATOMIC_REQUESTS, and DRF marks it for rollback): so the authentication and permission
classes only note the refusal on the request, and this middleware writes it once the view's
transaction is over. Only calls whose key belongs to an integration are recorded: a key that
matches nothing names nobody, and recording every such call would let anyone fill the trail.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from caseflow.audit.services import record

#: The attribute of the Django request that holds ``(integration, reason)``.
REFUSAL = "caseflow_api_refusal"


def note_refusal(request: Any, integration: Any, reason: str) -> None:
    """Remember that ``integration``'s call was refused for ``reason`` (the first one counts)."""
    django_request = getattr(request, "_request", request)
    if getattr(django_request, REFUSAL, None) is None:
        setattr(django_request, REFUSAL, (integration, reason))


class RefusedCallAuditMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        refusal = getattr(request, REFUSAL, None)
        if refusal is not None and response.status_code >= 400:
            integration, reason = refusal
            record(
                "api.refused",
                actor=integration.account,
                obj=integration,
                agency_id=integration.agency_id,
                detail={"reason": reason, "status": response.status_code},
            )
        return response
