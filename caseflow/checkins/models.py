"""Check-ins, follow-ups (advocates' tasks with due dates) and notifications (one delivery of one
reminder), and the scheduler's heartbeat.

The database is the source of truth for what is due: the scheduler's sweep
(``caseflow.checkins.scheduler``) claims due rows by their ``reminder_stage`` and ``due_at``.
Other parts of caseflow create follow-ups through ``caseflow.checkins.services.followup_ensure``
and notifications through ``notify``.
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
    # How far the scheduler got: 0 nothing sent, 1 reminder before the due time, 2 at it.
    reminder_stage = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)

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
            models.Index(fields=["status", "reminder_stage", "due_at"], name="followup_sweep_idx"),
            # A case's next open follow-up (the "Next due" column of the case tables).
            models.Index(
                fields=["case", "due_at"],
                condition=models.Q(status="open"),
                name="followup_case_open_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on {self.case_id}"


class CheckInStatus(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    DONE = "done", "Done"
    MISSED = "missed", "Missed"
    CANCELLED = "cancelled", "Cancelled"
    UNSAFE = "unsafe", "No longer safe"


class CheckInOutcome(models.TextChoices):
    REACHED = "reached", "Reached"
    NOT_SAFE = "not_safe", "Not safe to talk"
    NO_ANSWER = "no_answer", "No answer"
    RESCHEDULED = "rescheduled", "Rescheduled"


class CheckInSchedule(CaseOwned):
    """A recurring check-in: an RFC 5545 rule from a local start, in the survivor's zone. Its
    occurrences are materialised as :class:`CheckIn` rows a few weeks ahead by the sweep."""

    case = models.ForeignKey(
        "cases.Case", on_delete=models.CASCADE, related_name="checkin_schedules"
    )
    rule = models.CharField(max_length=200)
    dtstart_local = models.CharField(max_length=16)  # "YYYY-MM-DDTHH:MM", wall time in tz
    tz = models.CharField(max_length=64)
    channel = models.CharField(max_length=16)
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="checkin_schedules"
    )
    active = models.BooleanField(default=True)
    # Occurrences before this instant exist as rows.
    generated_until = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["active", "generated_until"])]


class CheckInQuerySet(models.QuerySet):
    def open(self):
        return self.filter(status=CheckInStatus.SCHEDULED)

    def due(self, now, *, lead, grace):
        """Scheduled check-ins with a scheduler step due at ``now``."""
        return self.filter(status=CheckInStatus.SCHEDULED).filter(
            models.Q(reminder_stage=0, due_at__lte=now + lead)
            | models.Q(reminder_stage=1, due_at__lte=now)
            | models.Q(reminder_stage=2, due_at__lte=now - grace)
        )


class CheckIn(CaseOwned):
    """One scheduled contact with the survivor, at ``due_at`` (UTC) on ``channel``."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="checkins")
    schedule = models.ForeignKey(
        CheckInSchedule,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="occurrences",
    )
    channel = models.CharField(max_length=16)
    due_at = models.DateTimeField()
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="checkins"
    )
    status = models.CharField(
        max_length=12, choices=CheckInStatus.choices, default=CheckInStatus.SCHEDULED
    )
    outcome = models.CharField(
        max_length=12, choices=CheckInOutcome.choices, blank=True, default=""
    )
    note = EncryptedTextField(blank=True, default="")
    outcome_at = models.DateTimeField(null=True, blank=True)
    # 0 nothing sent, 1 reminder before the due time, 2 at it, 3 missed and escalated.
    reminder_stage = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)

    objects = CheckInQuerySet.as_manager()

    class Meta:
        ordering = ["due_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["schedule", "due_at"],
                condition=models.Q(schedule__isnull=False),
                name="checkin_occurrence_unique",
            )
        ]
        indexes = [
            models.Index(fields=["status", "reminder_stage", "due_at"], name="checkin_sweep_idx"),
            models.Index(fields=["assignee", "status", "due_at"]),
            models.Index(fields=["case", "due_at"]),
            # A case's next scheduled check-in (the "Next due" column of the case tables): one
            # index row, where the index above walks past every done check-in of the case first.
            models.Index(
                fields=["case", "due_at"],
                condition=models.Q(status="scheduled"),
                name="checkin_case_next_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"Check-in on {self.case_id} at {self.due_at:%Y-%m-%d %H:%M}"


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
    # When a delivery task was last enqueued: the sweep re-enqueues what is still unsent later.
    enqueued_at = models.DateTimeField(null=True, blank=True)
    # Set when delivery was refused at run time (case closed, recipient no longer on it).
    dropped = models.CharField(max_length=40, blank=True, default="")
    checkin = models.ForeignKey(
        CheckIn, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )
    followup = models.ForeignKey(
        FollowUp, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "channel", "key"], name="notification_unique"
            )
        ]
        indexes = [
            models.Index(fields=["recipient", "read_at"]),
            models.Index(
                fields=["enqueued_at"],
                condition=models.Q(sent_at__isnull=True, dropped=""),
                name="notification_unsent_idx",
            ),
        ]


class SchedulerHeartbeat(models.Model):
    """When the scheduler's sweep last completed (one row per scheduler name)."""

    name = models.CharField(max_length=40, primary_key=True)
    last_completed_at = models.DateTimeField()
    last_duration_ms = models.PositiveIntegerField(default=0)
    last_claimed = models.PositiveIntegerField(default=0)


class CalendarToken(models.Model):
    """A user's secret calendar-feed token. Only its SHA-256 is stored; revoking is final."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_tokens"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
