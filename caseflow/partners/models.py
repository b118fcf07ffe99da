"""Working with other agencies: the multi-agency risk meeting (MARAC, a high-risk team), referrals
to and from other services, and the survivor's demographics that funders count.

Everything here belongs to a case and is encrypted with its data key: who the other agency is,
what was shared, what the meeting agreed, and each demographic answer. Reports read the answers
only to count them (caseflow.reporting), never to list them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from caseflow.accounts.models import Agency
from caseflow.cases.models import Case, CaseOwned, Party, new_public_id
from caseflow.confidentiality.models import Release
from caseflow.lib.encryption import EncryptedJSONField, EncryptedTextField


class PartnersFollowUpKind(models.TextChoices):
    """Follow-ups this app creates (registered with the inbox)."""

    REFERRAL_RESPONSE = "referral_response", _("Referral waiting for a reply")


class AgencyPartnerSettings(models.Model):
    """What the agency calls its risk meeting, and its recorded lawful basis for sharing with
    that meeting when a survivor is at high risk and no release covers it."""

    agency = models.OneToOneField(Agency, on_delete=models.CASCADE, related_name="partner_settings")
    meeting_name = models.CharField(max_length=80, default="MARAC")
    # The agency's policy, not anyone's personal data: kept in clear, changed only by its admin.
    lawful_basis = models.TextField(blank=True, default="")
    lawful_basis_recorded_at = models.DateTimeField(null=True, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)


class HudProjectType(models.TextChoices):
    """HUD's project types (data standards 2.02.6), as caseflow's codes; the report writes each
    in the reader's words."""

    ES_ENTRY_EXIT = "es_entry_exit", _("Emergency shelter, entry and exit")
    ES_NIGHTLY = "es_nightly", _("Emergency shelter, night by night")
    TRANSITIONAL = "transitional", _("Transitional housing")
    SUPPORTIVE = "supportive", _("Permanent supportive housing")
    OUTREACH = "outreach", _("Street outreach")
    SERVICES_ONLY = "services_only", _("Services only")
    OTHER = "other", _("Other")
    SAFE_HAVEN = "safe_haven", _("Safe haven")
    HOUSING_ONLY = "housing_only", _("Permanent housing, housing only")
    HOUSING_WITH_SERVICES = "housing_with_services", _("Permanent housing, housing with services")
    DAY_SHELTER = "day_shelter", _("Day shelter")
    PREVENTION = "prevention", _("Homelessness prevention")
    RAPID_REHOUSING = "rapid_rehousing", _("Rapid re-housing")
    COORDINATED_ENTRY = "coordinated_entry", _("Coordinated entry")


#: The project types that house people in permanent housing: the HUD report counts the days to
#: move in (Q22c), and the day of housing is the day they moved in (Q22e).
PERMANENT_HOUSING = frozenset(
    {
        HudProjectType.SUPPORTIVE,
        HudProjectType.HOUSING_ONLY,
        HudProjectType.HOUSING_WITH_SERVICES,
        HudProjectType.RAPID_REHOUSING,
    }
)


#: The project types whose people HUD counts by the days from homelessness to housing (Q22e):
#: shelters, transitional and permanent housing and safe havens, not services only, street
#: outreach, day shelter, prevention, coordinated entry or "other".
HOUSING_PROJECTS = frozenset(
    {
        HudProjectType.ES_ENTRY_EXIT,
        HudProjectType.ES_NIGHTLY,
        HudProjectType.TRANSITIONAL,
        HudProjectType.SAFE_HAVEN,
        *PERMANENT_HOUSING,
    }
)


class HudRrhSubtype(models.TextChoices):
    SERVICES_ONLY = "services_only", _("Services only")
    HOUSING = "housing", _("Housing, with or without services")


class HudProject(models.Model):
    """How the agency's project is known to HUD: what the APR's first question (Q4a) prints
    above the counts. The agency's own identifiers, not anyone's personal data: kept in clear,
    changed only by its admin, every change audited."""

    agency = models.OneToOneField(Agency, on_delete=models.CASCADE, related_name="hud_project")
    organization_name = models.CharField(max_length=120)
    organization_id = models.CharField(max_length=40, blank=True, default="")
    project_name = models.CharField(max_length=120)
    project_id = models.CharField(max_length=40, blank=True, default="")
    project_type = models.CharField(max_length=24, choices=HudProjectType.choices)
    rrh_subtype = models.CharField(
        max_length=16, choices=HudRrhSubtype.choices, blank=True, default=""
    )
    coordinated_entry_access_point = models.BooleanField(default=False)
    affiliated_with_residential = models.BooleanField(default=False)
    affiliated_project_ids = models.CharField(max_length=200, blank=True, default="")
    coc_number = models.CharField(max_length=6)
    geocode = models.CharField(max_length=6)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)


