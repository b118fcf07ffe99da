"""Transfers of a case to another service: on this caseflow host (accepted or refused there) or
to a service not on caseflow (the transfer pack, recorded).

A transfer belongs to the sending case and is encrypted with its key, like the release it goes
under and the disclosure it made. The receiving agency reads it through ``caseflow.transfers``'
own pages only, never through the sending case.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.accounts.models import Agency
from caseflow.cases.models import Case, CaseOwned, new_public_id
from caseflow.confidentiality.models import Disclosure, Release, category_labels
from caseflow.lib.encryption import EncryptedTextField
from caseflow.lib.i18n import gettext_lazy as _


class TransferState(models.TextChoices):
    REQUESTED = "requested", _("Waiting for the other service's answer")
    ACCEPTED = "accepted", _("Accepted")
    REFUSED = "refused", _("Refused")
    SENT_EXTERNAL = "sent_external", _("Transfer pack sent")


class RefusalReason(models.TextChoices):
    NO_CAPACITY = "no_capacity", _("We cannot take on new cases at the moment")
    OUT_OF_AREA = "out_of_area", _("The survivor lives outside the area we cover")
    OTHER_SERVICE = "other_service", _("Another kind of service would suit her better")
    OTHER = "other", _("Another reason (say which)")


class Transfer(CaseOwned):
    """One transfer of ``case`` (the sending case) under ``release``."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="transfers_out")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    #: The agency on this host that is asked to take the case on (null: a service not on
    #: caseflow, named in ``external_name``).
    receiving_agency = models.ForeignKey(
        Agency, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    external_name = EncryptedTextField(blank=True, default="")
    release = models.ForeignKey(Release, on_delete=models.PROTECT, related_name="+")
    disclosure = models.OneToOneField(Disclosure, on_delete=models.PROTECT, related_name="transfer")
    categories = models.JSONField(default=list)
    state = models.CharField(max_length=16, choices=TransferState.choices)
    refusal_reason = models.CharField(
        max_length=16, choices=RefusalReason.choices, blank=True, default=""
    )
    refusal_comment = EncryptedTextField(blank=True, default="")
    #: The case the receiving agency opened on acceptance (its link back is this row).
    new_case = models.OneToOneField(
        Case, on_delete=models.SET_NULL, null=True, blank=True, related_name="transfer_in"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    narrative_fields = ()
    # The record of where the case went and why a service refused it.
    kept_encrypted_fields = ("external_name", "refusal_comment")

    class Meta:
        ordering = ["-requested_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["case"],
                condition=models.Q(state="requested"),
                name="transfer_one_waiting_per_case",
            ),
            models.CheckConstraint(
                condition=models.Q(receiving_agency__isnull=False)
                | models.Q(state="sent_external"),
                name="transfer_external_only_sent",
            ),
        ]
        indexes = [models.Index(fields=["receiving_agency", "state", "requested_at"])]

    @property
    def category_labels(self) -> str:
        return category_labels(self.categories)

    @property
    def recipient(self) -> str:
        """The service's name as the release must name it."""
        if self.receiving_agency is not None:
            return self.receiving_agency.name
        return self.external_name
