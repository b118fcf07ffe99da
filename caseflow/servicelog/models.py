"""Services given, counted in the funders' categories.

Every service an advocate gives (from a note, a call, a shelter stay or a court hearing) can be
counted once in a category of a catalogue: the standard categories of the schemes funders report
by (the OVC VOCA performance measures' services, grouped in their five areas, and the SafeLives
Insights service types), stored as codes and shown in the reader's language, and the agency's own
categories, kept by its admin. The agency chooses which schemes it counts by.

A service record is counting data: a category, minutes, a date, who gave it and what it came from.
No free text and nothing personal, but it is case data: its case's policy decides who records
it. Its case may be empty (a call on no case), so it is not a case-owned row (those have a
required case): like a call, it is deleted with its case, and a purge that shreds the case's
content keeps it, a count that identifies no one. What it came from is a foreign key by
name to the note, call, stay or hearing: this app sits beside calls, shelter and court and imports
none of them.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.cases.models import new_public_id
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.shard import CarriesAgency

#: A service lasts at least a minute and at most a day.
MAX_MINUTES = 24 * 60
#: No service is recorded before this day (a year typed wrong).
EARLIEST = dt.date(2000, 1, 1)


class Scheme(models.TextChoices):
    VOCA = "voca", _("OVC VOCA performance measures")
    INSIGHTS = "insights", _("SafeLives Insights")


class Area(models.TextChoices):
    """The groups the catalogue is shown in: VOCA's five service areas, and Insights."""

    VOCA_A = "voca_a", _("Information and referral")
    VOCA_B = "voca_b", _("Personal advocacy and accompaniment")
    VOCA_C = "voca_c", _("Emotional support or safety services")
    VOCA_D = "voca_d", _("Shelter and housing services")
    VOCA_E = "voca_e", _("Criminal and civil justice system assistance")
    INSIGHTS = "insights", _("SafeLives Insights service types")


class StandardCategory(models.TextChoices):
    """The standard categories. A code's prefix is its area (``voca_c2`` is VOCA's area C),
    which gives its scheme; codes never change once stored."""

    # VOCA A. Information and referral
    VOCA_A1 = "voca_a1", _("Information about the criminal justice process")
    VOCA_A2 = "voca_a2", _("Information about rights and being told of case events")
    VOCA_A3 = "voca_a3", _("Referral to other support services for survivors")
    VOCA_A4 = "voca_a4", _("Referral to other services, supports and resources")
    # VOCA B. Personal advocacy and accompaniment
    VOCA_B1 = "voca_b1", _("Advocacy and accompaniment to emergency medical care")
    VOCA_B2 = "voca_b2", _("Advocacy and accompaniment to a medical forensic exam")
    VOCA_B3 = "voca_b3", _("Advocacy and accompaniment at a police interview")
    VOCA_B4 = "voca_b4", _("Individual advocacy (benefits, belongings and the like)")
    VOCA_B5 = "voca_b5", _("Immigration assistance")
    VOCA_B6 = "voca_b6", _("Intervention with an employer, creditor, landlord or school")
    VOCA_B7 = "voca_b7", _("Child or dependant care assistance")
    VOCA_B8 = "voca_b8", _("Transportation assistance")
    VOCA_B9 = "voca_b9", _("Interpreter services")
    # VOCA C. Emotional support or safety services
    VOCA_C1 = "voca_c1", _("Crisis intervention (in person, safety planning included)")
    VOCA_C2 = "voca_c2", _("Hotline or crisis line counselling")
    VOCA_C3 = "voca_c3", _("On-scene crisis response")
    VOCA_C4 = "voca_c4", _("Individual counselling")
    VOCA_C5 = "voca_c5", _("Support groups")
    VOCA_C6 = "voca_c6", _("Other therapy (traditional, cultural or alternative healing)")
    VOCA_C7 = "voca_c7", _("Emergency financial assistance")
    # VOCA D. Shelter and housing services
    VOCA_D1 = "voca_d1", _("Emergency shelter or safe house")
    VOCA_D2 = "voca_d2", _("Transitional housing")
    VOCA_D3 = "voca_d3", _("Relocation assistance")
    # VOCA E. Criminal and civil justice system assistance
    VOCA_E1 = "voca_e1", _("Notification of criminal justice events")
    VOCA_E2 = "voca_e2", _("Help with an impact statement")
    VOCA_E3 = "voca_e3", _("Assistance with restitution")
    VOCA_E4 = "voca_e4", _("Protection or restraining order assistance")
    VOCA_E5 = "voca_e5", _("Family law assistance (custody, visitation or support)")
    VOCA_E6 = "voca_e6", _("Other emergency justice-related assistance")
    VOCA_E7 = "voca_e7", _("Immigration attorney assistance")
    VOCA_E8 = "voca_e8", _("Prosecution interview advocacy and accompaniment")
    VOCA_E9 = "voca_e9", _("Criminal court advocacy and accompaniment")
    VOCA_E10 = "voca_e10", _("Other legal advice or counsel")
    # SafeLives Insights service types
    INSIGHTS_SAFETY = "insights_safety_planning", _("Safety planning")
    INSIGHTS_RISK = "insights_risk", _("Risk assessment")
    INSIGHTS_COURT = "insights_court", _("Support at court")
    INSIGHTS_CJS = "insights_police", _("Support with the police and criminal justice")
    INSIGHTS_HOUSING = "insights_housing", _("Housing advocacy")
    INSIGHTS_MONEY = "insights_money", _("Help with money and benefits")
    INSIGHTS_CHILDREN = "insights_children", _("Support with children and child contact")
    INSIGHTS_HEALTH = "insights_health", _("Health and wellbeing support")
    INSIGHTS_EMOTIONAL = "insights_emotional", _("Emotional support")
    INSIGHTS_LIAISON = "insights_liaison", _("Liaison with other agencies")