#: What the agency admin sets on the HUD project page.
HUD_PROJECT_FIELDS = (
    "organization_name",
    "organization_id",
    "project_name",
    "project_id",
    "project_type",
    "rrh_subtype",
    "coordinated_entry_access_point",
    "affiliated_with_residential",
    "affiliated_project_ids",
    "coc_number",
    "geocode",
)


class ReferralRoute(models.TextChoices):
    ASSESSMENT = "assessment", _("A high risk assessment")
    JUDGEMENT = "judgement", _("Professional judgement")


class SharingBasis(models.TextChoices):
    RELEASE = "release", _("The survivor's consent to share")
    LAWFUL_BASIS = "lawful_basis", _("The agency's lawful basis for high-risk sharing")


class MeetingReferral(CaseOwned):
    """A referral of the case to the agency's multi-agency risk meeting."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="meeting_referrals")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    route = models.CharField(max_length=12, choices=ReferralRoute.choices)
    # Why, in the advocate's words (required for professional judgement).
    reason = EncryptedTextField(blank=True, default="")
    basis = models.CharField(max_length=16, choices=SharingBasis.choices)
    release = models.ForeignKey(
        Release, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The lawful basis as it stood when the information was shared.
    lawful_basis = models.TextField(blank=True, default="")
    categories = models.JSONField(default=list)
    meeting_name = models.CharField(max_length=80)
    referred_on = models.DateField()
    meeting_on = models.DateField(null=True, blank=True)
    # Heard at a risk meeting within the twelve months before this referral.
    repeat = models.BooleanField(default=False)
    outcome = EncryptedTextField(blank=True, default="")
    outcome_recorded_at = models.DateTimeField(null=True, blank=True)
    referred_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    narrative_fields = ("reason", "outcome")
    kept_encrypted_fields = ()

    class Meta:
        ordering = ["-referred_on", "-pk"]
        indexes = [models.Index(fields=["case", "-referred_on"])]


class ActionStatus(models.TextChoices):
    OPEN = "open", _("Open")
    DONE = "done", _("Done")
    DROPPED = "dropped", _("No longer needed")


class MeetingAction(CaseOwned):
    """One action the risk meeting agreed: who does it (someone here, or another agency) by
    when."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="meeting_actions")
    referral = models.ForeignKey(MeetingReferral, on_delete=models.CASCADE, related_name="actions")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    text = EncryptedTextField()
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    owner_agency = EncryptedTextField(blank=True, default="")
    due_on = models.DateField()
    status = models.CharField(max_length=8, choices=ActionStatus.choices, default="open")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    narrative_fields = ("text",)
    kept_encrypted_fields = ("owner_agency",)

    class Meta:
        ordering = ["due_on", "pk"]
        indexes = [models.Index(fields=["owner", "status", "due_on"])]


class ServiceType(models.TextChoices):
    HOUSING = "housing", _("Housing")
    LEGAL = "legal", _("Legal")
    HEALTH = "health", _("Health")
    CHILDREN = "children", _("Children's services")
    POLICE = "police", _("Police")
    DV_SERVICE = "dv_service", _("Another domestic abuse service")
    OTHER = "other", _("Other")


class Direction(models.TextChoices):
    OUT = "out", _("From us to them")
    IN = "in", _("From them to us")


class ReferralState(models.TextChoices):
    SENT = "sent", _("Sent")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    COMPLETED = "completed", _("Completed")
    NO_RESPONSE = "no_response", _("No response")


#: Where a referral may go next.
STATE_MOVES: dict[str, set[str]] = {
    ReferralState.SENT: {ReferralState.ACCEPTED, ReferralState.DECLINED, ReferralState.NO_RESPONSE},
    ReferralState.NO_RESPONSE: {ReferralState.ACCEPTED, ReferralState.DECLINED},
    ReferralState.ACCEPTED: {ReferralState.COMPLETED},
    ReferralState.DECLINED: set(),
    ReferralState.COMPLETED: set(),
}


