"""The API's endpoints (``/api/v1/``): integrations only, by key; JSON in, JSON out; every
error as problem details (:mod:`caseflow.api.problems`)."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from caseflow import policy
from caseflow.api import problems, serializers, services
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.suppression import Told, Unchecked

logger = logging.getLogger(__name__)

PROBLEM = OpenApiResponse(serializers.ProblemOut, description="Problem details (RFC 9457).")
ERRORS = {code: PROBLEM for code in (400, 401, 403, 404, 413, 415, 422, 429)}


def _scope(scope: str):  # type: ignore[no-untyped-def]
    """Declare the scope a view needs (read by ``IsIntegration``)."""

    def mark(view):  # type: ignore[no-untyped-def]
        view.cls.required_scope = scope
        return view

    return mark


def _max_body(setting: str):  # type: ignore[no-untyped-def]
    """Declare the setting that says how large a body a view reads (read by
    ``problems.StrictJSONParser``; ``API_MAX_BODY_BYTES`` when undeclared)."""

    def mark(view):  # type: ignore[no-untyped-def]
        view.cls.max_body_setting = setting
        return view

    return mark


def _idempotency_key(request: Request) -> str:
    key = request.headers.get("Idempotency-Key", "").strip()
    if len(key) > 100:
        raise exceptions.ValidationError({"Idempotency-Key": [_("At most 100 characters.")]})
    return key


@extend_schema(
    operation_id="referral_create",
    summary="Send a referral",
    description='Opens a case in "referral" for the team to triage, checked as the intake '
    "form checks it. Scope: `referrals:write`. With an `Idempotency-Key` header a repeat gets "
    "the first answer and writes nothing; the same key with another body is a 409.",
    request=serializers.ReferralIn,
    parameters=[
        OpenApiParameter(
            "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False
        )
    ],
    responses={201: serializers.ReferralOut, 200: serializers.ReferralOut, 409: PROBLEM, **ERRORS},
)
@_scope(policy.SCOPE_REFERRALS_WRITE)
@api_view(["POST"])
def referrals(request: Request) -> Response:
    shape = serializers.ReferralIn(data=request.data)
    shape.is_valid(raise_exception=True)
    key = _idempotency_key(request)
    try:
        answer = services.referral_create(
            actor=request.user,
            integration=request.auth,
            data=dict(request.data),
            idempotency_key=key,
        )
    except services.IdempotencyConflict:
        raise problems.Conflict() from None
    except services.ReferralInvalid as exc:
        raise problems.Unprocessable(exc.errors) from None
    return Response(answer.body, status=200 if answer.replayed else answer.status)


@extend_schema(
    operation_id="contact_events_create",
    summary="Record contact events from a co-parenting app's export",
    description="Records up to 200 contact events on the case, all or none, each checked "
    "against the case's contact agreement as a contact logged by an advocate is (the active "
    "agreement, or the one named). Scope: `contacts:write`. The other party's contact waits for "
    "the advocate's review before anything is a breach; the survivor's own contact is never a "
    "breach: it is recorded as within or outside what was agreed. Each answer gives codes, never "
    "text. An event whose `message_id` was recorded on the case before is not recorded again "
    "(`new` is false); with an `Idempotency-Key` header a repeat of the whole call gets the first "
    "answer, and the same key with another body is a 409.",
    request=serializers.ContactEventsIn,
    parameters=[
        OpenApiParameter(
            "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False
        )
    ],
    responses={
        201: serializers.ContactEventsOut,
        200: serializers.ContactEventsOut,
        409: PROBLEM,
        **ERRORS,
    },
)
@_scope(policy.SCOPE_CONTACTS_WRITE)
@_max_body("API_CONTACT_EVENTS_MAX_BODY_BYTES")
@api_view(["POST"])
def contact_events(request: Request, public_id: str) -> Response:
    shape = serializers.ContactEventsIn(data=request.data)
    shape.is_valid(raise_exception=True)
    key = _idempotency_key(request)
    try:
        answer = services.contact_events_record(
            actor=request.user,
            integration=request.auth,
            public_id=public_id,
            data=dict(shape.validated_data),
            idempotency_key=key,
        )
    except services.IdempotencyConflict:
        raise problems.Conflict() from None
    except services.ContactsRaced:
        raise problems.Conflict(
            _("Some of these messages were being recorded by another call: send it again.")
        ) from None
    except services.ContactsInvalid as exc:
        raise problems.Unprocessable(exc.errors) from None
    return Response(answer.body, status=200 if answer.replayed else answer.status)


@extend_schema(
    operation_id="case_summary",
    summary="A case's summary",
    description="Scope: `cases:read-summary` (the summary text with `cases:read-narrative`). "
    "Never a restricted case, nor another team's when the integration has a team. Each read is "
    "recorded on the case.",
    responses={200: serializers.CaseSummaryOut, **ERRORS},
)
@_scope(policy.SCOPE_CASES_SUMMARY)
@api_view(["GET"])
def case_summary(request: Request, public_id: str) -> Response:
    return Response(
        serializers.CaseSummaryOut(
            services.case_summary(actor=request.user, integration=request.auth, public_id=public_id)
        ).data
    )


@extend_schema(
    operation_id="case_followups",
    summary="A case's open follow-ups",
    description="Scope: `cases:read-summary` (details with `cases:read-narrative`).",
    responses={200: serializers.FollowUpOut(many=True), **ERRORS},
)
@_scope(policy.SCOPE_CASES_SUMMARY)
@api_view(["GET"])
def case_followups(request: Request, public_id: str) -> Response:
    rows = services.case_followups(
        actor=request.user, integration=request.auth, public_id=public_id
    )
    return Response(serializers.FollowUpOut(rows, many=True).data)


@extend_schema(
    operation_id="report_list",
    summary="Funder reports and their periods",
    description="Scope: `reports:read`.",
    responses={200: serializers.ReportListOut(many=True), **ERRORS},
)
@_scope(policy.SCOPE_REPORTS)
@api_view(["GET"])
def report_list(request: Request) -> Response:
    return Response(
        serializers.ReportListOut(services.report_periods(integration=request.auth), many=True).data
    )


@extend_schema(
    operation_id="report_figures",
    summary="A funder report's aggregate figures",
    description="Scope: `reports:read`. `start` is the first day of one of the report's "
    "periods (see the list). Small counts are suppressed exactly as on the page: their text is "
    '"*" and their value null.',
    responses={200: serializers.ReportOut, **ERRORS, 503: PROBLEM},
)
@_scope(policy.SCOPE_REPORTS)
@api_view(["GET"])
def report_figures(request: Request, slug: str, start: str) -> Response:
    try:
        body: Any = services.report_figures(
            actor=request.user,
            integration=request.auth,
            slug=slug,
            start=dt.date.fromisoformat(start),
        )
    except (services.UnknownPeriod, ValueError):
        raise exceptions.NotFound(_("No such report or period.")) from None
    except Unchecked as exc:
        logger.error("report %s not given out by the API: %s", slug, exc)
        if not isinstance(exc, Told):
            raise problems.NotGivenOut() from None
        # Asking again gives the same answer: said so.
        raise problems.NotGivenOut(
            _(
                "Some small counts of this report could be worked out from the rest whatever "
                "else was hidden, so nothing of it is given out for this period. Tell the "
                "agency's IT."
            ),
            code="told",
        ) from None
    return Response(serializers.ReportOut(body).data)
