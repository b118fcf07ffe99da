"""Integrations, referrals and reads through the API, and webhook subscriptions and deliveries.

Every operation takes the acting account (an agency admin's, or the integration's own) and
writes its audit; reads of a case are recorded as reads of that case, under the integration's
name, so they show on the case's "who accessed" page."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import Team, User
from caseflow.agreements import services as agreements
from caseflow.agreements import terms
from caseflow.agreements.models import AgreementStatus, ContactAgreement, ContactEvent
from caseflow.api import keys, webhooks
from caseflow.api.models import (
    DeliveryState,
    HighRiskNotice,
    IdempotentCall,
    ImportedContact,
    Integration,
    WebhookDelivery,
    WebhookSubscription,
)
from caseflow.audit.services import record
from caseflow.cases import journey
from caseflow.cases.fields import agency_field_config
from caseflow.cases.forms import IntakeForm
from caseflow.cases.models import OPEN_STATUSES, Case, RiskLevel, RiskLevelChange
from caseflow.inbox.models import FollowUp, FollowUpStatus
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.outbox.events import EventKind, publish
from caseflow.outbox.services import enqueue
from caseflow.reporting import reports

# --- Integrations ---------------------------------------------------------------------------


def _admin_agency(actor: User) -> int:
    """The agency whose integrations ``actor`` manages (PermissionDenied if none)."""
    agency_id = policy.agency_id_of(actor) if policy.may_manage_integrations(actor) else None
    if agency_id is None:
        raise PermissionDenied
    return agency_id


@transaction.atomic
def integration_register(
    *,
    actor: User,
    name: str,
    scopes: list[str],
    team: Team | None,
    expires_at: dt.datetime,
    allowed_addresses: str = "",
    rate_per_minute: int = 60,
) -> tuple[Integration, str]:
    """Register an integration of the actor's agency; returns it and its key (shown once)."""
    agency_id = _admin_agency(actor)
    if team is not None and team.agency_id != agency_id:
        raise PermissionDenied
    unknown = set(scopes) - set(policy.INTEGRATION_SCOPES)
    if unknown:
        raise ValueError(f"unknown scopes: {sorted(unknown)}")
    key, prefix, key_hash = keys.new_key()
    account = User.objects.create(
        username=f"integration-{prefix}",
        first_name=name[:150],
        password=make_password(None),
    )
    integration = Integration.objects.create(
        agency_id=agency_id,
        team=team,
        name=name,
        account=account,
        scopes=sorted(scopes),
        allowed_addresses=allowed_addresses.strip(),
        key_prefix=prefix,
        key_hash=key_hash,
        rate_per_minute=rate_per_minute,
        expires_at=expires_at,
        created_by=actor,
    )
    record(
        "integration.register",
        actor=actor,
        obj=integration,
        detail={"scopes": integration.scopes, "team": team.pk if team else None},
    )
    return integration, key


@transaction.atomic
def integration_revoke(*, actor: User, integration: Integration) -> None:
    """End the integration's access: its next call is refused."""
    if integration.agency_id != _admin_agency(actor):
        raise PermissionDenied
    if integration.revoked_at is not None:
        return
    integration.revoked_at = timezone.now()
    integration.save(update_fields=["revoked_at"])
    User.objects.filter(pk=integration.account_id).update(is_active=False)
    record("integration.revoke", actor=actor, obj=integration)


def agency_integrations(*, actor: User) -> list[Integration]:
    return list(
        Integration.objects.filter(agency_id=_admin_agency(actor))
        .select_related("team")
        .order_by("revoked_at", "name")
    )


def agency_integration(agency_id: int, public_id: str) -> Integration:
    """The agency's integration behind ``public_id`` (404 for another agency's)."""
    found = Integration.objects.filter(public_id=public_id, agency_id=agency_id).first()
    if found is None:
        raise Http404
    return found


# --- Referrals ------------------------------------------------------------------------------


class IdempotencyConflict(Exception):
    """The key was used before for a different body (or by a call still running)."""


class ReferralInvalid(Exception):
    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("referral invalid")
        self.errors = errors


