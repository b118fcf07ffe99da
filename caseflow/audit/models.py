"""The append-only, hash-chained audit trail."""

from django.conf import settings
from django.db import models

from caseflow.audit.actions import READ_ACTIONS


class AuditEventQuerySet(models.QuerySet):
    def reads(self) -> "AuditEventQuerySet":
        """Reads of case data: the actions of kind read or disclosure (see ``actions``)."""
        return self.filter(action__in=sorted(READ_ACTIONS))


class AuditEvent(models.Model):
    """One read, write or security event. Never updated or deleted (a trigger enforces it on
    PostgreSQL). ``hash`` covers the canonical serialisation of the row and the previous hash."""

    seq = models.BigIntegerField(primary_key=True)
    at = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        related_name="+",
    )
    actor_role = models.CharField(max_length=20, blank=True)
    agency_id = models.BigIntegerField(null=True)
    case_id = models.BigIntegerField(null=True)
    action = models.CharField(max_length=40)
    object_type = models.CharField(max_length=40, blank=True)
    object_id = models.CharField(max_length=40, blank=True)
    request_id = models.CharField(max_length=40, blank=True)
    ip = models.CharField(max_length=45, blank=True)
    detail = models.JSONField(default=dict)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["seq"]
        # Every workspace query is scoped to an agency; putting agency_id second lets the
        # narrower column lead even where the planner has no statistics (SQLite).
        indexes = [
            models.Index(fields=["case_id", "agency_id", "seq"], name="audit_case_agency_seq"),
            models.Index(fields=["actor", "agency_id", "seq"], name="audit_actor_agency_seq"),
            models.Index(fields=["agency_id", "seq"], name="audit_agency_seq"),
            models.Index(fields=["action", "agency_id", "seq"], name="audit_action_agency_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action}"
