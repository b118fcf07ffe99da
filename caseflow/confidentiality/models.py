"""Confidentiality: the consent (release) ledger, disclosures, retention and purges, field settings.

Releases and disclosures belong to a case and are encrypted with its data key. Purge proposals,
approvals, certificates and purge records hold ids, dates and counts only: they survive a purge.
"""

from __future__ import annotations

from cryptography.fernet import Fernet
from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from caseflow.accounts.models import Agency
from caseflow.cases.models import Case, CaseOwned, Party, new_public_id
from caseflow.lib.encryption import EncryptedJSONField, EncryptedTextField, KeyDestroyed
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.prepared import PreparedState
from caseflow.lib.shard import CarriesAgency


class ConfidentialityFollowUpKind(models.TextChoices):
    """Follow-ups releases and compelled disclosures create (registered with the inbox)."""

    RELEASE_EXPIRY = "release_expiry", _("Release expiry")
    LEGAL_REVIEW = "legal_review", _("Legal review")


class Category(models.TextChoices):
    CONTACT = "contact", _("Contact details")
    ADDRESS = "address", _("Address")
    CHILDREN = "children", _("Children")
    NARRATIVES = "narratives", _("Narratives")
    RISK = "risk", _("Risk")
    SAFETY_PLAN = "safety_plan", _("Safety plan")
    COURT_ORDERS = "court_orders", _("Court orders")
    EVIDENCE = "evidence", _("Contact log, breaches and evidence files")


def category_labels(values: list[str]) -> str:
    labels = dict(Category.choices)
    return ", ".join(str(labels.get(v, v)) for v in values)


class Release(CaseOwned):
    """Informed, written, time-limited consent to share named categories with one recipient."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="releases")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    # PROTECT: a consent record is never lost because a person was removed from the case.
    consenting_party = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="+")
    # Set when a guardian consents for a child of the case.
    for_child = models.ForeignKey(
        Party, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recipient = EncryptedTextField()
    # Keyed HMAC of the normalised recipient name: matching without storing it in clear.
    recipient_index = models.CharField(max_length=64, db_index=True)
    purpose = EncryptedTextField()
    categories = models.JSONField(default=list)
    signed_on = models.DateField()
    expires_on = models.DateField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_reason = EncryptedTextField(blank=True, default="")

    narrative_fields = ("revoked_reason",)
    # The consent record: who may receive what, and for what purpose.
    kept_encrypted_fields = ("recipient", "purpose")
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-signed_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(expires_on__gt=models.F("signed_on")),
                name="release_expires_after_signing",
            )
        ]

    @property
    def category_labels(self) -> str:
        return category_labels(self.categories)

    def is_valid_on(self, day) -> bool:
        return self.revoked_at is None and self.signed_on <= day <= self.expires_on


class ResearchAnswer(models.TextChoices):
    """The survivor's answer to: may anonymised data about her support go to SafeLives Insights
    for research? Not asked until someone asks her; a "yes" taken back is "withdrawn"."""

    NOT_ASKED = "not_asked", _("Not asked")
    AGREED = "agreed", _("Agreed")
    DECLINED = "declined", _("Did not agree")
    WITHDRAWN = "withdrawn", _("Agreed, then withdrew")


class ResearchConsent(CaseOwned):
    """Whether the survivor agrees to anonymised data about her support being shared with
    SafeLives Insights for research: a code, with who recorded it and when. Only an "agreed"
    answer puts her exits in the agency's Insights return (``caseflow.reporting.returns``).
    Every change is in the case's audit trail (``research_consent.save``: the answer's code)."""

    case = models.OneToOneField(Case, on_delete=models.CASCADE, related_name="research_consent")
    answer = models.CharField(
        max_length=12, choices=ResearchAnswer.choices, default=ResearchAnswer.NOT_ASKED
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    narrative_fields = ()
    kept_encrypted_fields = ()

    def __str__(self) -> str:
        return f"Research consent of {self.case_id}"


class DisclosureKind(models.TextChoices):
    REFERRAL_PACK = "referral_pack", _("Referral pack (with consent)")
    COMPELLED = "compelled", _("Compelled (court order or subpoena)")
    EVIDENCE_PACK = "evidence_pack", _("Evidence pack (with consent)")
    CASE_EXPORT = "case_export", _("Case export (with consent)")
    CHRONOLOGY = "chronology", _("Breach chronology")
    CASE_CHRONOLOGY = "case_chronology", _("Case chronology")
    #: A copy of her own record given to the survivor, on her own consent (no release).
    OWN_COPY = "own_copy", _("Her own copy (given to the survivor)")
    #: The case transferred to another service, on caseflow or not (``caseflow.transfers``).
    TRANSFER = "transfer", _("Transfer to another service (with consent)")


class CompelledKind(models.TextChoices):
    COURT_ORDER = "court_order", _("Court order")
    SUBPOENA = "subpoena", _("Subpoena")


class CompelledOrder(CaseOwned):
    """A court order or subpoena that compelled the agency to disclose part of a case."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="compelled_orders")
    kind = models.CharField(max_length=16, choices=CompelledKind.choices)
    received_on = models.DateField()
    issuer = EncryptedTextField()
    reference = EncryptedTextField()
    demanded = EncryptedTextField()

    narrative_fields = ()
    # The record of a legal order: who issued it, its reference and what it demanded.
    kept_encrypted_fields = ("issuer", "reference", "demanded")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-received_on", "-pk"]


