"""Court hearings on a case: which court, what kind of hearing, when, how the survivor attends and
the support arranged, and afterwards the outcome and the protective orders it made.

The court's name and the outcome in the advocate's words are encrypted with the case's data key
(a court and a date together can point to a family). The orders a hearing made are not copied
here: they are recorded once, in the safety plan's protective orders, and a hearing keeps only
the keys of those orders (:func:`caseflow.court.orders.order_key`), encrypted like the rest.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.cases.models import Case, CaseOwned, new_public_id
from caseflow.lib.encryption import EncryptedJSONField, EncryptedTextField
from caseflow.lib.i18n import gettext_lazy as _


class CourtFollowUpKind(models.TextChoices):
    """Follow-ups this app creates (registered with the inbox)."""

    ACCOMPANIMENT = "court_accompaniment", _("Court accompaniment")


class HearingKind(models.TextChoices):
    PROTECTION_ORDER = "protection_order", _("Protection order")
    CHILD_ARRANGEMENTS = "child_arrangements", _("Child arrangements or custody")
    CRIMINAL = "criminal", _("Criminal")
    IMMIGRATION = "immigration", _("Immigration")
    HOUSING = "housing", _("Housing")
    OTHER = "other", _("Other")


class Attendance(models.TextChoices):
    NOT_KNOWN = "not_known", _("Not known yet")
    IN_PERSON = "in_person", _("In person")
    VIDEO = "video", _("By video link")
    REPRESENTED = "represented", _("Represented, not there in person")
    NOT_ATTENDING = "not_attending", _("Not attending")


class Support(models.TextChoices):
    ACCOMPANIMENT = "accompaniment", _("Accompaniment")
    WAITING_ROOM = "waiting_room", _("Separate waiting room")
    SPECIAL_MEASURES = "special_measures", _("Special measures or screens")
    VIDEO_LINK = "video_link", _("Video link")
    INTERPRETER = "interpreter", _("Interpreter")


class HearingOutcome(models.TextChoices):
    ORDER_MADE = "order_made", _("Order made")
    ORDER_VARIED = "order_varied", _("Order extended or varied")
    ADJOURNED = "adjourned", _("Adjourned")
    NO_ORDER = "no_order", _("No order made")
    WITHDRAWN = "withdrawn", _("Application withdrawn")
    CONCLUDED = "concluded", _("Case concluded")
    OTHER = "other", _("Other")


class Hearing(CaseOwned):
    """One hearing of a case at court."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="hearings")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    court = EncryptedTextField(blank=True, default="")
    kind = models.CharField(max_length=24, choices=HearingKind.choices)
    starts_at = models.DateTimeField()
    attendance = models.CharField(
        max_length=16, choices=Attendance.choices, default=Attendance.NOT_KNOWN
    )
    # Support codes (``Support``): which help is arranged, not what was said.
    support = models.JSONField(default=list, blank=True)
    outcome = models.CharField(max_length=16, choices=HearingOutcome.choices, blank=True)
    outcome_notes = EncryptedTextField(blank=True, default="")
    # Keys of the safety plan's protective orders this hearing made or changed.
    orders = EncryptedJSONField(default=list, blank=True)
    outcome_recorded_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)

    narrative_fields = ("outcome_notes",)
    # Identify the family's court proceedings.
    kept_encrypted_fields = ("court", "orders")

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["case", "starts_at"])]

    def __str__(self) -> str:
        return f"Hearing {self.public_id}"

    @property
    def support_labels(self) -> list[str]:
        labels = dict(Support.choices)
        return [str(labels[code]) for code in self.support if code in labels]

    def is_past(self, now=None) -> bool:
        return self.starts_at <= (now or timezone.now())
