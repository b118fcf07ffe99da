"""Co-parenting contact-boundary agreements, their versions, the contact log, the breaches.

The terms of each version are the JSON of :class:`caseflow.agreements.terms.Agreement`, encrypted
with the case's data key because they hold free text (topics, a handover place). Versions are never
changed once written; the agreement row carries a ``lock`` counter for optimistic concurrency.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.timezone import now

from caseflow.accounts.models import Agency
from caseflow.agreements.labels import CHANNEL_LABELS, DIRECTION_LABELS, KIND_LABELS
from caseflow.cases.models import CaseOwned, Party, new_public_id
from caseflow.lib.encryption import EncryptedJSONField, EncryptedTextField
from caseflow.lib.i18n import gettext_lazy as _


class AgreementFollowUpKind(models.TextChoices):
    """Follow-ups the contact agreements create (registered with the inbox)."""

    BREACH_ESCALATION = "breach_escalation", _("Breach escalation")


class AgreementStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    ACTIVE = "active", _("Active")
    SUPERSEDED = "superseded", _("Superseded")
    ENDED = "ended", _("Ended")


#: Which status changes are allowed. Superseded and ended agreements stay on record unchanged.
STATUS_TRANSITIONS: dict[str, set[str]] = {
    AgreementStatus.DRAFT: {AgreementStatus.ACTIVE, AgreementStatus.ENDED},
    AgreementStatus.ACTIVE: {AgreementStatus.SUPERSEDED, AgreementStatus.ENDED},
    AgreementStatus.SUPERSEDED: set(),
    AgreementStatus.ENDED: set(),
}


class ContactAgreement(CaseOwned):
    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="agreements")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    status = models.CharField(
        max_length=12, choices=AgreementStatus.choices, default=AgreementStatus.DRAFT
    )
    # The linked court order: court and reference identify the family, so they are encrypted.
    court = EncryptedTextField(blank=True, default="")
    court_reference = EncryptedTextField(blank=True, default="")

    narrative_fields = ()
    # Identify the linked court order.
    kept_encrypted_fields = ("court", "court_reference")
    order_expires_on = models.DateField(null=True, blank=True)
    effective_from = models.DateField()
    # Last day the agreement applies (inclusive); empty while open-ended.
    effective_to = models.DateField(null=True, blank=True)
    timezone = models.CharField(max_length=64, default="Europe/London")
    children = models.ManyToManyField(Party, blank=True, related_name="+")
    current_number = models.PositiveIntegerField(default=0)
    # Optimistic concurrency: bumped on every save; a save based on an older value is refused.
    lock = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-effective_from", "-pk"]
        indexes = [models.Index(fields=["case", "status"])]

    def __str__(self) -> str:
        return f"Agreement from {self.effective_from:%d %b %Y}"


class VersionImmutable(Exception):
    """A stored agreement version cannot be changed."""


class AgreementVersion(CaseOwned):
    """One immutable set of terms. ``terms`` is ``terms.Agreement.to_dict()``; ``protocol`` holds
    what the checker does not reason about (response windows, who supervises handovers)."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    agreement = models.ForeignKey(
        ContactAgreement, on_delete=models.CASCADE, related_name="versions"
    )
    number = models.PositiveIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=now)
    terms = EncryptedJSONField()
    protocol = EncryptedJSONField()
    note = EncryptedTextField(blank=True, default="")

    narrative_fields = ("note",)
    # The structured terms the checker reasons about, and the structured protocol.
    kept_encrypted_fields = ("terms", "protocol")

    class Meta:
        ordering = ["agreement", "number"]
        constraints = [
            models.UniqueConstraint(fields=["agreement", "number"], name="agreement_version_unique")
        ]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise VersionImmutable("agreement versions are never changed")
        super().save(*args, **kwargs)


class ReviewState(models.TextChoices):
    PENDING = "pending", _("Awaiting review")
    NO_BREACH = "no_breach", _("No breach")
    BREACH = "breach", _("Breach recorded")
    # The survivor's own contact is never a breach (caseflow.agreements.breaches).
    SURVIVOR_WITHIN = "survivor_within", _("From the survivor, within the agreed terms")
    SURVIVOR_OUTSIDE = "survivor_outside", _("Outside the agreed terms — from the survivor")