class ServiceReferral(CaseOwned):
    """A referral to another service (out) or from one (in), and where it has got to."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="service_referrals")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    direction = models.CharField(max_length=4, choices=Direction.choices, default=Direction.OUT)
    service_type = models.CharField(max_length=12, choices=ServiceType.choices)
    organisation = EncryptedTextField()
    details = EncryptedTextField(blank=True, default="")
    state = models.CharField(max_length=12, choices=ReferralState.choices, default="sent")
    sent_on = models.DateField()
    respond_by = models.DateField(null=True, blank=True)
    state_changed_on = models.DateField()
    release = models.ForeignKey(
        Release, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The needs of the case this referral serves.
    needs = models.ManyToManyField("casework.Need", blank=True, related_name="partner_referrals")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)

    narrative_fields = ("details",)
    kept_encrypted_fields = ("organisation",)

    class Meta:
        ordering = ["-sent_on", "-pk"]
        indexes = [models.Index(fields=["state", "respond_by"])]


# --- Demographics ------------------------------------------------------------------------------

DECLINED = "declined"
NOT_ASKED = "not_asked"
_ANSWERS: list[tuple[str, Any]] = [
    (DECLINED, _("Declined to answer")),
    (NOT_ASKED, _("Not asked")),
]

#: The questions, each with its answers (the last two always "declined" and "not asked").
#: Age bands are fine enough to add up to every funder's bands.
QUESTIONS: dict[str, tuple[Any, list[tuple[str, Any]]]] = {
    "age_band": (
        _("Age"),
        [
            ("under_13", _("Under 13")),
            ("13_17", _("13 to 17")),
            ("18_24", _("18 to 24")),
            ("25_34", _("25 to 34")),
            ("35_44", _("35 to 44")),
            ("45_54", _("45 to 54")),
            ("55_59", _("55 to 59")),
            ("60_64", _("60 to 64")),
            ("65_plus", _("65 or over")),
        ],
    ),
    "gender_identity": (
        _("Gender identity"),
        [
            ("woman", _("Woman")),
            ("man", _("Man")),
            ("non_binary", _("Non-binary")),
            ("transgender", _("Transgender")),
            ("culturally_specific", _("A culturally specific identity")),
            ("different", _("A different identity")),
            ("questioning", _("Questioning")),
        ],
    ),
    "race_ethnicity": (
        _("Race and ethnicity"),
        [
            ("indigenous", _("American Indian, Alaska Native or Indigenous")),
            ("asian", _("Asian or Asian American")),
            ("black", _("Black, African American or African")),
            ("hispanic", _("Hispanic or Latin American")),
            ("mena", _("Middle Eastern or North African")),
            ("pacific", _("Native Hawaiian or Pacific Islander")),
            ("white", _("White")),
            ("multiple", _("More than one")),
            ("other", _("Another")),
        ],
    ),
    # The ethnic groups of the 2021 census of England and Wales (ONS), for agencies in the UK:
    # hidden until the agency shows it on its field settings page.
    "ethnic_group": (
        _("Ethnic group"),
        [
            ("asian_indian", _("Asian or Asian British: Indian")),
            ("asian_pakistani", _("Asian or Asian British: Pakistani")),
            ("asian_bangladeshi", _("Asian or Asian British: Bangladeshi")),
            ("asian_chinese", _("Asian or Asian British: Chinese")),
            ("asian_other", _("Asian or Asian British: any other Asian background")),
            ("black_caribbean", _("Black, Black British, Caribbean or African: Caribbean")),
            ("black_african", _("Black, Black British, Caribbean or African: African")),
            (
                "black_other",
                _("Black, Black British, Caribbean or African: any other Black background"),
            ),
            ("mixed_white_black_caribbean", _("Mixed or multiple: White and Black Caribbean")),
            ("mixed_white_black_african", _("Mixed or multiple: White and Black African")),
            ("mixed_white_asian", _("Mixed or multiple: White and Asian")),
            ("mixed_other", _("Mixed or multiple: any other mixed or multiple background")),
            (
                "white_british",
                _("White: English, Welsh, Scottish, Northern Irish or British"),
            ),
            ("white_irish", _("White: Irish")),
            ("white_gypsy_traveller", _("White: Gypsy or Irish Traveller")),
            ("white_roma", _("White: Roma")),
            ("white_other", _("White: any other White background")),
            ("other_arab", _("Another ethnic group: Arab")),
            ("other_any", _("Another ethnic group: any other")),
        ],
    ),
    "disability": (
        _("Disability"),
        [("yes", _("Yes")), ("no", _("No"))],
    ),
    "language": (
        _("Language"),
        [
            ("english", _("English")),
            ("spanish", _("Spanish")),
            ("other", _("Another language")),
            ("interpreter", _("Another language, with an interpreter")),
        ],
    ),
    "relationship": (
        _("Relationship to the other party"),
        [
            ("partner", _("Partner")),
            ("ex_partner", _("Former partner")),
            ("family", _("Family member")),
            ("other", _("Another relationship")),
        ],
    ),
    "household": (
        _("Household"),
        [
            ("alone", _("Lives alone")),
            ("with_children", _("With children")),
            ("with_adults", _("With other adults")),
            ("with_other_party", _("With the other party")),
            ("no_fixed", _("No fixed home")),
        ],
    ),
    "children": (
        _("Children"),
        [("none", _("None")), ("one", _("One")), ("two", _("Two")), ("three_plus", _("Three+"))],
    ),
    "immigration": (
        _("Immigration status"),
        [
            ("citizen", _("Citizen or settled")),
            ("visa", _("On a visa")),
            ("no_recourse", _("No recourse to public funds")),
            ("uncertain", _("Uncertain or pending")),
        ],
    ),
}


#: The five high-level groups of the ONS 2021 ethnic groups, each of the answers in it (the
#: groups funders in the UK count by).
ONS_GROUPS: dict[str, tuple[Any, tuple[str, ...]]] = {
    "asian": (
        _("Asian or Asian British"),
        ("asian_indian", "asian_pakistani", "asian_bangladeshi", "asian_chinese", "asian_other"),
    ),
    "black": (
        _("Black, Black British, Caribbean or African"),
        ("black_caribbean", "black_african", "black_other"),
    ),
    "mixed": (
        _("Mixed or multiple ethnic groups"),
        (
            "mixed_white_black_caribbean",
            "mixed_white_black_african",
            "mixed_white_asian",
            "mixed_other",
        ),
    ),
    "white": (
        _("White"),
        ("white_british", "white_irish", "white_gypsy_traveller", "white_roma", "white_other"),
    ),
    "other": (_("Another ethnic group"), ("other_arab", "other_any")),
}


def answers(question: str) -> list[tuple[str, Any]]:
    return [*QUESTIONS[question][1], *_ANSWERS]


def answer_label(question: str, value: str) -> str:
    return str(dict(answers(question)).get(value, _("Not asked")))


class Demographics(CaseOwned):
    """The survivor's answers to the questions funders count, each encrypted with the case key.
    Every answer may be "declined to answer" or "not asked"."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="+")
    party = models.OneToOneField(Party, on_delete=models.CASCADE, related_name="demographics")
    age_band = EncryptedTextField(default=NOT_ASKED)
    gender_identity = EncryptedTextField(default=NOT_ASKED)
    race_ethnicity = EncryptedTextField(default=NOT_ASKED)
    # NULL on rows written before the question existed (read as "not asked").
    ethnic_group = EncryptedTextField(null=True, default=NOT_ASKED)
    disability = EncryptedTextField(default=NOT_ASKED)
    language = EncryptedTextField(default=NOT_ASKED)
    relationship = EncryptedTextField(default=NOT_ASKED)
    household = EncryptedTextField(default=NOT_ASKED)
    children = EncryptedTextField(default=NOT_ASKED)
    immigration = EncryptedTextField(default=NOT_ASKED)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)
    #: Every answer again, in one token written with them on every save: what funders' reports
    #: read, so that one decryption serves every question of the row (NULL on a row written
    #: before it existed: reports then read the questions one by one; ``manage.py
    #: seal_demographics`` writes it for every row).
    all_answers = EncryptedJSONField(null=True, editable=False)

    narrative_fields = ()
    # Answers the survivor chose to give, counted (never listed) in funders' reports.
    kept_encrypted_fields = (*QUESTIONS, "all_answers")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["case", "party"], name="demographics_one_per_party")
        ]

    def seal_answers(self) -> None:
        """Copy the answers into :attr:`all_answers` (``save`` does it; a ``bulk_create`` must)."""
        self.all_answers = {question: getattr(self, question) for question in QUESTIONS}

    def save(self, *args: Any, **kwargs: Any) -> None:
        fields = kwargs.get("update_fields")
        if fields is None or set(fields) & set(QUESTIONS):
            self.seal_answers()
            if fields is not None:
                kwargs["update_fields"] = {*fields, "all_answers"}
        super().save(*args, **kwargs)


# --- HUD entry and exit answers ----------------------------------------------------------------


class HudAnswers(CaseOwned):
    """The survivor's answers to HUD's entry and exit questions for one episode of support
    (:mod:`caseflow.partners.hud`), all in one token encrypted with the case key: what the
    HUD APR/CAPER counts, read by one decryption per person. Collected only by an agency that
    shows the section on its field settings page (hidden until then)."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="+")
    episode = models.OneToOneField(
        "cases.Episode", on_delete=models.CASCADE, related_name="hud_answers"
    )
    #: {element name: code, list of codes, or an amount as text} (``hud.blank`` for the keys).
    answers = EncryptedJSONField(default=dict)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)
    #: When the answers were first saved, and when an answer at exit was first given: HUD's
    #: timeliness of data entry (Q6e). Null for answers saved before caseflow kept it.
    recorded_at = models.DateTimeField(null=True, blank=True)
    exit_recorded_at = models.DateTimeField(null=True, blank=True)

    narrative_fields = ()
    # Answers the survivor chose to give, as codes, counted (never listed) in HUD's report.
    kept_encrypted_fields = ("answers",)

    class Meta:
        indexes = [models.Index(fields=["case", "episode"])]
