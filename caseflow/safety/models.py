"""Safety plans (versioned, reviewed on a schedule) and risk assessments (instruments as data)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.accounts.models import Agency
from caseflow.cases.models import CaseOwned, RiskLevel, new_public_id
from caseflow.lib.encryption import EncryptedJSONField, EncryptedTextField
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety import instruments as engine


class SafetyFollowUpKind(models.TextChoices):
    """Follow-ups the safety plan and risk assessments create (registered with the inbox)."""

    PLAN_REVIEW = "plan_review", _("Safety plan review")
    ORDER_EXPIRY = "order_expiry", _("Protective order expiry")
    REASSESSMENT = "reassessment", _("Risk re-assessment")
    MULTI_AGENCY_REFERRAL = "multi_agency_referral", _("Multi-agency referral")


class SafetyPlan(CaseOwned):
    """The case's one safety plan. Its content lives in immutable versions; ``version`` is the
    number of the current one (0 before the first save) and is what optimistic concurrency checks.
    """

    case = models.OneToOneField("cases.Case", on_delete=models.CASCADE, related_name="safety_plan")
    version = models.PositiveIntegerField(default=0)
    review_by = models.DateField(null=True, blank=True)
    last_reviewed_at = models.DateTimeField(null=True, blank=True)
    last_reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["review_by"])]

    def __str__(self) -> str:
        return f"Safety plan v{self.version} of case {self.case_id}"


class SafetyPlanVersion(CaseOwned):
    """One saved state of a plan. Never changed after it is written."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    plan = models.ForeignKey(SafetyPlan, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    # The structured sections (see caseflow.safety.sections), encrypted as one document.
    content = EncryptedJSONField()

    narrative_fields = ("content",)
    kept_encrypted_fields = ()

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["plan", "number"], name="plan_version_unique"),
        ]

    def __str__(self) -> str:
        return f"Safety plan version {self.number}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("a safety plan version is immutable")
        super().save(*args, **kwargs)


class ProtectiveOrderExpiry(models.Model):
    """The expiry dates of the protective orders in a plan's current version, kept unencrypted
    (a date alone identifies nobody) so the follow-up sweep can find orders about to lapse."""

    plan = models.ForeignKey(SafetyPlan, on_delete=models.CASCADE, related_name="order_expiries")
    expires_on = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["plan", "expires_on"], name="order_expiry_unique"),
        ]
        indexes = [models.Index(fields=["expires_on"])]


class RiskInstrument(models.Model):
    """A risk-assessment instrument loaded from a file: shared (``agency`` empty) or an agency's
    own import, with that agency's band thresholds where they differ from the file's."""

    slug = models.CharField(max_length=64)
    version = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    definition = models.JSONField()
    agency = models.ForeignKey(
        Agency, on_delete=models.PROTECT, null=True, blank=True, related_name="risk_instruments"
    )
    thresholds = models.JSONField(default=dict, blank=True)
    loaded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["slug", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["agency", "slug", "version"], name="instrument_agency_unique"
            ),
            models.UniqueConstraint(
                fields=["slug", "version"],
                condition=models.Q(agency__isnull=True),
                name="instrument_shared_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (v{self.version})"

    def instrument(self) -> engine.Instrument:
        """The validated instrument with this row's thresholds applied."""
        cached = self.__dict__.get("_instrument")
        if cached is None:
            cached = engine.validate_instrument(self.definition)
            if self.thresholds:
                cached = cached.with_thresholds(self.thresholds)
            self.__dict__["_instrument"] = cached
        return cached


class RiskAssessment(CaseOwned):
    """One completed assessment. ``band`` is what the instrument gave; ``override_band`` the
    assessor's professional judgement, which needs ``override_reason``."""

    case = models.ForeignKey(
        "cases.Case", on_delete=models.CASCADE, related_name="risk_assessments"
    )
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    instrument = models.ForeignKey(RiskInstrument, on_delete=models.PROTECT, related_name="+")
    answers = EncryptedJSONField()
    score = models.FloatField()
    band = models.CharField(max_length=12, choices=RiskLevel.choices)
    override_band = models.CharField(
        max_length=12, choices=RiskLevel.choices, blank=True, default=""
    )
    override_reason = EncryptedTextField(blank=True, default="")

    narrative_fields = ("override_reason",)
    # The instrument's structured answers, which the score and band come from.
    kept_encrypted_fields = ("answers",)
    assessor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["case", "-created_at"])]

    def __str__(self) -> str:
        return f"Risk assessment {self.public_id}"

    @property
    def effective_band(self) -> str:
        return self.override_band or self.band

    def get_effective_band_display(self) -> str:
        return RiskLevel(self.effective_band).label


class HardDateKind(models.TextChoices):
    ANNIVERSARY = "anniversary", _("An anniversary")
    BIRTHDAY = "birthday", _("A birthday")
    COURT_DATE = "court_date", _("A court date")
    RELEASE = "release", _("A release from prison")
    HANDOVER_DAY = "handover_day", _("A handover day")
    OTHER = "other", _("Another day")


class HardDate(CaseOwned):
    """A date the survivor names as hard for her, part of her safety plan: what kind of day it
    is, her own words for it (encrypted with the case's key), the day, whether it comes back
    every year, and how many days before it she wants support. A check-in in her safe window is
    proposed before each occurrence (:mod:`caseflow.safety.hard_dates`)."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="hard_dates")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    kind = models.CharField(max_length=16, choices=HardDateKind.choices)
    # The words she uses for it ("the day he left", "Mum's birthday").
    words = EncryptedTextField(blank=True, default="")
    # A day alone identifies nobody; the sweep reads it to propose check-ins ahead.
    day = models.DateField()
    yearly = models.BooleanField(default=False)
    support_days_before = models.PositiveSmallIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    narrative_fields = ("words",)
    kept_encrypted_fields = ()

    class Meta:
        ordering = ["day", "pk"]
        indexes = [models.Index(fields=["case", "day"])]

    def __str__(self) -> str:
        return f"Hard date {self.public_id}"
