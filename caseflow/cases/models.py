"""A survivor's file: the case, the people on it, their safe-contact profile, break-glass grants."""

from __future__ import annotations

import datetime as dt
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.accounts.models import Agency, Team
from caseflow.lib.choice_labels import ChoiceLabels
from caseflow.lib.encryption import (
    DataKey,
    EncryptedJSONField,
    EncryptedTextField,
    KeyDestroyed,
    blind_index,
    new_data_key,
    normalise_identity,
    unwrap_data_key,
)
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.shard import CarriesAgency


def new_public_id() -> str:
    """A random, unguessable id: the only case id that appears in URLs."""
    return secrets.token_urlsafe(16)


class CaseStatus(models.TextChoices):
    REFERRAL = "referral", _("Referral")
    ACTIVE = "active", _("Active")
    DORMANT = "dormant", _("Dormant")
    CLOSED = "closed", _("Closed")


#: A case still being worked: check-ins and reminders run, it is on the advocate's lists.
OPEN_STATUSES = (CaseStatus.REFERRAL, CaseStatus.ACTIVE)


class RiskLevel(models.TextChoices):
    UNKNOWN = "unknown", _("Not assessed")
    STANDARD = "standard", _("Standard")
    MEDIUM = "medium", _("Medium")
    HIGH = "high", _("High")


#: Which status changes are allowed (a dormant or closed case is reopened, never re-created).
STATUS_TRANSITIONS: dict[str, set[str]] = {
    CaseStatus.REFERRAL: {CaseStatus.ACTIVE, CaseStatus.CLOSED},
    CaseStatus.ACTIVE: {CaseStatus.DORMANT, CaseStatus.CLOSED},
    CaseStatus.DORMANT: {CaseStatus.ACTIVE, CaseStatus.CLOSED},
    CaseStatus.CLOSED: {CaseStatus.ACTIVE},
}


class Case(ChoiceLabels, models.Model):
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="cases")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="cases")
    reference = models.CharField(max_length=40)
    status = models.CharField(
        max_length=12, choices=CaseStatus.choices, default=CaseStatus.REFERRAL
    )
    risk_level = models.CharField(
        max_length=12, choices=RiskLevel.choices, default=RiskLevel.UNKNOWN
    )
    primary_advocate = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="primary_cases",
    )
    assignees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="CaseAssignment", related_name="assigned_cases"
    )
    restricted = models.BooleanField(default=False)
    restricted_users = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="restricted_access_cases", blank=True
    )
    conflict_flag = models.BooleanField(default=False)
    summary = EncryptedTextField(blank=True, default="")

    narrative_fields = ("summary",)
    kept_encrypted_fields = ()
    opened_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "reference"], name="case_reference_unique"),
        ]
        indexes = [models.Index(fields=["agency", "status"])]

    def __str__(self) -> str:
        return self.reference

    def save(self, *args, **kwargs):
        wrapped = None
        if self._state.adding:
            # The key exists before the first save, so encrypted fields can be written with it.
            wrapped, self.__dict__["_data_key"] = new_data_key()
        super().save(*args, **kwargs)
        if wrapped is not None:
            CaseKey.objects.create(case=self, wrapped=wrapped)

    @property
    def short_number(self) -> str:
        """What a printed paper carries to match it to its case: the reference's last part
        ("00042" of "CF-2026-00042"), which names neither the agency nor the system."""
        return self.reference.rsplit("-", 1)[-1]

    def data_key(self) -> DataKey:
        cached = self.__dict__.get("_data_key")
        if cached is None:
            try:
                wrapped = CaseKey.objects.values_list("wrapped", flat=True).get(case_id=self.pk)
            except CaseKey.DoesNotExist as exc:
                raise KeyDestroyed(f"case {self.public_id} has no data key") from exc
            cached = self.__dict__["_data_key"] = unwrap_data_key(wrapped)
        return cached

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


class CaseKey(CarriesAgency):
    """The case's data key, wrapped by the master keys. Deleting it shreds the case's content."""

    case = models.OneToOneField(Case, on_delete=models.CASCADE, related_name="key")
    wrapped = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)


class CaseAssignment(CarriesAgency):
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="assignments")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="case_assignments"
    )
    assigned_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["case", "user"], name="assignment_unique"),
        ]
        indexes = [models.Index(fields=["user", "case"])]


