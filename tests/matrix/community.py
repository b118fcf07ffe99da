"""Matrix rows for community work: the education page and the outcome survey page are for the
people who work cases (advocates and supervisors, each in their own agency). An empty POST
re-renders the form with its errors."""

from __future__ import annotations

from tests.matrix.base import CASEWORKERS_ONLY, Row, expect

ROWS: dict[str, Row] = {
    "community:education": Row(
        GET=expect(403, **CASEWORKERS_ONLY), POST=expect(403, **CASEWORKERS_ONLY)
    ),
    "community:surveys": Row(
        GET=expect(403, **CASEWORKERS_ONLY), POST=expect(403, **CASEWORKERS_ONLY)
    ),
}
