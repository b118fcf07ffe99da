"""The kinds an agency's advocates choose from: the standard ones (codes, in the reader's
language) and the agency's own (in its own words). A kind is one key: the standard code, or
``agency:<id>`` for one the agency added."""

from __future__ import annotations

from caseflow.cycle.models import AgencyKind, StandardKind

AGENCY_PREFIX = "agency:"


def agency_key(kind: AgencyKind) -> str:
    return f"{AGENCY_PREFIX}{kind.pk}"


def standard() -> list[str]:
    """The standard kinds in the reader's language."""
    return [str(label) for _code, label in StandardKind.choices]


def agency_kinds(agency_id: int) -> list[AgencyKind]:
    """The agency's own kinds, those offered first."""
    return list(AgencyKind.objects.filter(agency_id=agency_id).order_by("-active", "label", "pk"))


def offered(agency_id: int) -> list[tuple[str, str]]:
    """``(key, words)`` of every kind offered to the agency's advocates."""
    own = AgencyKind.objects.filter(agency_id=agency_id, active=True).order_by("label", "pk")
    return [(code, str(label)) for code, label in StandardKind.choices] + [
        (agency_key(kind), kind.label) for kind in own
    ]


def labels(agency_id: int) -> dict[str, str]:
    """Words for every key the agency's marks may carry, retired kinds included."""
    own = AgencyKind.objects.filter(agency_id=agency_id)
    return {code: str(label) for code, label in StandardKind.choices} | {
        agency_key(kind): kind.label for kind in own
    }


def resolve(agency_id: int, key: str) -> tuple[str, AgencyKind | None] | None:
    """``(standard code, agency kind)`` for an offered key, one of the two set; ``None`` for a
    key the agency does not offer (a retired kind, another agency's, a made-up one)."""
    if key in StandardKind.values:
        return key, None
    if key.startswith(AGENCY_PREFIX) and key[len(AGENCY_PREFIX) :].isdigit():
        kind = AgencyKind.objects.filter(
            agency_id=agency_id, active=True, pk=int(key[len(AGENCY_PREFIX) :])
        ).first()
        if kind is not None:
            return "", kind
    return None
