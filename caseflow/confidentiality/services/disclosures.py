"""Disclosures: the referral pack, and the steps every disclosure under a release goes through:
checking the release, auditing a refusal, recording what left and to whom.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.confidentiality.models import CompelledOrder, Disclosure, DisclosureKind, Release
from caseflow.confidentiality.pack import Rows, build_sections
from caseflow.confidentiality.services.releases import release_covering, release_problem


class ReleaseRequired(Exception):
    """No valid release covers this recipient and these categories: nothing was produced."""


@dataclass
class ReferralPack:
    disclosure: Disclosure
    release: Release
    sections: list[tuple[str, Rows]]


def referral_pack_export(
    *,
    actor: User,
    case: Case,
    recipient: str,
    categories: list[str],
    fmt: str,
) -> ReferralPack:
    """Produce a referral pack for ``recipient``, only under a release that covers it.

    A refusal is audited (and stands: it is written before the exception) and produces nothing.
    """
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    categories = sorted(set(categories))
    release = release_covering(case, recipient, categories)
    if release is None:
        record(
            "disclosure.refused",
            actor=actor,
            case=case,
            obj=case,
            detail={"categories": categories, "reason": "no_covering_release", "format": fmt},
        )
        raise ReleaseRequired
    with transaction.atomic():
        disclosure = _disclose(
            actor=actor,
            case=case,
            kind=DisclosureKind.REFERRAL_PACK,
            release=release,
            recipient=recipient,
            categories=categories,
        )
        record(
            "disclosure.referral_pack",
            actor=actor,
            case=case,
            obj=disclosure,
            detail={
                "disclosure": disclosure.pk,
                "release": release.pk,
                "categories": categories,
                "format": fmt,
            },
        )
    return ReferralPack(disclosure, release, build_sections(case, categories))


def _refused(
    *,
    actor: User,
    case: Case,
    kind: str,
    categories: list[str],
    reason: str,
    release: Release | None,
) -> ReleaseRequired:
    """Audit a refused export (it stands: it is written outside any rolled-back transaction)."""
    record(
        "disclosure.refused",
        actor=actor,
        case=case,
        obj=case,
        detail={
            "kind": kind,
            "categories": categories,
            "reason": reason,
            "release": release.pk if release is not None else None,
        },
    )
    return ReleaseRequired(reason)


def _release_for(case: Case, release_id: str) -> Release | None:
    """The release ``release_id`` of ``case`` (an id of another case's release is not found)."""
    release = (
        Release.objects.filter(case=case, public_id=str(release_id or ""))
        .select_related("consenting_party", "for_child")
        .first()
    )
    if release is not None:
        release.case = case
    return release


def _authorise(
    *,
    actor: User,
    case: Case,
    kind: str,
    release_id: str,
    recipient: str,
    categories: list[str],
) -> Release:
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    release = _release_for(case, release_id)
    reason = release_problem(case, release, recipient, categories)
    if reason is not None:
        raise _refused(
            actor=actor,
            case=case,
            kind=kind,
            categories=categories,
            reason=reason,
            release=release,
        )
    assert release is not None  # release_problem refuses a missing release
    return release


def _disclose(
    *,
    actor: User,
    case: Case,
    kind: str,
    recipient: str,
    categories: list[str],
    release: Release | None = None,
    order: CompelledOrder | None = None,
) -> Disclosure:
    """The record of what leaves today, to whom, and under which release or order."""
    return Disclosure.objects.create(
        case=case,
        kind=kind,
        release=release,
        order=order,
        recipient=recipient.strip(),
        categories=categories,
        disclosed_on=timezone.localdate(),
        created_by=actor,
    )
