"""Writing audit events: synchronously, in the caller's transaction, failing closed.

An event is inserted with no place in the chain and no lock: requests never wait for one
another here. The sequencer (:mod:`caseflow.audit.sequencer`) chains committed events within
seconds; a rolled-back request leaves no event to chain.

Callers name the acting user; the request id and client address come from the request context
(:mod:`caseflow.lib.request_context`) that the middleware sets for a web request and the task
base for a Celery task, so no service needs the HTTP request to be audited."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from caseflow.audit import actions
from caseflow.audit.actions import is_read
from caseflow.audit.models import AuditEvent
from caseflow.lib import request_context

log = logging.getLogger(__name__)


class AuditWriteError(Exception):
    """The audit event could not be written; the action it records must not happen."""


def _actor_fields(actor: Any) -> tuple[int | None, str, int | None]:
    if actor is None or not getattr(actor, "is_authenticated", False):
        return None, "", None
    membership = getattr(actor, "membership_or_none", None)
    role = "operator" if actor.is_superuser else (membership.role if membership else "")
    if not role and getattr(actor, "coalition_seat_or_none", None) is not None:
        role = "coalition"
    agency_id = membership.agency_id if membership else None
    return actor.pk, role, agency_id


def record(
    action: str,
    *,
    actor: Any = None,
    case: Any = None,
    obj: Any = None,
    object_type: str = "",
    object_id: str = "",
    agency_id: int | None = None,
    detail: dict[str, Any] | None = None,
    at: dt.datetime | None = None,
) -> AuditEvent:
    """Record one event, in the caller's transaction (the sequencer chains it once committed).
    Raises :class:`AuditWriteError` if it cannot be written.

    ``actor`` is the acting user (``None`` or anonymous for an event nobody signed in caused).
    The event carries the request id and client address of the request context, if any.

    ``detail`` must hold identifiers and field *names* only, never a sensitive value.

    ``action`` must be registered in :mod:`caseflow.audit.actions`; an unregistered action
    raises :class:`~caseflow.audit.actions.UnknownAction` in every environment, production
    included. Like a failed write, it fails closed: an event whose kind is unknown could be
    left out of "who accessed this case", so the action it records must not happen.
    """
    actions.get(action)
    context = request_context.current()
    actor_id, role, actor_agency = _actor_fields(actor)
    if obj is not None:
        object_type = object_type or type(obj).__name__.lower()
        object_id = object_id or str(getattr(obj, "public_id", None) or obj.pk)
    if case is not None:
        agency_id = agency_id or case.agency_id
        if context is not None and case.pk in context.cover_cases:
            detail = {**(detail or {}), "as_cover": True}
    row: dict[str, Any] = {
        "at": at or timezone.now(),
        "actor_id": actor_id,
        "actor_role": role,
        "agency_id": agency_id if agency_id is not None else actor_agency,
        "case_id": case.pk if case is not None else None,
        "action": action,
        "object_type": object_type,
        "object_id": object_id,
        "request_id": context.request_id if context is not None else "",
        "ip": context.ip if context is not None else "",
        "detail": detail or {},
    }
    try:
        # No savepoint inside a caller's transaction: a failed append must fail the whole
        # transaction anyway (fail closed), and a read then costs two statements fewer.
        with transaction.atomic(savepoint=False):
            event = AuditEvent(**row)
            event.save(force_insert=True)
    except Exception as exc:
        log.error("audit write failed for action %s", action)
        raise AuditWriteError(action) from exc
    if context is not None and case is not None and is_read(action):
        context.case_reads.add(case.pk)
    return event


def case_read_recorded(case: Any) -> bool:
    """Whether the request being served has already recorded a read of ``case``."""
    context = request_context.current()
    return context is not None and case.pk in context.case_reads
