"""One row per piece of background work a request started, written in the request's own
transaction: the work is never lost when the broker is away, only delayed."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class IntentQuerySet(models.QuerySet):
    def pending(self) -> IntentQuerySet:
        """Not yet done: never sent, or sent and not (yet) finished by a worker."""
        return self.filter(completed_at__isnull=True)

    def due(self, stale_before) -> IntentQuerySet:
        """Pending intents to send now: never sent, or sent before ``stale_before`` (the
        message, or the worker running it, must have been lost)."""
        return self.pending().filter(Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=stale_before))


class Intent(models.Model):
    """A task to run: its registered name and keyword arguments (ids only, never personal data)."""

    task = models.CharField(max_length=200)
    kwargs = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    # The last time the broker accepted it; null while never sent.
    enqueued_at = models.DateTimeField(null=True, blank=True)
    # Set by the task, in the transaction of its work.
    completed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    # The class name of the last failure (to send, or to run): never a message, which may
    # carry personal data.
    last_error = models.CharField(max_length=100, blank=True)

    objects = IntentQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(
                fields=["created_at"],
                name="outbox_pending_idx",
                condition=Q(completed_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"{self.task} #{self.pk}"
