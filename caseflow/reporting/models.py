"""A funder report prepared in the background: asked for on the preview page when the period
counts many people, computed by a worker, kept sealed for its asker until it expires.

What is kept names no one: the report's name, its period, the counts of its progress and the
CSV itself, which holds aggregate counts only (suppressed as on the preview) or, for the
SafeLives Insights return (``returns.SLUG``), one row of codes per exit under a pseudonymous
reference (no name, date of birth, address, free text or day). The CSV is sealed with a key of
the prepared report's own (wrapped by the master keys, as a case's data key is): destroying the
key when it expires makes every copy unreadable, in backups too.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from caseflow.accounts.models import Agency, Coalition
from caseflow.cases.models import new_public_id
from caseflow.lib.encryption import DataKey, KeyDestroyed, new_wrapped_data_key, unwrap_data_key
from caseflow.lib.prepared import PreparedState

__all__ = ["PreparedReport", "PreparedState"]


class PreparedReportQuerySet(models.QuerySet):
    def expired(self, now: dt.datetime) -> PreparedReportQuerySet:
        return self.filter(expires_at__lte=now)


class PreparedReport(models.Model):
    """One request for a report's CSV, from the request to its expiry."""

    #: Whose report it is: one agency's, or a coalition's roll-up of its members (one of two).
    agency = models.ForeignKey(
        Agency, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    coalition = models.ForeignKey(
        Coalition, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    #: The report's name (``reports.REPORTS``, or ``returns.SLUG``) and its fixed period: no
    #: personal data.
    slug = models.CharField(max_length=20)
    period_start = models.DateField()
    period_end = models.DateField()
    state = models.CharField(
        max_length=10, choices=PreparedState.choices, default=PreparedState.WAITING
    )
    #: Steps done of the steps the report takes, as of the last state change (the live count
    #: while it runs is in the cache: see ``services.progress``).
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    #: How many times a worker has started on it.
    attempts = models.PositiveIntegerField(default=0)
    #: The class of the last failure, never its message (which could carry anything).
    last_error = models.CharField(max_length=100, blank=True, default="")
    wrapped_key = models.TextField(blank=True, default="")
    #: The CSV, sealed with the report's own key; written only with the state ``ready``.
    result = models.BinaryField(null=True, blank=True, editable=False)
    #: Counts only, for the audit record of each download: {"cells", "suppressed"}, or for the
    #: Insights return {"rows", "left_out"}.
    counts = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField()

    objects = PreparedReportQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["expires_at"], name="reporting_prepared_expiry_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(result__isnull=True) | Q(state="ready"),
                name="reporting_prepared_result_only_when_ready",
            ),
            models.CheckConstraint(
                condition=Q(agency__isnull=True, coalition__isnull=False)
                | Q(agency__isnull=False, coalition__isnull=True),
                name="reporting_prepared_one_agency_or_one_coalition",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.slug} {self.period_start}..{self.period_end}"

    def save(self, *args, **kwargs):
        if self._state.adding and not self.wrapped_key:
            self.wrapped_key = new_wrapped_data_key()
        super().save(*args, **kwargs)

    def data_key(self) -> DataKey:
        if not self.wrapped_key:
            raise KeyDestroyed("this prepared report has no data key")
        return unwrap_data_key(self.wrapped_key)

    def seal(self, data: bytes) -> bytes:
        return self.data_key().encrypt(data)

    def opened(self) -> bytes:
        """The CSV, decrypted. Raises ``KeyDestroyed`` once expired."""
        if self.result is None:
            raise KeyDestroyed("this prepared report has no result")
        return self.data_key().decrypt(bytes(self.result))
