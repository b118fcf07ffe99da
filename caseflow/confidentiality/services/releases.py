"""Releases of information: recording and revoking the survivor's time-limited consent to share,
finding the release that covers a disclosure, and the follow-up before one expires.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from dateutil.relativedelta import relativedelta
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case, Party, PartyRole
from caseflow.confidentiality.models import Category, ConfidentialityFollowUpKind, Release
from caseflow.inbox.services import followup_cancel, followup_ensure
from caseflow.lib.encryption import blind_index
from caseflow.lib.i18n import gettext_lazy as _


class ReleaseRefused(Exception):
    """The release cannot be recorded or changed; ``str(exc)`` says why, for the user."""


def recipient_index(recipient: str) -> str:
    return blind_index("release-recipient", recipient)


def consent_problem(case: Case, party: Party, for_child: Party | None = None) -> str | None:
    """Why ``party`` cannot consent on ``case`` (for ``for_child``), or None if they can."""
    if party.case_id != case.pk:
        return _("Choose a person recorded on this case.")
    if party.role == PartyRole.OTHER_PARTY:
        return _(
            "The case's other party cannot give consent: a release must come from the survivor."
        )
    if party.role == PartyRole.CHILD:
        return _("A child cannot sign a release: record the guardian's consent for the child.")
    if for_child is not None and (
        for_child.case_id != case.pk or for_child.role != PartyRole.CHILD
    ):
        return _("The release can only be for a child recorded on this case.")
    if party.identity_index and (
        Party.objects.filter(
            case=case, role=PartyRole.OTHER_PARTY, identity_index=party.identity_index
        ).exists()
    ):
        return _("This person is also recorded as the case's other party and cannot give consent.")
    return None


def expiry_problem(signed_on: dt.date, expires_on: dt.date) -> str | None:
    if expires_on <= signed_on:
        return _("The expiry date must be after the date the release was signed.")
    limit = signed_on + relativedelta(months=settings.RELEASE_MAX_MONTHS)
    if expires_on > limit:
        return (
            f"A release is time-limited: it can run at most {settings.RELEASE_MAX_MONTHS} months "
            f"(until {limit:%d %b %Y})."
        )
    return None


def categories_problem(categories: Iterable[str]) -> str | None:
    categories = list(categories)
    if not categories:
        return _("Choose at least one category of information the survivor agreed to share.")
    if set(categories) - set(Category.values):
        return _("Choose categories from the list.")
    return None


@transaction.atomic
def release_record(
    *,
    actor: User,
    case: Case,
    consenting_party: Party,
    for_child: Party | None = None,
    recipient: str,
    purpose: str,
    categories: list[str],
    signed_on: dt.date,
    expires_on: dt.date,
) -> Release:
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    problem = (
        consent_problem(case, consenting_party, for_child)
        or expiry_problem(signed_on, expires_on)
        or categories_problem(categories)
    )
    if problem:
        raise ReleaseRefused(problem)
    if not recipient.strip():
        raise ReleaseRefused(_("Name the organisation the information may go to."))
    release = Release(
        case=case,
        consenting_party=consenting_party,
        for_child=for_child,
        recipient=recipient.strip(),
        recipient_index=recipient_index(recipient),
        purpose=purpose,
        categories=sorted(set(categories)),
        signed_on=signed_on,
        expires_on=expires_on,
        recorded_by=actor,
    )
    release.save()
    record(
        "release.create",
        actor=actor,
        case=case,
        obj=release,
        detail={
            "release": release.pk,
            "categories": release.categories,
            "party_role": consenting_party.role,
            "for_child": for_child is not None,
        },
    )
    release_expiry_ensure(release, today=timezone.localdate())
    return release


@transaction.atomic
def release_revoke(*, actor: User, case: Case, release: Release, reason: str) -> Release:
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    locked = Release.objects.select_for_update().get(pk=release.pk, case=case)
    if locked.revoked_at is not None:
        raise ReleaseRefused(_("This release was already revoked."))
    release.revoked_at = timezone.now()
    release.revoked_reason = reason
    release.revoked_by = actor
    release.save(update_fields=["revoked_at", "revoked_reason", "revoked_by"])
    followup_cancel(case=case, source_key=_expiry_key(release), actor=actor)
    record(
        "release.revoke",
        actor=actor,
        case=case,
        obj=release,
        detail={"release": release.pk},
    )
    return release


def release_covering(
    case: Case, recipient: str, categories: Iterable[str], at: dt.datetime | None = None
) -> Release | None:
    """The valid (signed, unexpired, unrevoked) release of ``case`` that covers sharing
    ``categories`` with ``recipient`` at ``at`` (now by default), or None."""
    wanted = set(categories)
    if not wanted or not recipient.strip():
        return None
    day = timezone.localdate(at or timezone.now())
    candidates = (
        Release.objects.filter(
            case=case,
            recipient_index=recipient_index(recipient),
            revoked_at__isnull=True,
            signed_on__lte=day,
            expires_on__gte=day,
        )
        .select_related("consenting_party", "for_child")
        .order_by("-expires_on", "-pk")
    )
    for release in candidates:
        if wanted <= set(release.categories) and _consent_holds(case, release):
            release.case = case
            return release
    return None


def _consent_holds(case: Case, release: Release) -> bool:
    """The release's consent still comes from someone who may give it (never the other party,
    even if such a row was written around the form)."""
    return consent_problem(case, release.consenting_party, release.for_child) is None


def release_problem(
    case: Case,
    release: Release | None,
    recipient: str,
    categories: Iterable[str],
    at: dt.datetime | None = None,
) -> str | None:
    """Why ``release`` does not cover sharing ``categories`` with ``recipient`` now: a reason
    code for the audit trail (no free text), or None if it covers it."""
    if release is None or release.case_id != case.pk:
        return "unknown_release"
    day = timezone.localdate(at or timezone.now())
    if release.revoked_at is not None:
        return "revoked"
    if day > release.expires_on:
        return "expired"
    if day < release.signed_on:
        return "not_yet_signed"
    if not _consent_holds(case, release):
        return "consent_not_valid"
    if not recipient.strip() or recipient_index(recipient) != release.recipient_index:
        return "recipient_not_covered"
    wanted = set(categories)
    if not wanted or not wanted <= set(release.categories):
        return "category_not_covered"
    return None


def _expiry_key(release: Release) -> str:
    return f"release:{release.pk}:expiry:{release.expires_on.isoformat()}"


def release_expiry_ensure(release: Release, *, today: dt.date) -> bool:
    """A follow-up for ``release`` if it expires within the warning period. True if created."""
    warn = dt.timedelta(days=settings.RELEASE_EXPIRY_WARNING_DAYS)
    if release.revoked_at is not None or not today <= release.expires_on <= today + warn:
        return False
    _followup, created = followup_ensure(
        case=release.case,
        kind=ConfidentialityFollowUpKind.RELEASE_EXPIRY,
        due_at=dt.datetime.combine(release.expires_on, dt.time(0), tzinfo=dt.UTC),
        source_key=_expiry_key(release),
        details=_(
            "A release of information is about to expire: renew it with the survivor "
            "or stop sharing under it."
        ),
    )
    return created


def release_expiry_sweep(*, now: dt.datetime | None = None) -> int:
    """Follow-ups for every release expiring within the warning period. Idempotent."""
    today = timezone.localdate(now or timezone.now())
    horizon = today + dt.timedelta(days=settings.RELEASE_EXPIRY_WARNING_DAYS)
    created = 0
    due = Release.objects.filter(
        revoked_at__isnull=True, expires_on__gte=today, expires_on__lte=horizon
    ).select_related("case", "case__team", "case__primary_advocate")
    for release in due.only("pk", "expires_on", "revoked_at", "case"):
        with transaction.atomic():
            created += release_expiry_ensure(release, today=today)
    return created
