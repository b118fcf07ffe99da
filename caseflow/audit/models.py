"""The append-only, hash-chained audit trail."""

from django.conf import settings
from django.db import models

from caseflow.audit.actions import READ_ACTIONS


class AuditEventQuerySet(models.QuerySet):
    def reads(self) -> "AuditEventQuerySet":
        """Reads of case data: the actions of kind read or disclosure (see ``actions``)."""
        return self.filter(action__in=sorted(READ_ACTIONS))


class AuditEvent(models.Model):
    """One read, write or security event. Never deleted, and never updated but once, by the
    sequencer (a trigger enforces both on PostgreSQL).

    A request inserts its event with a number (``seq``, given by the database at insert, in no
    particular commit order) and no place in the chain. The sequencer
    (:mod:`caseflow.audit.sequencer`) later gives it its chain position ``pos`` (1, 2, 3, ... in
    the order the sequencer saw the events committed), ``prev_hash`` and ``hash``, which covers
    the canonical serialisation of the row and the previous hash. The sequenced events are the
    leaves of a Merkle tree (:class:`AuditTreeNode`) whose signed heads are published.
    """

    seq = models.BigAutoField(primary_key=True)
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
    #: The event's place in the chain, from 1; empty until the sequencer reaches it.
    pos = models.BigIntegerField(null=True, unique=True)
    prev_hash = models.CharField(max_length=64, blank=True, default="")
    hash = models.CharField(max_length=64, blank=True, default="")

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
            # The sequencer's queue: the events not yet in the chain, oldest first.
            models.Index(
                fields=["seq"], name="audit_unsequenced", condition=models.Q(pos__isnull=True)
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action}"


class AuditTreeNode(models.Model):
    """One complete subtree of the Merkle tree over the sequenced events (RFC 9162, 2.1.1):
    level 0 holds the leaf hashes, SHA-256(0x00 || event hash), one per chain position
    (``index`` = pos - 1); the node at (level, index) covers leaves
    [index * 2**level, (index + 1) * 2**level) and is stored once all of them exist. Any tree
    size's root, and every inclusion or consistency proof, is a combination of O(log n) of
    these rows. Append-only like the events (a trigger on PostgreSQL)."""

    level = models.PositiveSmallIntegerField()
    index = models.BigIntegerField()
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["level", "index"], name="audit_tree_node_position")
        ]

    def __str__(self) -> str:
        return f"node {self.level}/{self.index}"


class AuditTreeHead(models.Model):
    """A signed tree head: the root of the first ``tree_size`` sequenced events at ``at``,
    signed with the audit signing key (Ed25519, held outside the database). Published by beat,
    stored here and shipped to the head sink outside the database (see ``caseflow.audit.heads``).
    """

    tree_size = models.BigIntegerField()
    root_hash = models.CharField(max_length=64)
    at = models.DateTimeField()
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=128)

    class Meta:
        ordering = ["tree_size", "at"]

    def __str__(self) -> str:
        return f"head {self.tree_size}"