class CaseOwned(ChoiceLabels, CarriesAgency):
    """Base for records that belong to a case and are encrypted with its data key.

    A model that cannot inherit this base (it lives in a layer below cases) says the same with a
    ``case`` foreign key, a ``data_key`` method and ``case_owned = True``."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE)
    case_owned = True

    class Meta:
        abstract = True

    def data_key(self) -> DataKey:
        return self.case.data_key()


def name_index_for(full_name: str) -> str:
    """The blind index of a person's name: normalised (case, accents' forms, punctuation and
    spacing), words in any order, keyed. Empty for a name with no letters or digits."""
    words = sorted(normalise_identity(full_name).split())
    return blind_index("person-name", " ".join(words)) if words else ""


class PartyRole(models.TextChoices):
    SURVIVOR = "survivor", _("Survivor (client)")
    OTHER_PARTY = "other_party", _("Other party")
    CHILD = "child", _("Child")


class Party(CaseOwned):
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="parties")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    role = models.CharField(max_length=16, choices=PartyRole.choices)
    full_name = EncryptedTextField()
    #: The name the person chose to be called, shown before the full name where it is set.
    # (null when not given: rows written before these existed have no key-sealed empty value).
    known_as = EncryptedTextField(null=True, blank=True)
    #: Other names the person has been known by (earlier names, other spellings), one a line:
    #: found by a name search in the searcher's own cases, never by the agency-wide check.
    aliases = EncryptedTextField(null=True, blank=True)
    pronouns = EncryptedTextField(null=True, blank=True)
    date_of_birth = EncryptedTextField(null=True, blank=True)  # ISO date
    address = EncryptedTextField(blank=True, default="")
    phone = EncryptedTextField(blank=True, default="")
    email = EncryptedTextField(blank=True, default="")
    notes = EncryptedTextField(blank=True, default="")
    # Language and access (survivors): which languages the person speaks (codes, first preferred),
    # whether they need an interpreter and for which language, kept plain so that reports can
    # count languages served and interpreter use without opening anyone's file. How they
    # communicate and their access needs say more about the person: encrypted.
    languages = models.CharField(max_length=100, blank=True, default="")
    interpreter_language = models.CharField(max_length=16, blank=True, default="")
    # "Other (say which)": the language the advocate wrote when it is not on the list.
    other_language = EncryptedTextField(null=True, blank=True)
    # The survivor's recorded wish: the interpreter is never a family member, a friend or the
    # other party.
    interpreter_independent = models.BooleanField(default=True)
    communication_needs = EncryptedJSONField(null=True, blank=True)
    access_needs = EncryptedTextField(null=True, blank=True)

    narrative_fields = ("notes",)
    # Who the person is and how to reach them: needed to keep and find the record.
    kept_encrypted_fields = (
        "full_name",
        "known_as",
        "aliases",
        "pronouns",
        "date_of_birth",
        "address",
        "phone",
        "email",
        "communication_needs",
        "access_needs",
        "other_language",
    )
    # HMAC of normalised name + date of birth, for the conflict check; empty when no DOB is known.
    identity_index = models.CharField(max_length=64, blank=True, db_index=True)
    # HMAC of the normalised name alone (words in any order), for finding a case by name.
    name_index = models.CharField(max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["role", "created_at"]
        verbose_name_plural = "parties"

    def __str__(self) -> str:
        return f"{self.get_role_display()} on {self.case_id}"

    @property
    def shown_name(self) -> str:
        """The name to address the person by: the one they chose, else their full name."""
        return self.known_as or self.full_name

    @property
    def alias_list(self) -> list[str]:
        """The other names the person has been known by, one per line as written."""
        return [line.strip() for line in (self.aliases or "").splitlines() if line.strip()]

    def save(self, *args, **kwargs):
        # Kept in step with the name on every save that sets it (a name read back from the
        # database and not changed stays sealed, and so does its index).
        name = self.__dict__.get("full_name")
        if isinstance(name, str):
            self.name_index = name_index_for(name)
        super().save(*args, **kwargs)


class Channel(models.TextChoices):
    PHONE = "phone", _("Phone call")
    TEXT = "text", _("Text message")
    EMAIL = "email", _("E-mail")
    IN_PERSON = "in_person", _("In person")
    THIRD_PARTY = "third_party", _("Via a named third party")


class SafeContactProfile(CaseOwned):
    """How and when the survivor may safely be contacted. Everything but the zone is encrypted."""

    case = models.OneToOneField(Case, on_delete=models.CASCADE, related_name="safe_contact")
    timezone = models.CharField(max_length=64, default="Europe/London")
    # {"channels": [...], "windows": [{"days": [0..6], "start": "HH:MM", "end": "HH:MM"}],
    #  "voicemail_safe": bool}
    rules = EncryptedJSONField()
    safe_phone = EncryptedTextField(blank=True, default="")
    safe_email = EncryptedTextField(blank=True, default="")
    third_party = EncryptedTextField(blank=True, default="")
    code_word = EncryptedTextField(blank=True, default="")

    narrative_fields = ()
    # Structured rules and the contact details that make contacting the survivor safe.
    kept_encrypted_fields = ("rules", "safe_phone", "safe_email", "third_party", "code_word")
    updated_at = models.DateTimeField(auto_now=True)
    version = models.PositiveIntegerField(default=1)

    @property
    def channels(self) -> list[str]:
        return list((self.rules or {}).get("channels", []))

    @property
    def windows(self) -> list[dict]:
        return list((self.rules or {}).get("windows", []))

    @property
    def voicemail_safe(self) -> bool:
        return bool((self.rules or {}).get("voicemail_safe", False))


class Draft(CaseOwned):
    """Text typed into a long form of a case and not yet saved, kept on the server as the
    advocate types so that a timeout or a lost connection loses nothing. Encrypted with the case
    key, visible only to its author, and forgotten after ``DRAFT_DAYS`` or once the form is
    saved. Nothing is kept in the browser."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="drafts")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    #: Which form: a short key such as "safety-plan".
    form = models.CharField(max_length=60)
    #: {field name: [values]} as the form would post them (no files, no CSRF token).
    data = EncryptedJSONField()
    updated_at = models.DateTimeField(default=timezone.now)

    narrative_fields = ("data",)
    kept_encrypted_fields = ()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["case", "user", "form"], name="draft_one_per_form")
        ]


