"""Shelter and refuge: the agency's sites, their rooms and beds, the stays of survivors in them,
and the households turned away for lack of space.

Sites, rooms and beds belong to the agency, not to a case: the agency admin keeps them. A site's
address is protected like case data: encrypted with the site's own data key (wrapped by the
master keys, as a case's is) and shown only on the pages of people who need it (the agency admin
and supervisors who run the sites, and the caseworkers of a stay). A stay is case data: it
belongs to the case, carries its agency and keeps its free text encrypted with the case key.

A turn-away holds no personal data at all: a date and a household size, counted for funders.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from caseflow.accounts.models import Agency
from caseflow.cases.models import Case, CaseOwned, Party, new_public_id
from caseflow.lib.encryption import (
    DataKey,
    EncryptedTextField,
    new_wrapped_data_key,
    unwrap_data_key,
)
from caseflow.lib.shard import CarriesAgency


class Access(models.TextChoices):
    """What a room or a bed offers, matched against a household's needs on the board."""

    STEP_FREE = "step_free", _("Step-free access")
    GROUND_FLOOR = "ground_floor", _("Ground floor")
    WHEELCHAIR_BATHROOM = "wheelchair_bathroom", _("Wheelchair-accessible bathroom")
    HEARING_LOOP = "hearing_loop", _("Hearing loop")
    VISUAL_ALARM = "visual_alarm", _("Visual fire alarm")
    COT = "cot", _("Cot available")
    PETS = "pets", _("Pets welcome")


def access_labels(codes: list[str]) -> list[str]:
    labels = dict(Access.choices)
    return [str(labels[c]) for c in codes if c in labels]


class Site(models.Model):
    """A refuge or shelter building of the agency. Its address is encrypted with the site's own
    data key, so that it is never readable from the database or a backup without the master
    keys, as a survivor's address is."""

    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    # What staff call it ("Oak House"): a name chosen not to give the place away.
    name = models.CharField(max_length=80)
    address = EncryptedTextField(blank=True, default="")
    wrapped_key = models.TextField(editable=False)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    narrative_fields = ()
    # Where the site is: needed to send a survivor there.
    kept_encrypted_fields = ("address",)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "name"], name="shelter_site_name_unique")
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        if not self.wrapped_key:
            self.wrapped_key = new_wrapped_data_key()
        super().save(*args, **kwargs)

    def data_key(self) -> DataKey:
        cached = self.__dict__.get("_data_key")
        if cached is None:
            if not self.wrapped_key:
                self.wrapped_key = new_wrapped_data_key()
            cached = self.__dict__["_data_key"] = unwrap_data_key(self.wrapped_key)
        return cached


class Room(models.Model):
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    site = models.ForeignKey(Site, on_delete=models.CASCADE, related_name="rooms")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    name = models.CharField(max_length=80)
    features = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["site", "name"], name="shelter_room_name_unique")
        ]

    def __str__(self) -> str:
        return self.name


class Bed(models.Model):
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="beds")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    label = models.CharField(max_length=40)
    features = models.JSONField(default=list, blank=True)
    # A bed out of use (repairs) is not offered; its past stays keep it.
    in_use = models.BooleanField(default=True)

    class Meta:
        ordering = ["label", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["room", "label"], name="shelter_bed_label_unique")
        ]

    def __str__(self) -> str:
        return self.label

    def all_features(self) -> list[str]:
        """The bed's own features and its room's, in the order of :class:`Access`."""
        have = set(self.features) | set(self.room.features)
        return [code for code in Access.values if code in have]


class Stay(CaseOwned):
    """A survivor's stay in a bed, from ``starts_on`` (her first night) to ``ends_on`` (the day
    she leaves: her last night is the day before). ``ends_on`` is empty while she stays with no
    end fixed; ``planned_end_on`` is only a plan.

    Nights are dates in the agency's calendar, not instants, so a night is a night across a
    daylight-saving change or a month's end: ``nights = ends_on - starts_on`` in days.

    Why ``BedNight`` rows rather than a PostgreSQL ``ExclusionConstraint`` over a date range: the
    same unique constraint (bed, night) holds on SQLite and PostgreSQL alike, so the rule "a bed
    is never booked twice for a night" is enforced by the database on both, tested the same way,
    and a racing second booking fails with an ``IntegrityError`` on its own insert, inside its
    own transaction, leaving nothing half-written. Counting shelter nights for funders is then
    a ``COUNT`` of rows. An open stay has no last night, so it holds its nights up to a horizon
    (``services.HOLD_DAYS`` ahead of today), which a daily beat task moves on; and a booking is
    refused on a bed that has an open stay starting before its last night, so nothing is ever
    booked beyond the horizon under an open stay (the booking locks the bed's row while it
    checks, so two such checks cannot interleave).
    """

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="shelter_stays")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    party = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="+")
    bed = models.ForeignKey(Bed, on_delete=models.PROTECT, related_name="stays")
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    planned_end_on = models.DateField(null=True, blank=True)
    children = models.PositiveSmallIntegerField(default=0)
    notes = EncryptedTextField(blank=True, default="")
    booked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    narrative_fields = ("notes",)
    kept_encrypted_fields = ()

    class Meta:
        ordering = ["-starts_on", "-pk"]
        indexes = [models.Index(fields=["case", "-starts_on"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(ends_on__gt=models.F("starts_on")),
                name="shelter_stay_ends_after_start",
            )
        ]

    @property
    def is_open(self) -> bool:
        return self.ends_on is None

    def nights_until(self, today: dt.date) -> int:
        """Nights stayed: to her leaving day, or (while open) to ``today``."""
        end = self.ends_on if self.ends_on is not None else today
        return max(0, (end - self.starts_on).days)


class BedNight(CarriesAgency):
    """One bed held for one night by one stay. The unique (bed, night) is the rule that a bed is
    never booked twice (see :class:`Stay`)."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="+")
    stay = models.ForeignKey(Stay, on_delete=models.CASCADE, related_name="held_nights")
    bed = models.ForeignKey(Bed, on_delete=models.PROTECT, related_name="nights")
    night = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bed", "night"], name="shelter_bed_night_unique")
        ]
        indexes = [models.Index(fields=["stay", "night"])]


class TurnAway(models.Model):
    """A household that asked for a place and could not be given one for lack of space. No
    personal data: a date and how many people, counted for funders."""

    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    on = models.DateField()
    adults = models.PositiveSmallIntegerField(default=1)
    children = models.PositiveSmallIntegerField(default=0)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-on", "-pk"]
        indexes = [models.Index(fields=["agency", "on"])]
