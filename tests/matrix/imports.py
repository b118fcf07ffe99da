"""Matrix rows for the caseload import: the agency admin's pages, nobody else's."""

from django.urls import reverse

from tests.matrix.base import NOT_ALLOWED, Row, expect


def batch_url(name: str, cast) -> str:
    """A batch the cast's agency admin uploaded (``kwargs="batch"``)."""
    from caseflow.imports import sample, services

    data = sample.sample_csv(
        1, team="Team 1", advocate="assigned", today=cast.case.opened_at.date()
    )
    batch = services.batch_upload(actor=cast.agency_admin, name="c.csv", data=data)
    return reverse(name, args=[batch.public_id])


ADMIN = {"agency_admin": 200}

ROWS: dict[str, Row] = {
    # An empty POST re-shows the upload form with its error.
    "imports:upload": Row(GET=expect(403, **ADMIN), POST=expect(403, **ADMIN)),
    "imports:template": Row(GET=expect(403, **ADMIN), POST=NOT_ALLOWED),
    "imports:sample": Row(GET=expect(403, **ADMIN), POST=NOT_ALLOWED),
    # An empty POST re-shows the page (the mapping form unbound).
    "imports:batch": Row(
        GET=expect(403, **ADMIN),
        POST=expect(403, **ADMIN),
        kwargs="batch",
    ),
    # A batch not yet checked cannot be imported: back to its page with the reason.
    "imports:commit": Row(GET=NOT_ALLOWED, POST=expect(403, agency_admin=302), kwargs="batch"),
    "imports:progress": Row(GET=expect(403, **ADMIN), POST=NOT_ALLOWED, kwargs="batch"),
}
