"""Check-ins (scheduled contacts with the survivor, one-off or recurring), the calendar feed's
tokens and the scheduler's heartbeat.

The database is the source of truth for what is due: the scheduler's sweep
(``caseflow.checkins.scheduler``) claims due check-ins, and the inbox's follow-ups, by their
``reminder_stage`` and ``due_at``. Follow-ups and notifications live in :mod:`caseflow.inbox`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.cases.models import CaseOwned, Channel
from caseflow.lib.encryption import EncryptedTextField
from caseflow.lib.i18n import gettext_lazy as _


class CheckInFollowUpKind(models.TextChoices):
    """Follow-ups check-ins create (registered with the inbox)."""

    FIRST_CHECKIN = "first_checkin", _("First check-in with a new advocate")
    PROPOSED_CHECKIN = "proposed_checkin", _("A check-in is proposed (a hard date or a handover)")


class CheckInStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    DONE = "done", _("Done")
    MISSED = "missed", _("Missed")
    CANCELLED = "cancelled", _("Cancelled")
    UNSAFE = "unsafe", _("No longer safe")


class CheckInOutcome(models.TextChoices):
    REACHED = "reached", _("Reached")
    NOT_SAFE = "not_safe", _("Not safe to talk")
    NO_ANSWER = "no_answer", _("No answer")
    RESCHEDULED = "rescheduled", _("Rescheduled")


class CheckInSchedule(CaseOwned):
    """A recurring check-in: an RFC 5545 rule from a local start, in the survivor's zone. Its
    occurrences are materialised as :class:`CheckIn` rows a few weeks ahead by the sweep."""

    case = models.ForeignKey(
        "cases.Case", on_delete=models.CASCADE, related_name="checkin_schedules"
    )
    rule = models.CharField(max_length=200)
    dtstart_local = models.CharField(max_length=16)  # "YYYY-MM-DDTHH:MM", wall time in tz
    tz = models.CharField(max_length=64)
    channel = models.CharField(max_length=16, choices=Channel.choices)
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
    channel = models.CharField(max_length=16, choices=Channel.choices)
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

    narrative_fields = ("note",)
    kept_encrypted_fields = ()
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
            # The check-ins an agency completed in a period (the funder reports' services): read
            # from the index alone, where the table itself was scanned whole for each report.
            models.Index(
                fields=["agency", "due_at"],
                condition=models.Q(status="done"),
                name="checkin_agency_done_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"Check-in on {self.case_id} at {self.due_at:%Y-%m-%d %H:%M}"


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
