"""Follow-ups (advocates' tasks with due dates) and notifications (one delivery of one reminder
to one user): the inbox every part of caseflow writes to.

Other parts create follow-ups through :func:`caseflow.inbox.services.followup_ensure` and
notifications through :func:`caseflow.inbox.services.notify`; the scheduler
(``caseflow.checkins.scheduler``) reminds of what is due and delivers what is unsent.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.inbox.kinds import followup_kind_label, notification_words
from caseflow.lib.encryption import DataKey, EncryptedTextField
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.shard import CarriesAgency


class FollowUpStatus(models.TextChoices):
    OPEN = "open", _("Open")
    DONE = "done", _("Done")
    CANCELLED = "cancelled", _("Cancelled")


class FollowUp(CarriesAgency):
    """An advocate's task with a due date. Its kind is registered by the part of caseflow that
    creates it (:mod:`caseflow.inbox.kinds`). Owned by its case like every
    :class:`~caseflow.cases.models.CaseOwned` record (this layer sits below cases)."""

    case_owned = True

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="followups")
    kind = models.CharField(max_length=32)
    # Non-identifying title (kind + reference are shown by default); details are encrypted.
    details = EncryptedTextField(blank=True, default="")

    narrative_fields = ("details",)
    kept_encrypted_fields = ()
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
    # Who marked it done: only they may undo it, and only for a short while.
    done_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    # How far the scheduler got: 0 nothing sent, 1 reminder before the due time, 2 at it.
    reminder_stage = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        # The table keeps the name it was created with.
        db_table = "checkins_followup"
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
        return f"{self.kind_label} on {self.case_id}"

    @property
    def kind_label(self) -> str:
        return followup_kind_label(self.kind)

    def data_key(self) -> DataKey:
        return self.case.data_key()


class NotificationChannel(models.TextChoices):
    IN_APP = "in_app", _("In the app")
    EMAIL = "email", _("E-mail")


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
    #: The words in the language caseflow was set up in (e-mail subjects, searches, old rows).
    text = models.CharField(max_length=200)
    #: The words as a message and its values (``WORDS_KEY``: the message, marked for
    #: translation where it is sent; the rest fill its placeholders): written in the reader's
    #: language when shown. No personal data: a case reference or a count at most.
    params = models.JSONField(default=dict, blank=True)
    link = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # When a delivery task was last enqueued: the sweep re-enqueues what is still unsent later.
    enqueued_at = models.DateTimeField(null=True, blank=True)
    # Set when delivery was refused at run time (case closed, recipient no longer on it).
    dropped = models.CharField(max_length=40, blank=True, default="")
    checkin = models.ForeignKey(
        "checkins.CheckIn",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
    )
    followup = models.ForeignKey(
        FollowUp, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )

    class Meta:
        db_table = "checkins_notification"
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

    @property
    def words(self) -> str:
        """What it says, in the reader's language where its kind has words of its own."""
        return notification_words(self.kind, self.text, self.params)
