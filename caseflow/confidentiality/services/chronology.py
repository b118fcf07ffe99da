"""The case chronology (the printed case timeline) for someone outside the agency.

It leaves only on the same terms as the breach chronology: under a release that names the
recipient and covers every category of record it holds, or a court order or subpoena recorded on
the case. What it holds follows from the kinds of record chosen: each timeline source says which
categories its entries tell (a source that does not say counts as telling every category).
"""

from __future__ import annotations

from collections.abc import Iterable

from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.cases.timeline import Chronology, Source
from caseflow.confidentiality.models import Category, DisclosureKind
from caseflow.confidentiality.services.compelled import Authority, outside_authority


def timeline_categories(sources: Iterable[Source]) -> list[str]:
    """The release categories a chronology of ``sources`` holds."""
    known = set(Category.values)
    held: set[str] = set()
    for source in sources:
        held |= known if source.categories is None else set(source.categories) & known
    return sorted(held)


def timeline_share(
    *,
    actor: User,
    case: Case,
    chronology: Chronology,
    recipient: str,
    release_id: str = "",
    order_id: int | None = None,
) -> Authority:
    """Authorise and record giving ``chronology`` to ``recipient`` outside the agency. A refusal
    is audited (and stands) and raises :class:`ReleaseRequired`: nothing is produced."""
    authority = outside_authority(
        actor=actor,
        case=case,
        recipient=recipient,
        categories=timeline_categories(chronology.sources),
        release_id=release_id,
        order_id=order_id,
        kind=DisclosureKind.CASE_CHRONOLOGY,
    )
    record(
        "timeline.share",
        actor=actor,
        case=case,
        obj=case,
        detail={
            "audience": "outside",
            "sha256": chronology.sha256,
            "entries": len(chronology.entries),
            **authority.audit,
        },
    )
    return authority
