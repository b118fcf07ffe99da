"""What her own ratings contribute to referral packs and case exports: her numbers under "risk"
(how safe she feels sits with the risk to her), her own words under "narratives". Each leaves only
under a release that names its category."""

from __future__ import annotations

from django.utils import timezone

from caseflow.cases.models import Case
from caseflow.wellbeing.selectors import ratings_of

Rows = list[tuple[str, str]]


def number_rows(case: Case) -> Rows:
    rows: Rows = []
    for number, rating in enumerate(ratings_of(case), start=1):
        label = f"Her own rating {number}"
        rows.append((f"{label}: when", f"{timezone.localtime(rating.taken_at):%Y-%m-%d %H:%M}"))
        for question, value in rating.answer_rows():
            rows.append((f"{label}: {question.short}", f"{value} ({question.scale})"))
    return rows


def words_rows(case: Case) -> Rows:
    return [
        (f"Her own rating {number}: in her words", rating.words)
        for number, rating in enumerate(ratings_of(case), start=1)
        if rating.words
    ]
