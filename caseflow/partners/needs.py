"""The case's needs (casework) a referral can serve."""

from __future__ import annotations

from caseflow.cases.models import Case
from caseflow.casework.models import Need


def need_choices(case: Case) -> list[tuple[str, str]]:
    """(public id, "kind (status)") of the case's needs, open ones first."""
    needs = sorted(
        Need.objects.filter(case=case).only("public_id", "kind", "status"),
        key=lambda n: (not n.is_open, n.kind, n.pk),
    )
    return [(n.public_id, f"{n.get_kind_display()} ({n.get_status_display()})") for n in needs]


def needs_for(case: Case, ids: list[str]) -> list[Need]:
    return list(Need.objects.filter(case=case, public_id__in=ids))
