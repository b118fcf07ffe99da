"""Follow-ups (advocates' tasks with due dates) and notifications (one delivery of one reminder).

Check-ins and the scheduler build on these. Other parts of caseflow create follow-ups through
``caseflow.checkins.services.followup_ensure`` and notifications through ``notify``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.cases.models import CaseOwned
from caseflow.lib.encryption import EncryptedTextField


class FollowUpKind(models.TextChoices):
    TASK = "task", "Task"
    COURT_DATE = "court_date", "Court date"
    PLAN_REVIEW = "plan_review", "Safety plan review"
    ORDER_EXPIRY = "order_expiry", "Protective order expiry"
    REASSESSMENT = "reassessment", "Risk re-assessment"
    MULTI_AGENCY_REFERRAL = "multi_agency_referral", "Multi-agency referral"
    BREACH_ESCALATION = "breach_escalation", "Breach escalation"
    RELEASE_EXPIRY = "release_expiry", "Release expiry"
    LEGAL_REVIEW = "legal_review", "Legal review"


class FollowUpStatus(models.TextChoices):
    OPEN = "open", "Open"
    DONE = "done", "Done"
    CANCELLED = "cancelled", "Cancelled"


class FollowUp(CaseOwned):
    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="followups")
    kind = models.CharField(max_length=32, choices=FollowUpKind.choices)
    # Non-identifying title (kind + reference are shown by default); details are encrypted.
    details = EncryptedTextField(blank=True, default="")
    due_at = models.DateTimeField()
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="followups",
    )
    status = models.CharField(
        max_length=12, choices=FollowUpStatus.choices, default=FollowUpStatus.OPEN
    )
    # Where a generated follow-up came from (e.g. "plan:42:review:2026-12-01"): one per source.
    source_key = models.CharField(max_length=120, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["due_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["case", "source_key"],
                condition=~models.Q(source_key=""),
                name="followup_source_unique",
            )
        ]
        indexes = [
            models.Index(fields=["status", "due_at"]),
            models.Index(fields=["assignee", "status", "due_at"]),
        ]


class NotificationChannel(models.TextChoices):
    IN_APP = "in_app", "In the app"
    EMAIL = "email", "E-mail"


class Notification(models.Model):
    """One delivery of one reminder to one user. Carries no personal data: a kind, a case
    reference and a link. Unique per (recipient, channel, subject key), so retries never send
    twice."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    channel = models.CharField(
        max_length=10, choices=NotificationChannel.choices, default=NotificationChannel.IN_APP
    )
    kind = models.CharField(max_length=40)
    case = models.ForeignKey(
        "cases.Case", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # What this is about and when it was due, e.g. "followup:17:2026-12-01T10:00Z".
    key = models.CharField(max_length=160)
    text = models.CharField(max_length=200)
    link = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "channel", "key"], name="notification_unique"
            )
        ]
        indexes = [models.Index(fields=["recipient", "read_at"])]
