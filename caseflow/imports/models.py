"""An agency's caseload brought in from its earlier system: the uploaded batch (its file sealed
with a key of its own), the column mapping kept for the next batch, and which case each of the
source system's records became.

The file is personal data: it is encrypted with the batch's own data key (as a case's fields
are with the case's), and the key is destroyed once the batch is committed or discarded, so the
file is unreadable from then on, in backups too. The report a dry run keeps holds row numbers,
column names and messages in words, never a value from the file.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.accounts.models import Agency
from caseflow.cases.models import Case, new_public_id
from caseflow.lib.encryption import (
    DataKey,
    EncryptedTextField,
    KeyDestroyed,
    new_wrapped_data_key,
    unwrap_data_key,
)
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.shard import CarriesAgency


class BatchState(models.TextChoices):
    UPLOADED = "uploaded", _("Uploaded: choose the columns")
    CHECKED = "checked", _("Checked: nothing written yet")
    QUEUED = "queued", _("Waiting to be imported")
    RUNNING = "running", _("Importing")
    DONE = "done", _("Imported")
    STOPPED = "stopped", _("Not imported: nothing was written")


class BatchKind(models.TextChoices):
    CASELOAD = "caseload", _("Caseload")
    STAFF = "staff", _("Staff")


class ImportBatch(models.Model):
    """One uploaded file, from upload to commit."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    state = models.CharField(max_length=12, choices=BatchState.choices, default=BatchState.UPLOADED)
    #: What the file holds: the caseload, or the staff with their teams and roles.
    kind = models.CharField(max_length=12, choices=BatchKind.choices, default=BatchKind.CASELOAD)
    #: "csv" or "xlsx": how the sealed file is read.
    file_format = models.CharField(max_length=8)
    wrapped_key = models.TextField(blank=True, default="")
    #: The uploaded file, base64, sealed with the batch's own key; emptied after the commit.
    content = EncryptedTextField(null=True, blank=True, default="")
    #: {field: column heading} chosen for this batch.
    mapping = models.JSONField(default=dict)
    #: Counts only: {"rows", "valid", "errors", "created", "updated", "flagged"}.
    counts = models.JSONField(default=dict)
    #: [{"row": 3, "column": "Survivor's date of birth", "message": "..."}]: words, no values.
    problems = models.JSONField(default=list)
    #: [{"row": 7, "kind": "conflict" | "earlier_case"}]: cases opened and flagged for review.
    flags = models.JSONField(default=list)
    finished_at = models.DateTimeField(null=True, blank=True)

    narrative_fields = ()
    kept_encrypted_fields = ("content",)

    class Meta:
        ordering = ["-created_at"]

    def save(self, *args, **kwargs):
        if self._state.adding and not self.wrapped_key:
            self.wrapped_key = new_wrapped_data_key()
        super().save(*args, **kwargs)

    def data_key(self) -> DataKey:
        if not self.wrapped_key:
            raise KeyDestroyed(f"import batch {self.public_id} has no data key")
        cached = self.__dict__.get("_data_key")
        if cached is None:
            cached = self.__dict__["_data_key"] = unwrap_data_key(self.wrapped_key)
        return cached

    def forget_file(self) -> None:
        """Destroy the file: its key goes, so the ciphertext is unreadable anywhere."""
        type(self).objects.filter(pk=self.pk).update(wrapped_key="", content=None)
        self.wrapped_key = ""
        self.__dict__.pop("_data_key", None)
        self.__dict__["content"] = None


class ImportMapping(models.Model):
    """The agency's last column mapping, offered again for the next batch."""

    agency = models.OneToOneField(Agency, on_delete=models.CASCADE, related_name="+")
    mapping = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)


class ImportRecord(CarriesAgency):
    """Which case one record of the source system became: re-importing it updates that case."""

    #: The source system's own id for the record (its case number there), as given in the file.
    source_id = models.CharField(max_length=100)
    case = models.OneToOneField(Case, on_delete=models.CASCADE, related_name="import_record")
    batch = models.ForeignKey(ImportBatch, on_delete=models.SET_NULL, null=True, related_name="+")
    #: Keyed fingerprints of the history notes and the check-in already brought in, so a
    #: re-run adds only what is new and never repeats a note.
    note_keys = models.JSONField(default=list)
    checkin_key = models.CharField(max_length=64, blank=True, default="")
    imported_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["agency", "source_id"], name="import_source_unique"),
        ]
