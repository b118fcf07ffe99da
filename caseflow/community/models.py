"""What an agency does beyond its cases that its funders count: prevention and community
education sessions, and the outcome surveys survivors hand back.

Neither holds anything personal. A session is a day, who it was for and how many came. A survey
is anonymous by design: the day it came back, the service it was about and the two answers as
codes, never linked to a case or a person (a survivor must be free to say "no").
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from caseflow.accounts.models import Agency
from caseflow.cases.models import new_public_id
from caseflow.lib.i18n import gettext_lazy as _


class Audience(models.TextChoices):
    YOUNG_PEOPLE = "young_people", _("Children and young people")
    ADULTS = "adults", _("Adults in the community")
    PROFESSIONALS = "professionals", _("Professionals (training)")


class SessionKind(models.TextChoices):
    TALK = "talk", _("Talk or presentation")
    WORKSHOP = "workshop", _("Workshop or course")
    TRAINING = "training", _("Training for professionals")
    EVENT = "event", _("Stall or community event")


class EducationSession(models.Model):
    """One prevention or community education session: a day, what kind, who for, how many."""

    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    held_on = models.DateField()
    kind = models.CharField(max_length=16, choices=SessionKind.choices)
    audience = models.CharField(max_length=16, choices=Audience.choices)
    participants = models.PositiveIntegerField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-held_on", "-pk"]
        indexes = [models.Index(fields=["agency", "held_on"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(participants__gte=1), name="community_session_someone_came"
            )
        ]


class SurveyService(models.TextChoices):
    SHELTER = "shelter", _("Shelter or refuge")
    SUPPORT = "support", _("Support and advocacy outside shelter")


class SurveyAnswer(models.TextChoices):
    YES = "yes", _("Yes")
    NO = "no", _("No")
    NOT_ANSWERED = "not_answered", _("Left blank")


#: The two statements FVPSA's outcome measures ask survivors about, by code.
STATEMENTS = {
    "safety": _("As a result of contact with this agency, I have more ways to plan for my safety"),
    "resources": _(
        "As a result of contact with this agency, I know more about community resources"
    ),
}


class OutcomeSurvey(models.Model):
    """One survey handed back, as answered: anonymous, never linked to a case or a person."""

    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="+")
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id, editable=False)
    returned_on = models.DateField()
    service = models.CharField(max_length=16, choices=SurveyService.choices)
    safety = models.CharField(max_length=16, choices=SurveyAnswer.choices)
    resources = models.CharField(max_length=16, choices=SurveyAnswer.choices)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-returned_on", "-pk"]
        indexes = [models.Index(fields=["agency", "returned_on"])]