#: JSON field -> intake form field.
REFERRAL_FIELDS = {
    "team": "team",
    "summary": "summary",
    "survivor.full_name": "survivor_full_name",
    "survivor.date_of_birth": "survivor_date_of_birth",
    "survivor.phone": "survivor_phone",
    "survivor.email": "survivor_email",
    "survivor.language": "survivor_language",
    "other_party.full_name": "other_full_name",
    "other_party.date_of_birth": "other_date_of_birth",
}


def _flatten(data: dict[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for name, value in data.items():
        if isinstance(value, dict):
            for inner, v in value.items():
                flat[f"{name}.{inner}"] = v
        else:
            flat[name] = value
    return flat


def _digest(data: dict[str, Any]) -> str:
    """A keyed digest of the body: repeats compare equal, the body is not kept."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str).encode()
    return hmac.new(settings.BLIND_INDEX_KEY.encode(), canonical, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]
    replayed: bool = False


def referral_create(
    *, actor: User, integration: Integration, data: dict[str, Any], idempotency_key: str = ""
) -> Answer:
    """A referral sent by ``integration``, validated by the intake form itself, opened by
    :func:`caseflow.cases.journey.referral_receive`. With ``idempotency_key`` a repeat gets the
    first answer and writes nothing; the same key with another body is a conflict."""
    return _once(
        integration=integration,
        idempotency_key=idempotency_key,
        digest=_digest(data),
        run=lambda: _open_referral(actor=actor, integration=integration, data=data),
    )


def _once(
    *, integration: Integration, idempotency_key: str, digest: str, run: Callable[[], Answer]
) -> Answer:
    """``run()`` in a transaction, once per ``idempotency_key`` (when there is one): a repeat
    with the same body digest gets the first answer and writes nothing; another body under the
    same key, or a call racing one with the same key, is an :class:`IdempotencyConflict`."""
    try:
        with transaction.atomic():
            if idempotency_key:
                found = IdempotentCall.objects.filter(
                    integration=integration, key=idempotency_key
                ).first()
                if found is not None:
                    if not hmac.compare_digest(found.body_digest, digest):
                        raise IdempotencyConflict()
                    return Answer(found.status, found.response, replayed=True)
            answer = run()
            if idempotency_key:
                with transaction.atomic():
                    IdempotentCall.objects.create(
                        integration=integration,
                        agency_id=integration.agency_id,
                        key=idempotency_key,
                        body_digest=digest,
                        status=answer.status,
                        response=answer.body,
                    )
            return answer
    except IntegrityError:
        # Another call with the same key won the race: this one wrote nothing.
        raise IdempotencyConflict() from None


def _open_referral(*, actor: User, integration: Integration, data: dict[str, Any]) -> Answer:
    teams = policy.integration_intake_teams(integration)
    flat = _flatten(data)
    if integration.team_id is not None and "team" not in flat:
        team = teams.first()
        flat["team"] = team.name if team else ""
    team_pk = teams.filter(name=flat.get("team", "")).values_list("pk", flat=True).first()
    form_data = {form: flat[name] for name, form in REFERRAL_FIELDS.items() if name in flat}
    form_data["team"] = team_pk or ""
    for name in ("survivor_date_of_birth", "other_date_of_birth"):
        if form_data.get(name) is None:
            form_data.pop(name, None)
    form = IntakeForm(
        {k: "" if v is None else v for k, v in form_data.items()},
        teams=teams,
        field_config=agency_field_config(integration.agency_id),
    )
    errors: dict[str, list[str]] = {}
    back = {form_name: name for name, form_name in REFERRAL_FIELDS.items()}
    for name, form_name in REFERRAL_FIELDS.items():
        if name in flat and form_name not in form.fields and flat[name] not in ("", None):
            errors[name] = ["This agency does not collect this field."]
    if not form.is_valid():
        for form_name, messages in form.errors.items():
            errors[back.get(form_name, form_name)] = [str(m) for m in messages]
    if errors:
        raise ReferralInvalid(errors)
    try:
        case = journey.referral_receive(
            actor=actor,
            integration=integration,
            team=form.cleaned_data["team"],
            survivor=form.survivor(),
            other_party=form.other_party(),
            summary=form.cleaned_data.get("summary", ""),
        )
    except ValidationError as exc:
        raise ReferralInvalid({"": [str(m) for m in exc.messages]}) from None
    return Answer(201, {"id": case.public_id, "status": case.status})


# --- Contact events (a co-parenting app's export) -------------------------------------------


class ContactsInvalid(Exception):
    def __init__(self, errors: dict[str, list[str]]):
        super().__init__("contact events invalid")
        self.errors = errors


class ContactsRaced(Exception):
    """Another call recorded some of the same messages at the same moment: this one wrote
    nothing (sending it again answers which were recorded)."""


#: ``sender`` in the API -> the contact log's direction.
SENDERS = {
    "other_party": terms.Direction.TO_SURVIVOR,
    "survivor": terms.Direction.FROM_SURVIVOR,
}
SENDER_OF = {direction.value: sender for sender, direction in SENDERS.items()}


def contact_events_record(
    *,
    actor: User,
    integration: Integration,
    public_id: str,
    data: dict[str, Any],
    idempotency_key: str = "",
) -> Answer:
    """Record the contact events of a co-parenting app's export on the case behind
    ``public_id``, all or none, each through the contact log
    (:func:`caseflow.agreements.services.event_log`: checked against the agreement's terms, the
    other party's contact waiting for the advocate's review in the breach register's own way, the
    survivor's own recorded as within or outside what was agreed, never as a breach). An event
    whose ``message_id`` was recorded on the case before is not recorded again: its answer says
    so. With ``idempotency_key`` a repeat of the whole call gets the first answer."""
    case = policy.get_case_for_integration(integration, public_id, policy.SCOPE_CONTACTS_WRITE)
    return _once(
        integration=integration,
        idempotency_key=idempotency_key,
        digest=_digest({"contact-events": case.public_id, **data}),
        run=lambda: _record_contacts(actor=actor, integration=integration, case=case, data=data),
    )


def _source_digest(case: Case, message_id: str) -> str:
    return _digest({"case": case.public_id, "message": message_id})


def _agreement_for(case: Case, agreement_id: str) -> ContactAgreement:
    """The agreement named, or the case's one active agreement."""
    agreements = ContactAgreement.objects.filter(case=case)
    if agreement_id:
        found = agreements.filter(public_id=agreement_id).first()
        if found is None:
            raise ContactsInvalid({"agreement": [str(_("No such agreement on this case."))]})
    else:
        active = list(agreements.filter(status=AgreementStatus.ACTIVE)[:2])
        if not active:
            raise ContactsInvalid(
                {
                    "agreement": [
                        str(_("This case has no active contact agreement to check against."))
                    ]
                }
            )
        if len(active) > 1:
            raise ContactsInvalid(
                {"agreement": [str(_("This case has several active agreements: name one."))]}
            )
        found = active[0]
    found.case = case
    return found


def _outcome(row: ContactEvent, message_id: str | None, *, new: bool) -> dict[str, Any]:
    """What the answer says of one event: codes only, never the event's text nor the checker's
    sentences (they may quote it)."""
    outside = [
        {"term": str(v.get("term", "")), "code": str(v.get("code", ""))}
        for v in (row.proposed or [])
    ]
    return {
        "message_id": message_id,
        "id": row.public_id,
        "new": new,
        "sender": SENDER_OF.get(row.direction, row.direction),
        "within_agreement": row.version_number is not None and not outside,
        "agreement_in_force": row.version_number is not None,
        "outside": outside,
        "review": row.review,
    }


def _record_contacts(
    *, actor: User, integration: Integration, case: Case, data: dict[str, Any]
) -> Answer:
    agreement = _agreement_for(case, data.get("agreement") or "")
    items: list[dict[str, Any]] = list(data["events"])
    errors: dict[str, list[str]] = {}
    parsed: list[terms.ContactEvent | None] = []
    for index, item in enumerate(items):
        try:
            parsed.append(
                terms.ContactEvent(
                    occurred_at=item["occurred_at"],
                    channel=terms.Channel(item.get("channel") or terms.Channel.APP),
                    direction=SENDERS[item["sender"]],
                    topic=item.get("topic") or "",
                    kind=terms.EventKind(item.get("kind") or terms.EventKind.MESSAGE),
                    handover_missed=bool(item.get("handover_missed", False)),
                    direct_contact_at_handover=bool(item.get("direct_contact_at_handover", False)),
                )
            )
        except terms.TermsError as exc:
            errors[f"events.{index}.{exc.field}"] = [str(_("Not valid for this kind of contact."))]
            parsed.append(None)
    digests: list[str | None] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        message_id = item.get("message_id") or ""
        digest = _source_digest(case, message_id) if message_id else None
        if digest is not None and digest in seen:
            errors[f"events.{index}.message_id"] = [str(_("Sent twice in this batch."))]
        if digest is not None:
            seen.add(digest)
        digests.append(digest)
    if errors:
        raise ContactsInvalid(errors)
    earlier = {
        row.source_digest: row.event
        for row in ImportedContact.objects.filter(case=case, source_digest__in=seen).select_related(
            "event"
        )
    }
    events = [event for event in parsed if event is not None]
    assert len(events) == len(items)
    outcomes: list[dict[str, Any] | None] = [None] * len(items)
    new_rows: list[tuple[str | None, ContactEvent]] = []
    # Oldest first: each event is checked against those before it (the frequency cap counts).
    for index in sorted(range(len(items)), key=lambda i: (events[i].occurred_at, i)):
        message_id = items[index].get("message_id") or None
        digest = digests[index]
        if digest is not None and digest in earlier:
            found = earlier[digest]
            found.case = case
            outcomes[index] = _outcome(found, message_id, new=False)
            continue
        row = agreements.event_log(
            actor=actor,
            agreement=agreement,
            event=events[index],
            description=items[index].get("text") or "",
            integration=integration,
        )
        new_rows.append((digest, row))
        outcomes[index] = _outcome(row, message_id, new=True)
    try:
        with transaction.atomic():
            ImportedContact.objects.bulk_create(
                [
                    ImportedContact(
                        case=case,
                        agency_id=case.agency_id,
                        event=row,
                        integration=integration,
                        source_digest=digest,
                    )
                    for digest, row in new_rows
                    if digest is not None
                ]
            )
    except IntegrityError:
        raise ContactsRaced() from None
    record(
        "api.contacts.write",
        actor=actor,
        case=case,
        obj=case,
        detail={
            "integration": integration.public_id,
            "agreement": agreement.public_id,
            "recorded": [row.public_id for _digest, row in new_rows],
            "already_recorded": len(items) - len(new_rows),
        },
    )
    body = {
        "case": case.public_id,
        "agreement": agreement.public_id,
        "recorded": len(new_rows),
        "already_recorded": len(items) - len(new_rows),
        "events": outcomes,
    }
    return Answer(201 if new_rows else 200, body)


# --- Reading cases --------------------------------------------------------------------------


def case_summary(*, actor: User, integration: Integration, public_id: str) -> dict[str, Any]:
    """What the integration may read of one case; a recorded read of it."""
    case = policy.get_case_for_integration(integration, public_id)
    narrative = policy.integration_may(integration, policy.SCOPE_CASES_NARRATIVE)
    record(
        "api.case.read",
        actor=actor,
        case=case,
        obj=case,
        detail={"integration": integration.public_id, "narrative": narrative},
    )
    body: dict[str, Any] = {
        "id": case.public_id,
        "reference": case.reference,
        "status": case.status,
        "risk_level": case.risk_level,
        "team": case.team.name,
        "opened_at": case.opened_at,
        "closed_at": case.closed_at,
        "assigned": case.primary_advocate_id is not None,
    }
    if narrative:
        body["summary"] = case.summary
    return body


def case_followups(
    *, actor: User, integration: Integration, public_id: str
) -> list[dict[str, Any]]:
    """The case's open follow-ups (kind and due time; details only with the narrative scope)."""
    case = policy.get_case_for_integration(integration, public_id)
    narrative = policy.integration_may(integration, policy.SCOPE_CASES_NARRATIVE)
    record(
        "api.followups.read",
        actor=actor,
        case=case,
        obj=case,
        detail={"integration": integration.public_id, "narrative": narrative},
    )
    rows = []
    for followup in FollowUp.objects.filter(case=case, status=FollowUpStatus.OPEN).order_by(
        "due_at", "pk"
    ):
        row: dict[str, Any] = {
            "kind": followup.kind,
            "due_at": followup.due_at,
            "status": followup.status,
        }
        if narrative:
            row["details"] = followup.details
        rows.append(row)
    return rows


# --- Reports --------------------------------------------------------------------------------


def _first_day(agency_id: int) -> dt.date | None:
    first = Case.objects.filter(agency_id=agency_id).order_by("opened_at").first()
    return None if first is None else timezone.localdate(first.opened_at)


def report_periods(*, integration: Integration) -> list[dict[str, Any]]:
    """Each report and the fixed periods it is given out for (the same list as the page's)."""
    if not policy.integration_may(integration, policy.SCOPE_REPORTS):
        raise PermissionDenied
    first = _first_day(integration.agency_id)
    return [
        {
            "report": slug,
            "title": str(kind.title),
            "periods": [
                {"start": p.start, "end": p.end}
                for p in reports.periods(kind.period, timezone.localdate(), first)
            ],
        }
        for slug, kind in reports.REPORTS.items()
    ]


class UnknownPeriod(Exception):
    pass


def report_figures(
    *, actor: User, integration: Integration, slug: str, start: dt.date
) -> dict[str, Any]:
    """Report ``slug`` for its fixed period starting on ``start``, suppressed as on the page
    (a hidden cell is "*" with no value). Audited like a generation on the page."""
    if not policy.integration_may(integration, policy.SCOPE_REPORTS):
        raise PermissionDenied
    kind = reports.REPORTS.get(slug)
    if kind is None:
        raise UnknownPeriod()
    period = next(
        (
            p
            for p in reports.periods(
                kind.period, timezone.localdate(), _first_day(integration.agency_id)
            )
            if p.start == start
        ),
        None,
    )
    if period is None:
        raise UnknownPeriod()
    report = reports.release(slug, integration.agency_id, period)
    record(
        "report.funder",
        actor=actor,
        agency_id=integration.agency_id,
        detail={
            "report": slug,
            "from": period.start.isoformat(),
            "to": period.end.isoformat(),
            "format": "api",
            "cells": report.cells,
            "suppressed": report.suppressed,
            "integration": integration.public_id,
        },
    )
    return {
        "report": slug,
        "title": str(report.title),
        "start": period.start,
        "end": period.end,
        "sections": [
            {
                "title": str(section.title),
                "columns": [str(c) for c in section.columns],
                "rows": [
                    {
                        "label": str(label),
                        "cells": [{"text": c.text, "value": c.value} for c in cells],
                    }
                    for label, cells in report.table(section)
                ],
            }
            for section in report.sections
        ],
    }


# --- Webhooks -------------------------------------------------------------------------------


class AddressRefused(ValueError):
    pass


def _check_url(url: str) -> None:
    """https, to a public address only (see ``webhooks.address_problem``)."""
    if webhooks.address_problem(url, resolve=True):
        raise AddressRefused(url)


@transaction.atomic
def webhook_subscribe(
    *, actor: User, url: str, kinds: list[str]
) -> tuple[WebhookSubscription, str]:
    """Subscribe ``url`` to ``kinds`` for the actor's agency; returns the signing secret (shown
    once)."""
    agency_id = _admin_agency(actor)
    _check_url(url)
    for kind in kinds:
        EventKind(kind)
    secret = secrets.token_urlsafe(32)
    subscription = WebhookSubscription(
        agency_id=agency_id,
        url=url,
        kinds=sorted(kinds),
        secret=secret,
        created_by=actor,
    )
    subscription.save()
    record("webhook.subscribe", actor=actor, obj=subscription, detail={"kinds": sorted(kinds)})
    return subscription, secret


@transaction.atomic
def webhook_end(*, actor: User, subscription: WebhookSubscription) -> None:
    if subscription.agency_id != _admin_agency(actor):
        raise PermissionDenied
    if subscription.ended_at is None:
        subscription.ended_at = timezone.now()
        subscription.save(update_fields=["ended_at"])
        record("webhook.end", actor=actor, obj=subscription)


def agency_subscriptions(*, actor: User) -> list[WebhookSubscription]:
    return list(
        WebhookSubscription.objects.filter(agency_id=_admin_agency(actor), ended_at__isnull=True)
    )


def agency_subscription(agency_id: int, public_id: str) -> WebhookSubscription:
    found = WebhookSubscription.objects.filter(public_id=public_id, agency_id=agency_id).first()
    if found is None:
        raise Http404
    return found


def recent_deliveries(*, actor: User, limit: int = 50) -> list[WebhookDelivery]:
    return list(
        WebhookDelivery.objects.filter(agency_id=_admin_agency(actor))
        .select_related("subscription")
        .order_by("-occurred_at", "-pk")[:limit]
    )


@transaction.atomic
def anyone_listening(agency_id: int, kind: str) -> bool:
    """Whether the agency has a live subscription to ``kind`` (the outbox asks before it fans
    an event out)."""
    return any(
        kind in kinds
        for kinds in WebhookSubscription.objects.filter(
            agency_id=agency_id, ended_at__isnull=True
        ).values_list("kinds", flat=True)
    )


def webhook_fanout(*, kind: str, agency_id: int, case_public_id: str, at: str) -> int:
    """One delivery per subscription of the agency to ``kind`` (once, however often this runs),
    each sent through the outbox. Nothing is sent about a restricted case."""
    case = Case.objects.filter(public_id=case_public_id, agency_id=agency_id).first()
    if case is None or case.restricted:
        return 0
    occurred_at = dt.datetime.fromisoformat(at)
    created = 0
    for subscription in WebhookSubscription.objects.filter(
        agency_id=agency_id, ended_at__isnull=True
    ):
        if kind not in subscription.kinds:
            continue
        delivery, new = WebhookDelivery.objects.get_or_create(
            subscription=subscription,
            kind=kind,
            object_id=case_public_id,
            occurred_at=occurred_at,
            defaults={"agency_id": agency_id},
        )
        if new:
            enqueue("caseflow.api.tasks.deliver_webhook", delivery_id=delivery.pk)
            created += 1
    return created


def backoff(attempts: int) -> dt.timedelta:
    """After the ``attempts``-th failure: one minute, doubling, at most six hours."""
    return dt.timedelta(seconds=min(60 * 2 ** max(attempts - 1, 0), 6 * 3600))


def delivery_attempt(*, delivery_id: int) -> webhooks.Outcome | None:
    """Send one pending delivery once and record the outcome (a worker, never a request)."""
    qs = WebhookDelivery.objects.select_related("subscription").filter(
        pk=delivery_id, state=DeliveryState.PENDING
    )
    with transaction.atomic():
        if connection.features.has_select_for_update:
            qs = qs.select_for_update(of=("self",))
        delivery = qs.first()
        if delivery is None:
            return None
        subscription = delivery.subscription
        if subscription.ended_at is not None:
            delivery.state = DeliveryState.GAVE_UP
            delivery.save(update_fields=["state"])
            return None
        body = webhooks.body_for(
            delivery.kind,
            delivery.occurred_at.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),
            delivery.object_id,
        )
        outcome = webhooks.send(
            subscription.url, secret=subscription.secret, body=body, delivery_id=delivery.public_id
        )
        now = timezone.now()
        delivery.attempts += 1
        delivery.last_attempt_at = now
        delivery.last_status = outcome.status
        delivery.last_error = outcome.error
        if outcome.delivered:
            delivery.state = DeliveryState.DELIVERED
            delivery.delivered_at = now
        elif delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
            delivery.state = DeliveryState.GAVE_UP
        else:
            delivery.next_attempt_at = now + backoff(delivery.attempts)
        delivery.save()
    return outcome


#: A retry handed to the outbox is not handed again for this long (its task runs first).
RETRY_LEASE = dt.timedelta(minutes=10)


def delivery_retry_sweep(*, batch_size: int = 200) -> int:
    """Send again every delivery a receiver has not accepted whose back-off is over."""
    now = timezone.now()
    with transaction.atomic():
        qs = WebhookDelivery.objects.filter(
            state=DeliveryState.PENDING, attempts__gt=0, next_attempt_at__lte=now
        ).order_by("next_attempt_at")
        if connection.features.has_select_for_update_skip_locked:
            qs = qs.select_for_update(skip_locked=True)
        ids = list(qs.values_list("pk", flat=True)[:batch_size])
        WebhookDelivery.objects.filter(pk__in=ids).update(next_attempt_at=now + RETRY_LEASE)
        for pk in ids:
            enqueue("caseflow.api.tasks.deliver_webhook", delivery_id=pk)
    return len(ids)


# --- High-risk cases without a plan ---------------------------------------------------------


def _high_risk_since() -> Any:
    """When the case's risk last became high: the latest change to high from another level (or
    from none), else the case's opening (a level set before changes were recorded)."""
    became_high = (
        RiskLevelChange.objects.filter(case=OuterRef("pk"), level=RiskLevel.HIGH)
        .exclude(previous=RiskLevel.HIGH)
        .order_by("-at", "-pk")
        .values("at")[:1]
    )
    return Coalesce(Subquery(became_high), F("opened_at"))


def high_risk_sweep(*, now: dt.datetime | None = None, batch_size: int = 200) -> int:
    """Tell the agency's subscribed systems of each open high-risk case that has had no safety
    plan for ``HIGH_RISK_PLAN_GRACE_HOURS`` since its risk became high: once per case and
    occurrence (a case whose risk falls and becomes high again, still without a plan, is told
    again). Claims its batch with ``SKIP LOCKED`` (two sweeps never take the same cases); the
    notice row makes a repeat, or a retried sweep, tell nobody twice. Returns the cases told."""
    now = now or timezone.now()
    cutoff = now - dt.timedelta(hours=settings.HIGH_RISK_PLAN_GRACE_HOURS)
    told = 0
    while True:
        with transaction.atomic():
            due = (
                Case.objects.filter(status__in=OPEN_STATUSES, risk_level=RiskLevel.HIGH)
                .filter(Q(safety_plan__isnull=True) | Q(safety_plan__version=0))
                .annotate(since=_high_risk_since())
                .filter(since__lte=cutoff)
                .exclude(
                    Exists(
                        HighRiskNotice.objects.filter(case=OuterRef("pk"), since=OuterRef("since"))
                    )
                )
                .order_by("pk")
            )
            if connection.features.has_select_for_update_skip_locked:
                due = due.select_for_update(skip_locked=True, of=("self",))
            rows = list(due.values("pk", "public_id", "agency_id", "since")[:batch_size])
            if not rows:
                return told
            HighRiskNotice.objects.bulk_create(
                [
                    HighRiskNotice(
                        case_id=row["pk"], agency_id=row["agency_id"], since=row["since"]
                    )
                    for row in rows
                ],
                ignore_conflicts=True,
            )
            record("api.high_risk_without_plan", detail={"cases": [row["pk"] for row in rows]})
            # Is anyone listening: asked once per agency of the batch.
            listening: dict[int, bool] = {}
            for row in rows:
                agency_id = row["agency_id"]
                if agency_id not in listening:
                    listening[agency_id] = anyone_listening(
                        agency_id, EventKind.HIGH_RISK_WITHOUT_PLAN
                    )
                if listening[agency_id]:
                    publish(
                        EventKind.HIGH_RISK_WITHOUT_PLAN,
                        agency_id=agency_id,
                        case_public_id=row["public_id"],
                    )
            told += len(rows)
        if len(rows) < batch_size:
            return told