class Disclosure(CaseOwned):
    """Exactly what left the agency: which categories, to whom, when, and on what authority."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="disclosures")
    kind = models.CharField(max_length=16, choices=DisclosureKind.choices)
    release = models.ForeignKey(
        Release, on_delete=models.PROTECT, null=True, blank=True, related_name="disclosures"
    )
    order = models.ForeignKey(
        CompelledOrder,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="disclosures",
    )
    recipient = EncryptedTextField()
    # Who received a disclosure: the disclosure record.
    kept_encrypted_fields = ("recipient",)
    narrative_fields = ()
    categories = models.JSONField(default=list)
    disclosed_on = models.DateField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-disclosed_on", "-pk"]

    @property
    def category_labels(self) -> str:
        return category_labels(self.categories)


class PreparedExport(CaseOwned):
    """A large evidence pack or case export asked for under a release and built by a worker,
    kept for its asker until it expires.

    The result is a file (``file_name``: a random name under Django's default storage), sealed
    with a key of its own (``sealing_key``), which is kept encrypted with the case's data key:
    deleting this row (expiry, any purge) or the case key (a whole purge) leaves every copy of
    the file unreadable, in backups too. Nothing leaves the agency until the download, which
    checks the release again and records the disclosure (``disclosure``) the first time.
    """

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="+")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    #: DisclosureKind.EVIDENCE_PACK or DisclosureKind.CASE_EXPORT.
    kind = models.CharField(max_length=16, choices=DisclosureKind.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    release = models.ForeignKey(Release, on_delete=models.CASCADE, related_name="+")
    recipient = EncryptedTextField()
    #: What was chosen: categories, evidence files by public id, the parts of an evidence pack.
    categories = models.JSONField(default=list)
    evidence = models.JSONField(default=list)
    include_breaches = models.BooleanField(default=False)
    include_contact_log = models.BooleanField(default=False)
    state = models.CharField(
        max_length=10, choices=PreparedState.choices, default=PreparedState.WAITING
    )
    total = models.PositiveIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    #: The class of the last failure, never its message.
    last_error = models.CharField(max_length=100, blank=True, default="")
    sealing_key = EncryptedTextField(blank=True, default="")
    #: The file's manifest entries (names, sizes, fingerprints), for the evidence pack's
    #: manifest written at the hand-over.
    manifest = EncryptedJSONField(default=list, blank=True)
    file_name = models.CharField(max_length=100, blank=True, default="")
    disclosure = models.ForeignKey(
        Disclosure, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField()

    # What is about to leave the agency: it goes in any purge, partial or whole.
    narrative_evidence = True
    narrative_fields = ("recipient", "sealing_key", "manifest")

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["expires_at"], name="confidentiality_export_expiry")]
        constraints = [
            models.CheckConstraint(
                condition=Q(file_name="") | Q(state="ready"),
                name="confidentiality_export_file_only_when_ready",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.public_id[:8]}"

    def save(self, *args, **kwargs):
        if self._state.adding and not self.sealing_key:
            self.sealing_key = Fernet.generate_key().decode()
        super().save(*args, **kwargs)

    def sealer(self) -> Fernet:
        """The export's own key. Raises ``KeyDestroyed`` (or the case key's error) once gone."""
        if not self.sealing_key:
            raise KeyDestroyed("this prepared export has no key")
        return Fernet(self.sealing_key.encode())


# --- Retention and purges ------------------------------------------------------------------------


class RetentionSchedule(models.Model):
    """How long an agency keeps closed cases: narratives, then the whole record."""

    agency = models.OneToOneField(Agency, on_delete=models.CASCADE, related_name="retention")
    narratives_years = models.PositiveSmallIntegerField()
    record_years = models.PositiveSmallIntegerField()
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(record_years__gte=models.F("narratives_years")),
                name="retention_record_not_before_narratives",
            )
        ]


class PurgeScope(models.TextChoices):
    NARRATIVES = "narratives", _("Narratives and evidence")
    WHOLE = "whole", _("Whole record")


#: How many different approvers each scope needs.
APPROVALS_NEEDED: dict[str, int] = {PurgeScope.NARRATIVES: 1, PurgeScope.WHOLE: 2}


class ProposalStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting approval")
    APPROVED = "approved", _("Approved")
    EXECUTED = "executed", _("Purged")
    CANCELLED = "cancelled", _("Cancelled")


class PurgeProposal(models.Model):
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="purge_proposals")
    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    scope = models.CharField(max_length=12, choices=PurgeScope.choices)
    due_on = models.DateField()
    status = models.CharField(
        max_length=12, choices=ProposalStatus.choices, default=ProposalStatus.PENDING
    )
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["due_on", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["case", "scope"],
                condition=models.Q(status__in=["pending", "approved", "executed"]),
                name="purge_proposal_one_live_per_scope",
            )
        ]
        indexes = [models.Index(fields=["agency", "status"])]

    @property
    def approvals_needed(self) -> int:
        return APPROVALS_NEEDED[self.scope]


class PurgeApproval(models.Model):
    proposal = models.ForeignKey(PurgeProposal, on_delete=models.CASCADE, related_name="approvals")
    approver = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["approved_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["proposal", "approver"], name="purge_approval_once")
        ]


class DeletionCertificate(models.Model):
    """What was purged, when, on whose approval. Ids, names of record types and counts only."""

    proposal = models.OneToOneField(
        PurgeProposal, on_delete=models.PROTECT, related_name="certificate"
    )
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="+")
    case_reference = models.CharField(max_length=40)
    scope = models.CharField(max_length=12, choices=PurgeScope.choices)
    purged_at = models.DateTimeField()
    executed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    approver_ids = models.JSONField(default=list)
    approver_names = models.JSONField(default=list)
    # {"deleted": {"cases.Party": 2, ...}, "cleared": {"cases.Case": ["summary"], ...},
    #  "key_destroyed": bool}
    purged = models.JSONField(default=dict)

    class Meta:
        ordering = ["-purged_at", "-pk"]


class CasePurge(CarriesAgency):
    """The non-identifying stub left of a purged case: what was purged and the counts kept."""

    case = models.OneToOneField(Case, on_delete=models.PROTECT, related_name="purge")
    scope = models.CharField(max_length=12, choices=PurgeScope.choices)
    purged_at = models.DateTimeField()
    counts = models.JSONField(default=dict)

    @property
    def is_whole(self) -> bool:
        return self.scope == PurgeScope.WHOLE


class LegalHold(CaseOwned):
    """Keep this case's record whatever the retention schedule says (for example while family
    proceedings are ongoing): no purge of it can be approved or carried out until the hold is
    lifted."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="legal_holds")
    reason = EncryptedTextField()
    placed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    placed_at = models.DateTimeField(default=timezone.now)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    lifted_at = models.DateTimeField(null=True, blank=True)

    # Why the record must be kept is not narrative about the survivor, and goes with the record.
    narrative_fields = ()
    kept_encrypted_fields = ("reason",)

    class Meta:
        ordering = ["-placed_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["case"],
                condition=models.Q(lifted_at__isnull=True),
                name="legal_hold_one_active_per_case",
            )
        ]
