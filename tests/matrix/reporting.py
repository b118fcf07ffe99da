"""Matrix rows for funder reports: agency-wide pages for the roles that run reports."""

from tests.matrix.base import NOT_ALLOWED, Row, expect
from tests.matrix.confidentiality import REPORTERS

ROWS: dict[str, Row] = {
    "reporting:list": Row(GET=expect(403, **REPORTERS), POST=NOT_ALLOWED),
    "reporting:preview": Row(GET=expect(403, **REPORTERS), POST=NOT_ALLOWED, kwargs="report"),
    # Without a period the CSV sends them back to the preview.
    "reporting:csv": Row(
        GET=expect(403, **{k: 302 for k in REPORTERS}),
        POST=NOT_ALLOWED,
        kwargs="report",
        reauth=("GET",),
    ),
}