class ContactEvent(CaseOwned):
    """One contact reported by the survivor, as logged by an advocate."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    agreement = models.ForeignKey(ContactAgreement, on_delete=models.CASCADE, related_name="events")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    occurred_at = models.DateTimeField()
    reported_at = models.DateTimeField(default=now)
    channel = models.CharField(max_length=16)
    direction = models.CharField(max_length=16)
    kind = models.CharField(max_length=16)
    topic = EncryptedTextField(blank=True, default="")
    handover_missed = models.BooleanField(default=False)
    direct_contact_at_handover = models.BooleanField(default=False)
    description = EncryptedTextField(blank=True, default="")
    # Number of the version the checker used (None: no version in force at that time).
    version_number = models.PositiveIntegerField(null=True, blank=True)
    # What the checker proposed: [{"term", "code", "message"}]; messages may quote the topic.
    proposed = EncryptedJSONField()

    # The checker's proposals may quote the topic, so they are cleared with it.
    narrative_fields = ("topic", "description", "proposed")
    kept_encrypted_fields = ()
    review = models.CharField(
        max_length=20, choices=ReviewState.choices, default=ReviewState.PENDING
    )
    logged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=now)

    class Meta:
        ordering = ["occurred_at", "pk"]
        indexes = [models.Index(fields=["agreement", "occurred_at"])]

    @property
    def summary(self) -> str:
        """Kind, channel and direction in words (no encrypted field is read)."""
        return " · ".join(
            str(label)
            for label in (
                KIND_LABELS.get(self.kind, self.kind),
                CHANNEL_LABELS.get(self.channel, self.channel),
                DIRECTION_LABELS.get(self.direction, self.direction),
            )
        )


class Severity(models.TextChoices):
    LOW = "low", _("Low")
    MEDIUM = "medium", _("Medium")
    HIGH = "high", _("High")
    CRITICAL = "critical", _("Critical")


SEVERITY_RANK = {s: i for i, s in enumerate(Severity.values)}


class Breach(CaseOwned):
    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    agreement = models.ForeignKey(
        ContactAgreement, on_delete=models.CASCADE, related_name="breaches"
    )
    event = models.OneToOneField(ContactEvent, on_delete=models.CASCADE, related_name="breach")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    occurred_at = models.DateTimeField()
    reported_at = models.DateTimeField()
    channel = models.CharField(max_length=16)
    # Names of the terms broken (terms.Term values): not sensitive, used for counting.
    terms_broken = models.JSONField(default=list)
    # The checker's messages for the confirmed terms, and the advocate's description.
    violations = EncryptedJSONField()
    description = EncryptedTextField(blank=True, default="")
    severity = models.CharField(max_length=10, choices=Severity.choices)
    police_reported = models.BooleanField(default=False)
    police_reference = EncryptedTextField(blank=True, default="")

    # violations holds the checker's messages and the advocate's description of each.
    narrative_fields = ("violations", "description")
    # A reference to find the police report.
    kept_encrypted_fields = ("police_reference",)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=now)

    class Meta:
        ordering = ["occurred_at", "pk"]
        indexes = [models.Index(fields=["case", "occurred_at"])]
        verbose_name_plural = "breaches"


class Evidence(CaseOwned):
    """A file attached to a contact event, stored encrypted with the case key under a random
    name and served only through the audited download view."""

    # Counted in the case's evidence quota (caseflow.cases.evidence).
    holds_evidence_files = True

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey(ContactEvent, on_delete=models.CASCADE, related_name="evidence")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    storage_name = models.CharField(max_length=200)
    filename = EncryptedTextField()

    narrative_fields = ()
    # Names the stored file, which is kept.
    kept_encrypted_fields = ("filename",)
    content_type = models.CharField(max_length=40)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=now)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "evidence"


class AgencyEscalationRule(models.Model):
    """When breaches call for a risk re-assessment, per agency (settings give the default)."""

    agency = models.OneToOneField(Agency, on_delete=models.CASCADE, related_name="+")
    severity_threshold = models.CharField(
        max_length=10, choices=Severity.choices, default=Severity.HIGH
    )
    count_threshold = models.PositiveIntegerField(default=3)
    window_days = models.PositiveIntegerField(default=30)


class EscalationRuleKind(models.TextChoices):
    SEVERITY = "severity", _("Severity at or above the threshold")
    FREQUENCY = "frequency", _("Too many breaches within the period")


class EscalationFiring(CaseOwned):
    """One firing of an escalation rule. ``key`` makes re-running the evaluation a no-op."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    breach = models.ForeignKey(Breach, on_delete=models.CASCADE, related_name="firings")
    rule = models.CharField(max_length=12, choices=EscalationRuleKind.choices)
    key = models.CharField(max_length=80, unique=True)
    created_at = models.DateTimeField(default=now)

    class Meta:
        ordering = ["created_at", "pk"]
