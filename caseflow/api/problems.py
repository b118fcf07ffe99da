"""Every error the API gives is RFC 9457 problem details (``application/problem+json``): a
``title`` in plain words, the ``status``, a ``detail`` and, for invalid fields, ``errors``
(field name: messages). Never an echo of what was sent: it may hold personal data."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from caseflow.lib.i18n import gettext_lazy as _

CONTENT_TYPE = "application/problem+json"


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = _("The request body is larger than this API reads.")
    default_code = "too_large"


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = _("This idempotency key was already used for a different request.")
    default_code = "conflict"


class NotGivenOut(exceptions.APIException):
    """A funder report whose small counts could not be checked, or could be worked out: nothing
    of it is given out (``caseflow.lib.suppression.Unchecked``)."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = _(
        "This report's small counts could not be checked just now, so nothing of it is given "
        "out. Ask for it again in a few minutes."
    )
    default_code = "not_checked"


class Unprocessable(exceptions.ValidationError):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY


class StrictJSONParser(JSONParser):
    """JSON only, within ``API_MAX_BODY_BYTES`` (or the view's ``max_body_setting``; refused before
    it is read), an object at the top."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        # A view that takes a batch names the setting that says how much it reads.
        view = (parser_context or {}).get("view")
        limit = getattr(settings, getattr(view, "max_body_setting", "API_MAX_BODY_BYTES"))
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        try:
            declared = int(length or 0)
        except ValueError:
            declared = limit + 1
        if declared > limit:
            raise BodyTooLarge()
        try:
            data = super().parse(stream, media_type, parser_context)
        except exceptions.ParseError:
            raise exceptions.ParseError(_("The body is not valid JSON.")) from None
        if not isinstance(data, dict):
            raise exceptions.ParseError(_("The body must be a JSON object."))
        return data


TITLES = {
    400: _("Malformed request"),
    401: _("Not authenticated"),
    403: _("Not allowed"),
    404: _("Not found"),
    405: _("Method not allowed"),
    406: _("Not acceptable"),
    409: _("Conflict"),
    413: _("Request body too large"),
    415: _("Unsupported media type"),
    422: _("Invalid fields"),
    429: _("Too many requests"),
}


def problem(status_code: int, detail: str, **extra: Any) -> Response:
    body = {
        "type": "about:blank",
        "title": str(TITLES.get(status_code, _("Error"))),
        "status": status_code,
        "detail": str(detail),
        **extra,
    }
    return Response(body, status=status_code, content_type=CONTENT_TYPE)


def _messages(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {str(k): _messages(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_messages(v) for v in detail]
    return str(detail)


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(_("No such object, or not one this integration may read."))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or _("Not allowed"))
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.ValidationError):
        detail = _("Some fields are missing or not valid: see errors.")
        extra["errors"] = _messages(exc.detail)
    else:
        detail = str(getattr(exc, "detail", "")) or str(TITLES.get(response.status_code, ""))
    result = problem(response.status_code, detail, **extra)
    for header in ("WWW-Authenticate", "Retry-After", "Allow"):
        if header in response:
            result[header] = response[header]
    return result
