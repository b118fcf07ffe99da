"""Agencies (tenants), teams, staff and their roles."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q

from caseflow.lib.i18n import gettext_lazy as _


class Agency(models.Model):
    name = models.CharField(max_length=200, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Where the agency's staff work (an IANA name): the times staff enter and read, their "today"
    #: and the zone new safe-contact profiles start from. Empty: ``settings.STAFF_TIME_ZONE``.
    time_zone = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        verbose_name_plural = "agencies"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    ADVOCATE = "advocate", _("Advocate")
    SUPERVISOR = "supervisor", _("Supervisor")
    AUDITOR = "auditor", _("Auditor")
    AGENCY_ADMIN = "agency_admin", _("Agency admin")


class User(AbstractUser):
    """A member of staff. App roles live on :class:`Membership`; a superuser is an operator only."""

    # Bumped whenever the user's sessions must end (deactivation, password change, log out
    # everywhere).
    session_epoch = models.PositiveIntegerField(default=0)
    # When an agency admin last reset this account's password or second factor; cleared at the
    # next sign-in, which is recorded apart so that it stands out on the activity page.
    reset_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["username"]

    @property
    def membership_or_none(self) -> "Membership | None":
        try:
            return self.membership
        except Membership.DoesNotExist:
            return None

    @property
    def role(self) -> str | None:
        m = None if self.is_superuser else self.membership_or_none
        return m.role if m and m.is_active else None

    @property
    def agency_id_or_none(self) -> int | None:
        m = None if self.is_superuser else self.membership_or_none
        return m.agency_id if m and m.is_active else None


class Membership(models.Model):
    """One user's place in one agency. A user belongs to exactly one agency."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="membership")
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set only by the demo seed. While ``manage.py demo`` runs the embedded demo, such an account
    # may sign in without a second factor; everywhere else the flag changes nothing.
    demo_account = models.BooleanField(default=False, editable=False)

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()})"


class Team(models.Model):
    agency = models.ForeignKey(Agency, on_delete=models.PROTECT, related_name="teams")
    name = models.CharField(max_length=120)
    members = models.ManyToManyField(User, related_name="teams", blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "name"], name="team_name_unique_in_agency")
        ]

    def __str__(self) -> str:
        return self.name

    def supervisors(self) -> models.QuerySet[User]:
        return self.members.filter(
            Q(membership__role=Role.SUPERVISOR) & Q(membership__is_active=True) & Q(is_active=True)
        )
