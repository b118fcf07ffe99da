"""The case's needs a referral can serve (casework's structured needs, when a case has them)."""

from __future__ import annotations

from caseflow.cases.models import Case


def need_choices(case: Case) -> list[tuple[str, str]]:
    """(public id, label) of the case's needs; none until casework records needs."""
    return []


def need_labels(case: Case, ids: list[str]) -> list[str]:
    choices = dict(need_choices(case))
    return [choices[i] for i in ids if i in choices]
