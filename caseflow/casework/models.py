"""Case notes, their amendments, incidents the survivor reports, and the evidence files of both.

Free text about people is encrypted with the case's data key. A note is changed freely by its
author for ``settings.NOTE_EDIT_HOURS``; after that (and for anyone else) only by an amendment,
which keeps what the note said before, who changed it and why. The author's own changes inside
that window keep what the note said before too (without a reason), for supervisors to see.

Which incidents are serious: every incident whose kinds include physical or sexual violence,
stalking or threats (the kinds the common risk checklists weigh most), every incident where an
injury is recorded, and any incident the advocate marks serious. Recording a serious incident
proposes a risk re-assessment to the case's advocate and, when the case is already at high risk,
tells the team's supervisors (once).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.cases.models import BreakGlassGrant, CaseOwned, new_public_id
from caseflow.lib.encryption import EncryptedJSONField, EncryptedTextField
from caseflow.lib.i18n import gettext_lazy as _


class CaseworkFollowUpKind(models.TextChoices):
    """Follow-ups casework creates (registered with the inbox)."""

    INCIDENT_RISK_REVIEW = "incident_risk_review", _("Risk re-assessment after an incident")


class NoteKind(models.TextChoices):
    CALL = "call", _("Phone call")
    TEXT = "text", _("Text messages")
    EMAIL = "email", _("E-mail")
    IN_PERSON = "in_person", _("In person")
    VIDEO = "video", _("Video call")
    COURT = "court", _("At court")
    AGENCY = "agency", _("Liaison with another agency")
    INTERNAL = "internal", _("Internal note")


class Participant(models.TextChoices):
    SURVIVOR = "survivor", _("The survivor")
    OTHER_AGENCY = "other_agency", _("Another agency")
    COLLEAGUE = "colleague", _("A colleague")


class Direction(models.TextChoices):
    INCOMING = "incoming", _("They contacted us")
    OUTGOING = "outgoing", _("We contacted them")
    NONE = "none", _("Not applicable")


PARTICIPANT_FIELDS = {
    Participant.SURVIVOR: "with_survivor",
    Participant.OTHER_AGENCY: "with_other_agency",
    Participant.COLLEAGUE: "with_colleague",
}


class CaseNote(CaseOwned):
    """One contact or piece of work on a case, as the advocate wrote it down."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="notes")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    kind = models.CharField(max_length=16, choices=NoteKind.choices)
    # Who took part (Participant), one column each so that the timeline can filter on them.
    with_survivor = models.BooleanField(default=False)
    with_other_agency = models.BooleanField(default=False)
    with_colleague = models.BooleanField(default=False)
    direction = models.CharField(max_length=10, choices=Direction.choices)
    occurred_at = models.DateTimeField()
    duration_minutes = models.PositiveIntegerField(null=True, blank=True)
    text = EncryptedTextField()

    narrative_fields = ("text",)
    kept_encrypted_fields = ()
    incident = models.ForeignKey(
        "Incident", on_delete=models.SET_NULL, null=True, blank=True, related_name="notes"
    )
    # The check-in the note is about, if any (named by app label: casework does not import the
    # check-ins, which sit beside it).
    checkin = models.ForeignKey(
        "checkins.CheckIn", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The need or goal the note is about, if any.
    need = models.ForeignKey(
        "Need", on_delete=models.SET_NULL, null=True, blank=True, related_name="notes"
    )
    goal = models.ForeignKey(
        "Goal", on_delete=models.SET_NULL, null=True, blank=True, related_name="notes"
    )
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # Set when the note was written under emergency (break-glass) access: for the review.
    break_glass = models.ForeignKey(
        BreakGlassGrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="notes_written",
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    # Optimistic concurrency: bumped on every change; a change based on an older one is refused.
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-occurred_at", "-pk"]
        indexes = [models.Index(fields=["case", "occurred_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on {self.occurred_at:%d %b %Y}"

    @property
    def participants(self) -> list[str]:
        return [p for p, name in PARTICIPANT_FIELDS.items() if getattr(self, name)]

    @participants.setter
    def participants(self, values) -> None:
        for p, name in PARTICIPANT_FIELDS.items():
            setattr(self, name, p in values)

    @property
    def participant_labels(self) -> list[str]:
        return [str(label) for value, label in Participant.choices if value in self.participants]

    def editable_by_author_until(self):
        return self.created_at + timezone.timedelta(hours=settings.NOTE_EDIT_HOURS)


class NoteAmendment(CaseOwned):
    """One change to a note: what each field said before and after, and why. The earliest
    one's "before" is the note as first written. An amendment (after the edit window, or by
    someone else) gives its reason and is shown to everyone who reads the note; a ``direct``
    change, by the author inside the edit window, has no reason and is shown to supervisors
    (an earlier version kept, as a clinical record keeps every version)."""

    # A narratives-only purge deletes these rows: they hold the note's earlier text.
    narrative_evidence = True

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    note = models.ForeignKey(CaseNote, on_delete=models.CASCADE, related_name="amendments")
    # [[field label, before, after], ...]
    changes = EncryptedJSONField()
    reason = EncryptedTextField()

    narrative_fields = ("changes", "reason")
    kept_encrypted_fields = ()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    #: The author's own change inside the edit window (no reason asked).
    direct = models.BooleanField(default=False)

    class Meta:
        ordering = ["created_at", "pk"]


class IncidentKind(models.TextChoices):
    PHYSICAL = "physical", _("Physical violence")
    SEXUAL = "sexual", _("Sexual violence")
    COERCIVE = "coercive", _("Coercive or controlling behaviour")
    STALKING = "stalking", _("Stalking or harassment")
    TECHNOLOGY = "technology", _("Abuse through phones, accounts or devices")
    ECONOMIC = "economic", _("Economic abuse")
    THREATS = "threats", _("Threats")
    CHILDREN = "children", _("Involving the children")
    COURT_ORDER = "court_order", _("Breach of a court order")


#: Kinds that make an incident serious by themselves (see the module docstring).
SERIOUS_KINDS = frozenset(
    {IncidentKind.PHYSICAL, IncidentKind.SEXUAL, IncidentKind.STALKING, IncidentKind.THREATS}
)


class IncidentPerson(models.TextChoices):
    OTHER_PARTY = "other_party", _("The other party")
    SOMEONE_ELSE = "someone_else", _("Someone else")
    UNKNOWN = "unknown", _("Not known")


class PoliceInvolved(models.TextChoices):
    YES = "yes", _("Yes")
    NO = "no", _("No")
    UNKNOWN = "unknown", _("Not known")


class Incident(CaseOwned):
    """An incident the survivor reported: what, when (exact or approximate), where, who, what
    happened, injuries, police, witnesses, evidence."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="incidents")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    kinds = models.JSONField(default=list)
    # When it happened; for an approximate time, the start of the period described.
    occurred_at = models.DateTimeField()
    approximate = models.BooleanField(default=False)
    when_described = EncryptedTextField(blank=True, default="")
    place = EncryptedTextField(blank=True, default="")
    person = models.CharField(max_length=16, choices=IncidentPerson.choices)
    person_described = EncryptedTextField(blank=True, default="")
    what_happened = EncryptedTextField()
    injuries = EncryptedTextField(blank=True, default="")
    police = models.CharField(
        max_length=8, choices=PoliceInvolved.choices, default=PoliceInvolved.UNKNOWN
    )
    police_reference = EncryptedTextField(blank=True, default="")
    witnesses = EncryptedTextField(blank=True, default="")

    narrative_fields = (
        "when_described",
        "place",
        "person_described",
        "what_happened",
        "injuries",
        "witnesses",
    )
    # A reference to find the police report.
    kept_encrypted_fields = ("police_reference",)
    # Marked serious by the advocate, or by its kinds or injuries (see the module docstring).
    serious = models.BooleanField(default=False)
    # When the team's supervisors were told of this serious incident on a high-risk case.
    supervisors_told_at = models.DateTimeField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-occurred_at", "-pk"]
        indexes = [models.Index(fields=["case", "occurred_at"])]

    def __str__(self) -> str:
        return f"Incident on {self.occurred_at:%d %b %Y}"

    @property
    def kind_labels(self) -> list[str]:
        return [str(label) for value, label in IncidentKind.choices if value in self.kinds]


class Evidence(CaseOwned):
    """A file attached to a note or an incident, stored encrypted with the case key under a
    random name (:mod:`caseflow.cases.evidence`) and served only through audited views."""

    # Counted in the case's evidence quota.
    holds_evidence_files = True

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    note = models.ForeignKey(
        CaseNote, on_delete=models.CASCADE, null=True, blank=True, related_name="evidence"
    )
    incident = models.ForeignKey(
        Incident, on_delete=models.CASCADE, null=True, blank=True, related_name="evidence"
    )
    storage_name = models.CharField(max_length=200)
    filename = EncryptedTextField()

    narrative_fields = ()
    # Names the stored file, which is kept.
    kept_encrypted_fields = ("filename",)
    content_type = models.CharField(max_length=40)
    family = models.CharField(max_length=8)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "evidence"
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(note__isnull=False, incident__isnull=True)
                    | models.Q(note__isnull=True, incident__isnull=False)
                ),
                name="casework_evidence_one_record",
            )
        ]


class NeedKind(models.TextChoices):
    """What the survivor needs help with: the barriers the safety plan names, made countable."""

    HOUSING = "housing", _("Housing")
    MONEY = "money", _("Income and money")
    CHILDREN = "children", _("Children and child contact")
    IMMIGRATION = "immigration", _("Immigration status")
    HEALTH = "health", _("Disability and health")
    LEGAL = "legal", _("Legal and court")
    TECHNOLOGY = "technology", _("Technology safety")
    EMOTIONAL = "emotional", _("Emotional support")
    SUBSTANCE = "substance", _("Substance use")
    OTHER = "other", _("Other")


class NeedStatus(models.TextChoices):
    IDENTIFIED = "identified", _("Identified")
    IN_PROGRESS = "in_progress", _("In progress")
    MET = "met", _("Met")
    NO_LONGER_NEEDED = "no_longer_needed", _("No longer needed")


#: A need still being worked on (shown first, counted as open).
OPEN_NEED_STATUSES = (NeedStatus.IDENTIFIED, NeedStatus.IN_PROGRESS)


class Need(CaseOwned):
    """One thing the survivor needs help with (housing, money, ...), and where it stands.

    Every change of status is kept as a :class:`NeedStatusChange` with the date it happened, so
    reports can count needs met in a period and the case shows how the need moved."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="needs")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    kind = models.CharField(max_length=16, choices=NeedKind.choices)
    status = models.CharField(
        max_length=20, choices=NeedStatus.choices, default=NeedStatus.IDENTIFIED
    )
    # The date of the latest status change (the day it happened, as the advocate gave it).
    status_since = models.DateField(default=timezone.localdate)
    identified_on = models.DateField(default=timezone.localdate)
    detail = EncryptedTextField(blank=True, default="")

    narrative_fields = ("detail",)
    kept_encrypted_fields = ()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    # Optimistic concurrency: bumped on every change; a change based on an older one is refused.
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["kind", "created_at", "pk"]
        indexes = [models.Index(fields=["case", "kind", "status"])]

    def __str__(self) -> str:
        return str(self.get_kind_display())

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_NEED_STATUSES


class NeedStatusChange(CaseOwned):
    """One change of a need's status: from what, to what, on which day, by whom (the history)."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    need = models.ForeignKey(Need, on_delete=models.CASCADE, related_name="status_changes")
    # Empty for the first entry (the need was identified).
    from_status = models.CharField(max_length=20, choices=NeedStatus.choices, blank=True)
    to_status = models.CharField(max_length=20, choices=NeedStatus.choices)
    # The day it happened (the advocate may record it later).
    changed_on = models.DateField(default=timezone.localdate)
    comment = EncryptedTextField(blank=True, default="")

    narrative_fields = ("comment",)
    kept_encrypted_fields = ()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["changed_on", "created_at", "pk"]
        indexes = [models.Index(fields=["case", "changed_on"])]


class GoalStatus(models.TextChoices):
    OPEN = "open", _("Working towards it")
    ACHIEVED = "achieved", _("Achieved")
    SET_ASIDE = "set_aside", _("No longer a goal")


class Goal(CaseOwned):
    """Something the survivor wants to achieve, with a target date, usually towards a need."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="goals")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    need = models.ForeignKey(
        Need, on_delete=models.CASCADE, null=True, blank=True, related_name="goals"
    )
    description = EncryptedTextField()
    target_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=GoalStatus.choices, default=GoalStatus.OPEN)
    status_since = models.DateField(default=timezone.localdate)

    narrative_fields = ("description",)
    kept_encrypted_fields = ()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = [models.F("target_date").asc(nulls_last=True), "created_at", "pk"]
        indexes = [models.Index(fields=["case", "status"])]

    def __str__(self) -> str:
        return f"Goal set on {self.created_at:%d %b %Y}"


class ServiceHow(models.TextChoices):
    GIVEN = "given", _("Given by us")
    REFERRED = "referred", _("Referred to another service")


class ServiceOutcome(models.TextChoices):
    NOT_APPLICABLE = "", _("Not applicable")
    WAITING = "waiting", _("Waiting to hear")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Not taken up")
    COMPLETED = "completed", _("Completed")


class Service(CaseOwned):
    """A service given to the survivor or a referral made for them, towards a need.

    A referral that shares the survivor's information names the release (consent) that allowed
    it; the release lives in the confidentiality layer above casework, named by app label."""

    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="services")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    need = models.ForeignKey(
        Need, on_delete=models.SET_NULL, null=True, blank=True, related_name="services"
    )
    goal = models.ForeignKey(
        Goal, on_delete=models.SET_NULL, null=True, blank=True, related_name="services"
    )
    how = models.CharField(max_length=10, choices=ServiceHow.choices)
    provider = EncryptedTextField(blank=True, default="")
    description = EncryptedTextField(blank=True, default="")
    provided_on = models.DateField(default=timezone.localdate)
    outcome = models.CharField(
        max_length=12, choices=ServiceOutcome.choices, blank=True, default=""
    )

    narrative_fields = ("description",)
    # Who gave the service or took the referral: what reports of referrals name.
    kept_encrypted_fields = ("provider",)
    # The case note that records it, if any.
    note = models.ForeignKey(
        CaseNote, on_delete=models.SET_NULL, null=True, blank=True, related_name="services"
    )
    # The release of information that allowed the referral to share the survivor's details.
    release = models.ForeignKey(
        "confidentiality.Release",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-provided_on", "-pk"]
        indexes = [models.Index(fields=["case", "provided_on"])]

    def __str__(self) -> str:
        return f"{self.get_how_display()} on {self.provided_on:%d %b %Y}"