def area_of(code: str) -> str:
    """The area a standard code belongs to (``voca_c2`` → ``voca_c``)."""
    if code.startswith("insights_"):
        return Area.INSIGHTS
    return code[:6]


def scheme_of(code: str) -> str:
    return Scheme.INSIGHTS if code.startswith("insights_") else Scheme.VOCA


def standard_categories(schemes: list[str]) -> list[tuple[str, str]]:
    """The standard categories of ``schemes``, in the catalogue's order, with their labels."""
    return [
        (code, str(label)) for code, label in StandardCategory.choices if scheme_of(code) in schemes
    ]


class ServiceSettings(models.Model):
    """Which schemes an agency counts its services by (both until its admin chooses)."""

    agency = models.OneToOneField(
        "accounts.Agency", on_delete=models.CASCADE, related_name="service_settings"
    )
    schemes = models.JSONField(default=list)
    updated_at = models.DateTimeField(default=timezone.now)


class AgencyCategory(models.Model):
    """A category of the agency's own, beside the standard ones. Its label is the agency's
    word for a kind of service, never anything about a person. Retired, it is no longer offered
    but its services stay counted under it."""

    agency = models.ForeignKey("accounts.Agency", on_delete=models.PROTECT, related_name="+")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    label = models.CharField(max_length=80)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["label", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["agency", "label"], name="servicelog_agency_category_unique"
            )
        ]

    def __str__(self) -> str:
        return self.label


class Source(models.TextChoices):
    NOTE = "note", _("A case note")
    CALL = "call", _("A call")
    STAY = "stay", _("A shelter stay")
    HEARING = "hearing", _("A court hearing")


#: What a record came from: its foreign key's name for each source.
SOURCE_FIELDS = {
    Source.NOTE: "note",
    Source.CALL: "call",
    Source.STAY: "stay",
    Source.HEARING: "hearing",
}


class ServiceRecord(CarriesAgency):
    """One service given, counted in one category: a standard code or one of the agency's own
    (exactly one). ``case`` is empty only for a call on no case (an anonymous one)."""

    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    case = models.ForeignKey(
        "cases.Case", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    category = models.CharField(max_length=32, choices=StandardCategory.choices, blank=True)
    agency_category = models.ForeignKey(
        AgencyCategory, on_delete=models.PROTECT, null=True, blank=True, related_name="records"
    )
    minutes = models.PositiveIntegerField()
    given_on = models.DateField()
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # What it came from: by name, so this app imports none of theirs.
    note = models.ForeignKey(
        "casework.CaseNote", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    call = models.ForeignKey(
        "calls.Call", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    stay = models.ForeignKey(
        "shelter.Stay", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    hearing = models.ForeignKey(
        "court.Hearing", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-given_on", "-pk"]
        indexes = [
            models.Index(fields=["case", "given_on"]),
            models.Index(fields=["agency", "given_on"], name="servicelog_agency_given_on"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(category="", agency_category__isnull=False)
                    | (~models.Q(category="") & models.Q(agency_category__isnull=True))
                ),
                name="servicelog_one_category",
            ),
            models.CheckConstraint(
                condition=models.Q(minutes__gte=1, minutes__lte=MAX_MINUTES),
                name="servicelog_minutes_within_a_day",
            ),
            models.CheckConstraint(
                condition=models.Q(given_on__gte=EARLIEST), name="servicelog_given_since_2000"
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(note__isnull=True, call__isnull=True, stay__isnull=True)
                    | models.Q(note__isnull=True, call__isnull=True, hearing__isnull=True)
                    | models.Q(note__isnull=True, stay__isnull=True, hearing__isnull=True)
                    | models.Q(call__isnull=True, stay__isnull=True, hearing__isnull=True)
                ),
                name="servicelog_one_source_at_most",
            ),
        ]

    def __str__(self) -> str:
        return f"Service {self.public_id}"

    @property
    def category_label(self) -> str:
        if self.agency_category_id is not None:
            return self.agency_category.label  # type: ignore[union-attr]
        return str(dict(StandardCategory.choices).get(self.category, self.category))