class BreakGlassOutcome(models.TextChoices):
    """What the reviewing supervisor decided about one emergency access."""

    JUSTIFIED = "justified", _("Justified")
    NOT_JUSTIFIED = "not_justified", _("Not justified")
    FOLLOW_UP = "follow_up", _("Needs follow-up")


#: Outcomes the reviewer explains in a comment.
BREAK_GLASS_COMMENT_NEEDED = frozenset(
    {BreakGlassOutcome.NOT_JUSTIFIED, BreakGlassOutcome.FOLLOW_UP}
)


class CaseFollowUpKind(models.TextChoices):
    """Follow-ups the case itself creates (registered with the inbox)."""

    #: An emergency access reviewed as needing follow-up: for the reviewing supervisor.
    BREAK_GLASS_FOLLOW_UP = "break_glass_follow_up", _("Emergency access follow-up")


class BreakGlassGrant(CaseOwned):
    """Time-limited emergency access to an unassigned case, with the typed reason."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="break_glass_grants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="break_glass_grants"
    )
    reason = EncryptedTextField()
    granted_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="break_glass_reviews",
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    #: Empty for reviews recorded before outcomes were asked for ("Mark reviewed").
    review_outcome = models.CharField(
        max_length=16, choices=BreakGlassOutcome.choices, blank=True, default=""
    )
    review_comment = EncryptedTextField(blank=True, default="")

    narrative_fields = ("reason", "review_comment")
    kept_encrypted_fields = ()

    class Meta:
        ordering = ["-granted_at"]
        indexes = [models.Index(fields=["user", "expires_at"])]

    @property
    def is_current(self) -> bool:
        return self.expires_at > timezone.now()


class CaseChange(CaseOwned):
    """The values behind one audited change of a case's own record (case fields, a person, the
    safe-contact profile): ``[[field, before, after], ...]``, encrypted with the case key. The
    audit event it belongs to (``audit_seq``) holds the field names only; the values are shown
    only to people who may read the case."""

    # A narratives-only purge deletes these rows: old values can hold narrative text.
    narrative_evidence = True

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="changes")
    audit_seq = models.BigIntegerField(unique=True)
    changes = EncryptedJSONField()

    # The rows go in a partial purge (narrative_evidence), so their values go with them.
    narrative_fields = ("changes",)
    kept_encrypted_fields = ()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-audit_seq"]


# --- Field configuration ------------------------------------------------------------------------


class IntakeField(models.TextChoices):
    """Optional fields an agency may hide or relabel (NNEDV: collect the minimum).

    Named after the intake form where they are first asked for, but the setting holds wherever
    the field is collected or shown: see ``FIELD_PLACES``.
    """

    SURVIVOR_PHONE = "survivor_phone", _("Survivor's phone")
    SURVIVOR_EMAIL = "survivor_email", _("Survivor's e-mail")
    SURVIVOR_DATE_OF_BIRTH = "survivor_date_of_birth", _("Survivor's date of birth")
    OTHER_DATE_OF_BIRTH = "other_date_of_birth", _("Other party's date of birth")
    SUMMARY = "summary", _("Referral summary")
    NOTE_DURATION = "note_duration", _("How long a contact took (case notes)")
    INCIDENT_PLACE = "incident_place", _("Where an incident happened")
    INCIDENT_INJURIES = "incident_injuries", _("Injuries (incidents)")
    INCIDENT_POLICE_REFERENCE = "incident_police_reference", _("Police reference (incidents)")
    INCIDENT_WITNESSES = "incident_witnesses", _("Witnesses (incidents)")
    CYCLE_WORDS = "cycle_words", _("The survivor's words about what followed harm")
    # Demographics (caseflow.partners): asked respectfully, counted only in aggregate.
    DEMOGRAPHIC_AGE_BAND = "demographic_age_band", _("Age (demographics)")
    DEMOGRAPHIC_GENDER = "demographic_gender_identity", _("Gender identity (demographics)")
    DEMOGRAPHIC_RACE = "demographic_race_ethnicity", _("Race and ethnicity (demographics)")
    DEMOGRAPHIC_ETHNIC_GROUP = (
        "demographic_ethnic_group",
        _("Ethnic group, the UK census's groups (demographics)"),
    )
    DEMOGRAPHIC_DISABILITY = "demographic_disability", _("Disability (demographics)")
    DEMOGRAPHIC_LANGUAGE = "demographic_language", _("Language (demographics)")
    DEMOGRAPHIC_RELATIONSHIP = (
        "demographic_relationship",
        _("Relationship to the other party (demographics)"),
    )
    DEMOGRAPHIC_HOUSEHOLD = "demographic_household", _("Household (demographics)")
    DEMOGRAPHIC_CHILDREN = "demographic_children", _("Children (demographics)")
    DEMOGRAPHIC_IMMIGRATION = "demographic_immigration", _("Immigration status (demographics)")
    # The safety plan (caseflow.safety): the words she uses for a date that is hard for her.
    HARD_DATE_WORDS = "hard_date_words", _("Her words for a hard date (safety plan)")
    # HUD's entry and exit questions (caseflow.partners.hud), for an agency reporting to HUD.
    HUD_ANSWERS = "hud_answers", _("HUD entry and exit answers (the HUD report's questions)")


#: Where each optional field is stored: ("party", role, attribute), or (kind, None, attribute) for
#: a field of the case itself ("case") or of its notes ("note"), incidents ("incident"), marks of
#: what followed harm ("cycle_mark") or hard dates ("hard_date").
#: The intake form names them after the setting itself; the party and case edit forms and the case
#: page use the attribute.
FIELD_PLACES: dict[str, tuple[str, str | None, str]] = {
    IntakeField.SURVIVOR_PHONE: ("party", PartyRole.SURVIVOR, "phone"),
    IntakeField.SURVIVOR_EMAIL: ("party", PartyRole.SURVIVOR, "email"),
    IntakeField.SURVIVOR_DATE_OF_BIRTH: ("party", PartyRole.SURVIVOR, "date_of_birth"),
    IntakeField.OTHER_DATE_OF_BIRTH: ("party", PartyRole.OTHER_PARTY, "date_of_birth"),
    IntakeField.SUMMARY: ("case", None, "summary"),
    IntakeField.NOTE_DURATION: ("note", None, "duration_minutes"),
    IntakeField.INCIDENT_PLACE: ("incident", None, "place"),
    IntakeField.INCIDENT_INJURIES: ("incident", None, "injuries"),
    IntakeField.INCIDENT_POLICE_REFERENCE: ("incident", None, "police_reference"),
    IntakeField.INCIDENT_WITNESSES: ("incident", None, "witnesses"),
    IntakeField.CYCLE_WORDS: ("cycle_mark", None, "words"),
    IntakeField.DEMOGRAPHIC_AGE_BAND: ("demographics", None, "age_band"),
    IntakeField.DEMOGRAPHIC_GENDER: ("demographics", None, "gender_identity"),
    IntakeField.DEMOGRAPHIC_RACE: ("demographics", None, "race_ethnicity"),
    IntakeField.DEMOGRAPHIC_ETHNIC_GROUP: ("demographics", None, "ethnic_group"),
    IntakeField.DEMOGRAPHIC_DISABILITY: ("demographics", None, "disability"),
    IntakeField.DEMOGRAPHIC_LANGUAGE: ("demographics", None, "language"),
    IntakeField.DEMOGRAPHIC_RELATIONSHIP: ("demographics", None, "relationship"),
    IntakeField.DEMOGRAPHIC_HOUSEHOLD: ("demographics", None, "household"),
    IntakeField.DEMOGRAPHIC_CHILDREN: ("demographics", None, "children"),
    IntakeField.DEMOGRAPHIC_IMMIGRATION: ("demographics", None, "immigration"),
    IntakeField.HARD_DATE_WORDS: ("hard_date", None, "words"),
    IntakeField.HUD_ANSWERS: ("hud", None, "answers"),
}


#: Optional fields hidden until the agency shows them: the UK census's ethnic groups are asked
#: by agencies in the UK, in place of (or beside) the US race and ethnicity question; HUD's
#: entry and exit questions only by an agency that reports to HUD.
HIDDEN_UNTIL_SHOWN = frozenset({IntakeField.DEMOGRAPHIC_ETHNIC_GROUP, IntakeField.HUD_ANSWERS})


class FieldSetting(models.Model):
    """One agency's choice for one optional field: hidden, or shown under its own label."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="field_settings")
    field = models.CharField(max_length=32, choices=IntakeField.choices)
    hidden = models.BooleanField(default=False)
    label = models.CharField(max_length=80, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        # The table keeps the name it was created with (in the confidentiality app).
        db_table = "confidentiality_fieldsetting"
        constraints = [
            models.UniqueConstraint(fields=["agency", "field"], name="field_setting_unique")
        ]


# --- The survivor's journey: episodes of support, closure and its outcomes, risk provenance -----


class EpisodeStatus(models.TextChoices):
    REFERRAL = "referral", _("Referral")
    ACTIVE = "active", _("Active")
    CLOSED = "closed", _("Closed")


class EpisodeStart(models.TextChoices):
    """How an episode of support began. A return is never a failure: leaving usually takes
    several attempts."""

    REFERRAL = "referral", _("First referral")
    RETURN = "return", _("Came back to the service")
    REREFERRAL = "re_referral", _("Referred again")


class Episode(CaseOwned):
    """One run of support inside a case, from referral (or reopening) to closure. A case has at
    least one; reopening a closed case starts the next, and everything before stays on the case."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="episodes")
    number = models.PositiveIntegerField()
    status = models.CharField(
        max_length=12, choices=EpisodeStatus.choices, default=EpisodeStatus.REFERRAL
    )
    start = models.CharField(
        max_length=12, choices=EpisodeStart.choices, default=EpisodeStart.REFERRAL
    )
    opened_at = models.DateTimeField(default=timezone.now)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    narrative_fields = ()
    kept_encrypted_fields = ()

    class Meta:
        ordering = ["case", "number"]
        constraints = [
            models.UniqueConstraint(fields=["case", "number"], name="episode_number_unique"),
            models.UniqueConstraint(
                fields=["case"],
                condition=~models.Q(status="closed"),
                name="episode_one_open_per_case",
            ),
        ]
        indexes = [models.Index(fields=["status", "opened_at"])]

    def __str__(self) -> str:
        return f"Episode {self.number} of {self.case_id}"


class StandardClosureReason(models.TextChoices):
    """The reasons every agency starts with (each agency may add its own)."""

    GOALS_MET = "goals_met", _("Goals met")
    SURVIVOR_CHOICE = "survivor_choice", _("The survivor's choice")
    NO_CONTACT = "no_contact", _("No contact after several attempts")
    MOVED_AWAY = "moved_away", _("Moved out of the area")
    REFERRED_ON = "referred_on", _("Referred on to another service")
    OTHER = "other", _("Other")
    #: Set by an accepted transfer (``caseflow.transfers``); also for closing by hand after a
    #: transfer pack went to a service not on caseflow.
    TRANSFERRED = "transferred", _("Transferred to another service")


class ClosureReason(models.Model):
    """A reason a case of the agency may be closed for: the standard ones (``standard`` set)
    and the agency's own. Retired reasons stay for the closures that used them."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="closure_reasons")
    standard = models.CharField(
        max_length=20, choices=StandardClosureReason.choices, blank=True, default=""
    )
    label = models.CharField(max_length=80)
    active = models.BooleanField(default=True)
    position = models.PositiveSmallIntegerField(default=100)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["position", "label"]
        constraints = [
            models.UniqueConstraint(
                fields=["agency", "standard"],
                condition=~models.Q(standard=""),
                name="closure_reason_standard_unique",
            ),
            models.UniqueConstraint(fields=["agency", "label"], name="closure_reason_label_unique"),
        ]

    def __str__(self) -> str:
        return self.label


class ClosureState(models.TextChoices):
    AWAITING_APPROVAL = "awaiting", _("Waiting for a supervisor's approval")
    RETURNED = "returned", _("Returned by a supervisor")
    CLOSED = "closed", _("Closed")


class PlanExitCheck(models.TextChoices):
    REVIEWED = "reviewed", _("Reviewed with the survivor")
    NOT_REACHED = "not_reached", _("Could not be reviewed: the survivor could not be reached")
    DECLINED = "declined", _("The survivor did not want to review it")
    NO_PLAN = "no_plan", _("There is no safety plan")
    #: Set by an accepted transfer only (the receiving service reviews it): not on the form.
    TRANSFERRED = "transferred", _("Passed on with the transfer")


class AbuseChange(models.TextChoices):
    STOPPED = "stopped", _("Stopped")
    REDUCED = "reduced", _("Reduced")
    UNCHANGED = "unchanged", _("Unchanged")
    INCREASED = "increased", _("Increased")
    NOT_KNOWN = "not_known", _("Not known")


class FeelsSafer(models.TextChoices):
    YES = "yes", _("Yes")
    A_LITTLE = "a_little", _("A little")
    NO = "no", _("No")
    NOT_ASKED = "not_asked", _("Not asked or did not say")


class QualityOfLife(models.IntegerChoices):
    VERY_POOR = 1, _("Very poor")
    POOR = 2, _("Poor")
    FAIR = 3, _("Neither good nor poor")
    GOOD = 4, _("Good")
    VERY_GOOD = 5, _("Very good")


class Closure(CaseOwned):
    """Closing an episode: why, the exit check of the safety plan, and the outcomes measured at
    closure against intake. A case whose latest risk band is high is closed only once a
    supervisor (a second person) approves; until then the request waits, or is returned."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="closures")
    episode = models.OneToOneField(Episode, on_delete=models.CASCADE, related_name="closure")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    state = models.CharField(max_length=12, choices=ClosureState.choices)
    reason = models.ForeignKey(ClosureReason, on_delete=models.PROTECT, related_name="closures")
    contact_attempts = models.PositiveSmallIntegerField(null=True, blank=True)
    reason_details = EncryptedTextField(blank=True, default="")
    plan_check = models.CharField(max_length=12, choices=PlanExitCheck.choices)
    if_things_change = EncryptedTextField(blank=True, default="")
    # Outcome measures (counted by reports: plain choices, no free text).
    abuse_change = models.CharField(max_length=12, choices=AbuseChange.choices)
    feels_safer = models.CharField(max_length=12, choices=FeelsSafer.choices)
    risk_at_intake = models.CharField(max_length=12, choices=RiskLevel.choices)
    risk_at_exit = models.CharField(max_length=12, choices=RiskLevel.choices)
    quality_of_life_start = models.PositiveSmallIntegerField(
        choices=QualityOfLife.choices, null=True, blank=True
    )
    quality_of_life_exit = models.PositiveSmallIntegerField(
        choices=QualityOfLife.choices, null=True, blank=True
    )
    #: Which of the case's needs were met: a list of need ids or kinds, filled once needs are
    #: structured (an empty list until then).
    needs_met = models.JSONField(default=list, blank=True)
    needs_approval = models.BooleanField(default=False)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_comment = EncryptedTextField(blank=True, default="")
    closed_at = models.DateTimeField(null=True, blank=True)
    #: What closing cancelled: {"followups": n, "checkins": n}.
    cancelled = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=1)

    narrative_fields = ("reason_details", "if_things_change", "decision_comment")
    kept_encrypted_fields = ()

    class Meta:
        ordering = ["-requested_at"]
        indexes = [models.Index(fields=["state", "requested_at"])]

    def __str__(self) -> str:
        return f"Closure of {self.case_id}"


class ReopenRequestState(models.TextChoices):
    OPEN = "open", _("Waiting for a supervisor")
    REOPENED = "reopened", _("Reopened")
    DECLINED = "declined", _("Declined")


class ReopenRequest(CaseOwned):
    """An advocate, taking a referral, found the survivor's earlier case in a team they do not
    work in: they ask its supervisors to reopen it and assign it, instead of opening a duplicate."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="reopen_requests")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    note = EncryptedTextField(blank=True, default="")
    state = models.CharField(
        max_length=12, choices=ReopenRequestState.choices, default=ReopenRequestState.OPEN
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    narrative_fields = ("note",)
    kept_encrypted_fields = ()

    class Meta:
        ordering = ["-requested_at"]


class RiskSource(models.TextChoices):
    ASSESSMENT = "assessment", _("Risk assessment")
    OVERRIDE = "override", _("Changed by hand")
    INTAKE = "intake", _("Chosen at intake, before any assessment")
    RECORDED = "recorded", _("Recorded before sources were kept")


class RiskLevelChange(CaseOwned):
    """Where the case's risk level comes from: each change, newest last. The latest row is the
    source of the level shown now (an assessment of a date, or a change by hand: by whom, when,
    why). A lowering below the latest assessment needs a reason and tells the supervisors."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="risk_changes")
    level = models.CharField(max_length=12, choices=RiskLevel.choices)
    previous = models.CharField(max_length=12, choices=RiskLevel.choices, blank=True, default="")
    source = models.CharField(max_length=12, choices=RiskSource.choices)
    #: The assessment's public id and its own date (a source = assessment row).
    assessment_id = models.CharField(max_length=32, blank=True, default="")
    assessed_at = models.DateTimeField(null=True, blank=True)
    #: The band of the latest assessment when this change was made by hand.
    assessed_level = models.CharField(
        max_length=12, choices=RiskLevel.choices, blank=True, default=""
    )
    below_assessment = models.BooleanField(default=False)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    reason = EncryptedTextField(blank=True, default="")

    narrative_fields = ("reason",)
    kept_encrypted_fields = ()

    class Meta:
        ordering = ["case", "at", "pk"]
        indexes = [models.Index(fields=["case", "-at"])]


class Cover(models.Model):
    """While ``absent`` is away (leave, sickness), ``covering`` sees and works the cases
    ``absent`` is assigned to, from ``starts_at`` until ``ends_at``: it ends by itself. Set by a
    supervisor of their team; a restricted case stays with its access list. Every read of a
    case through cover is audited as such (``policy.get_case_for`` marks it)."""

    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    absent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="covered_by"
    )
    covering = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="covers"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    #: Set when a supervisor ends the cover early.
    ended_at = models.DateTimeField(null=True, blank=True)
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["covering", "ends_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")), name="cover_ends_after_start"
            ),
            models.CheckConstraint(
                condition=~models.Q(absent=models.F("covering")), name="cover_not_oneself"
            ),
        ]

    def __str__(self) -> str:
        return f"cover {self.pk}"

    @property
    def last_moment(self) -> dt.datetime:
        """The last instant covered: shown as the last day in the reader's zone."""
        return self.ends_at - dt.timedelta(microseconds=1)
