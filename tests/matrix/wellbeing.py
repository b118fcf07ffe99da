"""Matrix rows for her own rating: recording it is a case page ("edit"), choosing the questions
the agency admin's."""

from __future__ import annotations

from tests.matrix.base import Row, casework, expect

ROWS: dict[str, Row] = {
    # An empty POST re-renders the form with its errors.
    "wellbeing:new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "wellbeing:settings": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)
    ),
}
