"""Integrations (other systems an agency lets call the API) and webhook subscriptions.

An integration's key is shown once, when it is registered; only its prefix (to find the row)
and the SHA-256 of the whole key are kept (the key holds 256 random bits: a plain hash is as
strong as a slow one, and a call is checked in constant time). Each integration has its own
account, with no role and no password, so every event it causes is recorded under its name.
"""

from __future__ import annotations

import ipaddress

from cryptography.fernet import MultiFernet
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from caseflow.accounts.models import Agency, Team
from caseflow.cases.models import CaseOwned, new_public_id
from caseflow.lib import encryption
from caseflow.lib.encryption import EncryptedTextField
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.outbox.events import EventKind


class Integration(models.Model):
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    team = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    name = models.CharField(max_length=80)
    #: The account the integration acts as (no role, no password, no sign-in).
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="integration"
    )
    scopes = models.JSONField(default=list)
    #: One address or network (CIDR) a line; empty: any address.
    allowed_addresses = models.TextField(blank=True, default="")
    key_prefix = models.CharField(max_length=16, unique=True)
    key_hash = models.CharField(max_length=64)
    rate_per_minute = models.PositiveIntegerField(default=60)
    expires_at = models.DateTimeField()
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["agency", "name"],
                condition=Q(revoked_at__isnull=True),
                name="api_integration_name_unique",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def is_usable(self) -> bool:
        return self.revoked_at is None and self.expires_at > timezone.now()

    def networks(self) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
        return [
            ipaddress.ip_network(line.strip(), strict=False)
            for line in self.allowed_addresses.splitlines()
            if line.strip()
        ]

    def allows_address(self, address: str) -> bool:
        networks = self.networks()
        if not networks:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in networks)


class IdempotentCall(models.Model):
    """The first answer to a call made with an ``Idempotency-Key``: a repeat gets it again
    (a different body under the same key is refused). Holds ids and a keyed digest only."""

    integration = models.ForeignKey(Integration, on_delete=models.CASCADE, related_name="+")
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    key = models.CharField(max_length=100)
    #: A keyed digest of the request's body (the body itself holds personal data).
    body_digest = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    response = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["integration", "key"], name="api_idempotency_unique")
        ]


class WebhookSubscription(models.Model):
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    url = models.URLField(max_length=300)
    #: Event kinds (``caseflow.outbox.events.EventKind`` values).
    kinds = models.JSONField(default=list)
    #: The signing secret, encrypted with the deployment's keys (the HMAC needs it back).
    secret = EncryptedTextField()
    kept_encrypted_fields = ("secret",)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return self.url

    def data_key(self) -> MultiFernet:
        return encryption.master()


class DeliveryState(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    DELIVERED = "delivered", _("Delivered")
    GAVE_UP = "gave_up", _("Stopped trying")


class WebhookDelivery(models.Model):
    """One event for one subscription: sent until the receiver accepts it (2xx), with back-off,
    or until ``WEBHOOK_MAX_ATTEMPTS``. The body is rebuilt from these columns, never stored."""

    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    subscription = models.ForeignKey(
        WebhookSubscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=40, choices=EventKind.choices)
    #: The case's random public id: the receiver fetches details through the API.
    object_id = models.CharField(max_length=32)
    occurred_at = models.DateTimeField()
    state = models.CharField(
        max_length=12, choices=DeliveryState.choices, default=DeliveryState.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    #: The receiver's last HTTP status, or 0 when it could not be reached.
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The class of the last error (never its message).
    last_error = models.CharField(max_length=100, blank=True, default="")
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-occurred_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["subscription", "kind", "object_id", "occurred_at"],
                name="api_delivery_once",
            )
        ]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="api_delivery_due",
                condition=Q(state="pending"),
            )
        ]


class ImportedContact(CaseOwned):
    """A contact event another system sent (a co-parenting app's export), by the source's own
    message id: an export sent again finds its events here and records none of them twice.
    Holds a keyed digest of the message id (never the id itself, never any text of it)."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    event = models.OneToOneField(
        "agreements.ContactEvent", on_delete=models.CASCADE, related_name="+"
    )
    integration = models.ForeignKey(Integration, on_delete=models.PROTECT, related_name="+")
    #: A keyed digest of the source's message id (``services._digest``).
    source_digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    narrative_fields = ()
    kept_encrypted_fields = ()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["case", "source_digest"], name="api_imported_contact_once"
            )
        ]


class HighRiskNotice(CaseOwned):
    """A high-risk case that stayed without a safety plan past the grace period, told once per
    occurrence (``since``: when its risk last became high) to the agency's subscribers."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    since = models.DateTimeField()
    noticed_at = models.DateTimeField(default=timezone.now)

    narrative_fields = ()
    kept_encrypted_fields = ()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["case", "since"], name="api_high_risk_notice_once")
        ]
