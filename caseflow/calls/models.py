"""Hotline and crisis calls taken on the duty line.

A call is logged by any member of staff who works cases, usually while it happens, and counted
for funders whether or not it ever becomes a case. What the caller raised, the safety concerns
and what was given or referred are codes (so they can be counted and shown in the reader's
language); what identifies the caller and any free text is encrypted.

Encryption: a call that is not on a case has its own random data key, wrapped by the master keys
like a case's (``wrapped_key``: the nearest pattern to ``cases.CaseKey``; clearing it shreds the
call's content and keeps the count). Once the call is attached to a case its content is
re-encrypted with the case's key and its own key is dropped, so purging the case purges the call
too.

An anonymous call holds no personal data at all: no name, no phone, no free text, no follow-up
(there is nobody to follow up with) and no case. The database refuses such a row, not only the
form (``calls_anonymous_holds_nothing``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.cases.models import new_public_id
from caseflow.lib.encryption import (
    DataKey,
    EncryptedTextField,
    KeyDestroyed,
    new_data_key,
    unwrap_data_key,
)
from caseflow.lib.i18n import gettext_lazy as _


class CallerKind(models.TextChoices):
    SURVIVOR = "survivor", _("The survivor")
    FRIEND_FAMILY = "friend_family", _("A friend or family member")
    PROFESSIONAL = "professional", _("A professional")
    ANONYMOUS = "anonymous", _("Anonymous")


class CallNeed(models.TextChoices):
    """What the caller raised: a small catalogue, several at once."""

    SAFETY = "safety", _("Safety now")
    REFUGE = "refuge", _("Refuge or somewhere safe to stay")
    HOUSING = "housing", _("Housing")
    MONEY = "money", _("Income and money")
    CHILDREN = "children", _("Children and child contact")
    LEGAL = "legal", _("Legal and court")
    IMMIGRATION = "immigration", _("Immigration status")
    HEALTH = "health", _("Disability and health")
    EMOTIONAL = "emotional", _("Emotional support")
    INFORMATION = "information", _("Information about the service")
    OTHER = "other", _("Something else")


#: The casework need each call need becomes when the call opens a case (``None``: none; it is
#: carried in the call's note only). Kept as the casework codes' values: calls do not import
#: casework's models for a table of strings.
CASE_NEED_OF: dict[str, str | None] = {
    CallNeed.SAFETY: None,
    CallNeed.REFUGE: "housing",
    CallNeed.HOUSING: "housing",
    CallNeed.MONEY: "money",
    CallNeed.CHILDREN: "children",
    CallNeed.LEGAL: "legal",
    CallNeed.IMMIGRATION: "immigration",
    CallNeed.HEALTH: "health",
    CallNeed.EMOTIONAL: "emotional",
    CallNeed.INFORMATION: None,
    CallNeed.OTHER: "other",
}


class SafetyConcern(models.TextChoices):
    IN_DANGER_NOW = "in_danger_now", _("In danger now")
    THREATS = "threats", _("Threats to harm or kill")
    WEAPON = "weapon", _("A weapon mentioned")
    STRANGULATION = "strangulation", _("Choking or strangling")
    CHILDREN_AT_RISK = "children_at_risk", _("Children at risk")
    STALKING = "stalking", _("Followed or watched")
    SELF_HARM = "self_harm", _("Thoughts of self-harm")


class CallResponse(models.TextChoices):
    """What was given on the call, or where the caller was referred."""

    LISTENED = "listened", _("Listened and supported")
    INFORMATION = "information", _("Information given")
    SAFETY_PLANNING = "safety_planning", _("Safety planning")
    REFUGE_REFERRAL = "refuge_referral", _("Referred to a refuge or shelter")
    POLICE = "police", _("Police called or suggested")
    LEGAL_REFERRAL = "legal_referral", _("Referred for legal advice")
    HEALTH_REFERRAL = "health_referral", _("Referred to health services")
    OTHER_SERVICE = "other_service", _("Referred to another service")


class Call(models.Model):
    """One call taken on the duty line."""

    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    agency = models.ForeignKey("accounts.Agency", on_delete=models.PROTECT, related_name="+")
    taken_at = models.DateTimeField(default=timezone.now)
    duration_minutes = models.PositiveIntegerField(null=True, blank=True)
    caller_kind = models.CharField(max_length=16, choices=CallerKind.choices)
    # Codes (lists of the choices above): counted without opening anyone's record.
    needs = models.JSONField(default=list, blank=True)
    safety_concerns = models.JSONField(default=list, blank=True)
    responses = models.JSONField(default=list, blank=True)
    follow_up_wanted = models.BooleanField(default=False)
    # Encrypted; NULL when not given (an anonymous call holds none of them).
    caller_name = EncryptedTextField(null=True, blank=True)
    caller_phone = EncryptedTextField(null=True, blank=True)
    notes = EncryptedTextField(null=True, blank=True)
    safety_detail = EncryptedTextField(null=True, blank=True)
    follow_up_detail = EncryptedTextField(null=True, blank=True)

    # What a partial purge removes (what happened, in words) and what it keeps (who the caller
    # is and how to reach them): the classification the case's records use.
    narrative_fields = ("notes", "safety_detail", "follow_up_detail")
    kept_encrypted_fields = ("caller_name", "caller_phone")

    logged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # The call's own data key, wrapped by the master keys; blank once the call is on a case (its
    # content is then under the case's key) or once shredded.
    wrapped_key = models.TextField(blank=True, default="")
    case = models.ForeignKey(
        "cases.Case", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    attached_at = models.DateTimeField(null=True, blank=True)
    attached_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-taken_at", "-pk"]
        indexes = [
            models.Index(fields=["agency", "taken_at"]),
            models.Index(fields=["case", "taken_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(caller_kind="anonymous")
                | models.Q(
                    caller_name__isnull=True,
                    caller_phone__isnull=True,
                    notes__isnull=True,
                    safety_detail__isnull=True,
                    follow_up_detail__isnull=True,
                    follow_up_wanted=False,
                    case__isnull=True,
                ),
                name="calls_anonymous_holds_nothing",
            ),
            models.CheckConstraint(
                condition=models.Q(duration_minutes__isnull=True)
                | models.Q(duration_minutes__lte=24 * 60),
                name="calls_duration_within_a_day",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_caller_kind_display()} call"

    def save(self, *args, **kwargs):
        if self._state.adding and self.case_id is None and not self.wrapped_key:
            # The key exists before the first save, so encrypted fields can be written with it.
            self.wrapped_key, self.__dict__["_data_key"] = new_data_key()
        super().save(*args, **kwargs)

    @property
    def is_anonymous(self) -> bool:
        return self.caller_kind == CallerKind.ANONYMOUS

    def data_key(self) -> DataKey:
        if self.case_id is not None:
            return self.case.data_key()  # type: ignore[union-attr]
        cached = self.__dict__.get("_data_key")
        if cached is None:
            if not self.wrapped_key:
                raise KeyDestroyed(f"call {self.public_id} has no data key")
            cached = self.__dict__["_data_key"] = unwrap_data_key(self.wrapped_key)
        return cached

    # -- labels in the reader's language ----------------------------------------------------
    def need_labels(self) -> list[str]:
        return _labels(CallNeed, self.needs)

    def concern_labels(self) -> list[str]:
        return _labels(SafetyConcern, self.safety_concerns)

    def response_labels(self) -> list[str]:
        return _labels(CallResponse, self.responses)


def _labels(choices: type[models.TextChoices], values: list[str]) -> list[str]:
    names = dict(choices.choices)
    return [str(names[v]) for v in values if v in names]


#: The encrypted fields an anonymous call may not hold (and that attaching re-encrypts).
ENCRYPTED_FIELDS = (
    "caller_name",
    "caller_phone",
    "notes",
    "safety_detail",
    "follow_up_detail",
)
