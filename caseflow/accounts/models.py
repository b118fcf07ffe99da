"""Agencies (tenants), teams, staff and their roles."""

from cryptography.fernet import MultiFernet
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext

from caseflow.lib import encryption
from caseflow.lib.encryption import EncryptedTextField
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.lib.softcache import forget, remember


class AdvocateTitle(models.TextChoices):
    """What an agency calls the staff who support survivors (UK services often say IDVA)."""

    ADVOCATE = "advocate", _("Advocate")
    IDVA = "idva", _("IDVA (Independent Domestic Violence Adviser)")


class Agency(models.Model):
    name = models.CharField(max_length=200, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Where the agency's staff work (an IANA name): the times staff enter and read, their "today"
    #: and the zone new safe-contact profiles start from. Empty: ``settings.STAFF_TIME_ZONE``.
    time_zone = models.CharField(max_length=64, blank=True, default="")
    #: What the agency calls its advocates on every page its staff read (the role itself, and
    #: what it may do, stay the same).
    advocate_title = models.CharField(
        max_length=16, choices=AdvocateTitle.choices, default=AdvocateTitle.ADVOCATE
    )
    #: Case lists show the survivor's initials instead of her name (screens others may see).
    list_initials = models.BooleanField(default=False)

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


_TITLE_CACHE_SECONDS = 3600


def _title_key(agency_id: int) -> str:
    return f"caseflow:advocate-title:{agency_id}"


def advocate_title(agency_id: int | None) -> str:
    """What the agency calls its advocates (cached: read on pages that list staff; from the
    database when the cache is away)."""
    if agency_id is None:
        return AdvocateTitle.ADVOCATE

    def read() -> str:
        return (
            Agency.objects.filter(pk=agency_id).values_list("advocate_title", flat=True).first()
            or AdvocateTitle.ADVOCATE
        )

    return remember(_title_key(agency_id), read, _TITLE_CACHE_SECONDS)


def set_advocate_title(agency_id: int, title: str) -> None:
    Agency.objects.filter(pk=agency_id).update(advocate_title=AdvocateTitle(title))
    forget(_title_key(agency_id))


def _initials_key(agency_id: int) -> str:
    return f"caseflow:list-initials:{agency_id}"


def lists_show_initials(agency_id: int | None) -> bool:
    """Whether the agency's case lists show the survivor's initials instead of her name (cached:
    read on every list page; from the database when the cache is away)."""
    if agency_id is None:
        return False

    def read() -> bool:
        return bool(
            Agency.objects.filter(pk=agency_id).values_list("list_initials", flat=True).first()
        )

    return remember(_initials_key(agency_id), read, _TITLE_CACHE_SECONDS)


def set_lists_show_initials(agency_id: int, initials: bool) -> None:
    Agency.objects.filter(pk=agency_id).update(list_initials=initials)
    forget(_initials_key(agency_id))


def agency_page_keys(agency_id: int) -> list[str]:
    """The cache keys of the agency's settings a page may read (:func:`advocate_title`,
    :func:`lists_show_initials`), which the request's middleware reads ahead in one round trip
    (:func:`caseflow.lib.softcache.read_ahead`)."""
    return [_title_key(agency_id), _initials_key(agency_id)]


def role_words(role: str, agency_id: int | None) -> str:
    """A role in words, as the agency says it ("IDVA" for an advocate where the agency says so)."""
    if role == Role.ADVOCATE and advocate_title(agency_id) == AdvocateTitle.IDVA:
        return gettext("IDVA")
    return str(Role(role).label) if role in Role.values else role


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
    def coalition_seat_or_none(self) -> "CoalitionSeat | None":
        try:
            return self.coalition_seat
        except CoalitionSeat.DoesNotExist:
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

    def get_role_display(self) -> str:  # type: ignore[no-redef]
        """The role in the agency's own words (see :class:`AdvocateTitle`)."""
        return role_words(self.role, self.agency_id)


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


class LanguageSetting(models.Model):
    """The language of caseflow's interface: an agency's locale (no user) or one member of
    staff's own choice over it."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    language = models.CharField(max_length=16)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        # The table keeps the name it had when the model lived in ``cases``.
        db_table = "cases_languagesetting"
        constraints = [
            models.UniqueConstraint(fields=["agency", "user"], name="language_one_per_user"),
            models.UniqueConstraint(
                fields=["agency"],
                condition=models.Q(user__isnull=True),
                name="language_one_per_agency",
            ),
        ]


class IdentityProvider(models.Model):
    """An agency's own identity provider (OpenID Connect), set up by the operators. With one,
    the agency's staff sign in there; agencies without one keep caseflow's password sign-in."""

    agency = models.OneToOneField(
        Agency, on_delete=models.CASCADE, related_name="identity_provider"
    )
    #: The issuer; its discovery document is at ``<issuer>/.well-known/openid-configuration``.
    issuer = models.URLField(max_length=300)
    client_id = models.CharField(max_length=300)
    #: Kept encrypted with the deployment's keys (the token request needs it back).
    client_secret = EncryptedTextField()
    kept_encrypted_fields = ("client_secret",)
    #: What caseflow asks for; ``offline_access`` (or the provider's own way) brings the
    #: refresh token the periodic recheck uses.
    scopes = models.CharField(max_length=300, default="openid profile email offline_access")
    enabled = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"{self.agency}: {self.issuer}"

    def data_key(self) -> MultiFernet:
        return encryption.master()

    @property
    def discovery_url(self) -> str:
        return self.issuer.rstrip("/") + "/.well-known/openid-configuration"


class ProviderGroup(models.Model):
    """One group the provider names in its ``groups`` claim, and the role (and team) it gives
    in caseflow. Kept by the agency admin."""

    agency = models.ForeignKey(Agency, on_delete=models.CASCADE, related_name="provider_groups")
    name = models.CharField(max_length=200)
    role = models.CharField(max_length=20, choices=Role.choices)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "name"], name="provider_group_unique")
        ]

    def __str__(self) -> str:
        return self.name


class ProviderIdentity(models.Model):
    """Who a member of staff is at their agency's provider (issuer and subject), and the
    refresh token that lets caseflow ask again whether they are still allowed in."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="provider_identities")
    issuer = models.CharField(max_length=300)
    subject = models.CharField(max_length=255)
    refresh_token = EncryptedTextField(blank=True, default="")
    kept_encrypted_fields = ("refresh_token",)
    signed_in_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["issuer", "subject"], name="provider_identity_unique")
        ]

    def data_key(self) -> MultiFernet:
        return encryption.master()


class Coalition(models.Model):
    """A state or regional coalition whose member agencies are on this host. Its people run the
    members' funder reports rolled up, each agency's cells suppressed before they are added; they
    read no case, no person, no agency's own report and nothing else of an agency. Set up by the
    operators, with the agencies' agreement."""

    name = models.CharField(max_length=200, unique=True)
    members = models.ManyToManyField(Agency, related_name="coalitions", blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class CoalitionSeat(models.Model):
    """One person's place in a coalition. Someone with a seat is no agency's staff: an account
    with a membership too is given neither (``policy.coalition_of``)."""

    user = models.OneToOneField("User", on_delete=models.CASCADE, related_name="coalition_seat")
    coalition = models.ForeignKey(Coalition, on_delete=models.PROTECT, related_name="seats")
    is_active = models.BooleanField(default=True)
    #: Set only by the demo seed: skips the second factor on the embedded demo (as
    #: ``Membership.demo_account``).
    demo_account = models.BooleanField(default=False, editable=False)

    def __str__(self) -> str:
        return f"{self.user} ({self.coalition})"
