"""What the other party did after harm to draw her back: the warmth that follows harm (an
apology, a gift, a promise to change, sudden affection, pity or a threat of self-harm), recorded
as facts beside the harm so that the repetition can be seen (DESIGN §0: the bond is held by a
cycle; one incident answers nothing, the repetition does).

A :class:`Mark` follows exactly one record of harm on the case, an incident or a logged contact
event (a check constraint), and says when and which kind: a standard kind (a code, shown in the
reader's language) or one the agency added (:class:`AgencyKind`, in the agency's own words). Her
own words about it are optional, encrypted with the case's data key and a narrative for partial
purges. Nothing here scores or labels anyone: the marks are counted, never weighed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.accounts.models import Agency
from caseflow.agreements.models import ContactEvent
from caseflow.cases.models import Case, CaseOwned, new_public_id
from caseflow.casework.models import Incident
from caseflow.lib.encryption import EncryptedTextField
from caseflow.lib.i18n import gettext_lazy as _


class StandardKind(models.TextChoices):
    """The kinds every agency offers (the agency may add its own, :class:`AgencyKind`)."""

    APOLOGY = "apology", _("An apology")
    GIFT = "gift", _("A gift")
    PROMISE = "promise", _("A promise to change")
    AFFECTION = "affection", _("Sudden affection")
    PITY = "pity", _("Pity, or a threat of self-harm")
    FAMILY = "family", _("Involving the children or family")
    JUST_TO_TALK = "just_to_talk", _("Asking “just to talk”")


class AgencyKind(models.Model):
    """A kind the agency added to the standard ones, in its own words. Retired kinds stay on
    the marks that used them and are no longer offered."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    label = models.CharField(max_length=80)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["label", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "label"], name="cycle_kind_label_unique")
        ]

    def __str__(self) -> str:
        return self.label


class Mark(CaseOwned):
    """What the other party did after one incident or one logged contact, and when."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="+")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    incident = models.ForeignKey(
        Incident, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    contact_event = models.ForeignKey(
        ContactEvent, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField()
    kind = models.CharField(max_length=16, choices=StandardKind.choices, blank=True, default="")
    agency_kind = models.ForeignKey(
        AgencyKind, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    words = EncryptedTextField(blank=True, default="")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    # Her words are a narrative: a partial purge clears them, the dated kind stays.
    narrative_fields = ("words",)
    kept_encrypted_fields = ()

    class Meta:
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["case", "at"])]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(incident__isnull=False, contact_event__isnull=True)
                    | models.Q(incident__isnull=True, contact_event__isnull=False)
                ),
                name="cycle_mark_follows_one_record",
            ),
            models.CheckConstraint(
                condition=(
                    (~models.Q(kind="") & models.Q(agency_kind__isnull=True))
                    | (models.Q(kind="") & models.Q(agency_kind__isnull=False))
                ),
                name="cycle_mark_one_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"Mark {self.public_id}"

    @property
    def kind_key(self) -> str:
        """The kind as one key: the standard code, or ``agency:<id>``."""
        return self.kind or f"agency:{self.agency_kind_id}"

    @property
    def kind_label(self) -> str:
        """The kind in words: the reader's language for a standard kind, the agency's own words
        for one it added."""
        if self.kind:
            return str(StandardKind(self.kind).label)
        return self.agency_kind.label if self.agency_kind is not None else ""
