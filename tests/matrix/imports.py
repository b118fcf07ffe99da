"""Matrix rows for the caseload and staff imports: the agency admin's pages, nobody else's."""

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


def staff_batch_url(name: str, cast) -> str:
    """A staff file the cast's agency admin uploaded and checked (``kwargs="staff_batch"``)."""
    from caseflow.imports import staff

    data = b"name,email,role,teams\nAlex Morgan,alex.morgan@example.org,advocate,Team 1\n"
    batch = staff.staff_upload(actor=cast.agency_admin, name="s.csv", data=data)
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
    # The staff import: an empty POST re-shows the upload form with its error.
    "imports:staff_upload": Row(GET=expect(403, **ADMIN), POST=expect(403, **ADMIN)),
    "imports:staff_template": Row(GET=expect(403, **ADMIN), POST=NOT_ALLOWED),
    "imports:staff_sample": Row(GET=expect(403, **ADMIN), POST=NOT_ALLOWED),
    "imports:staff_batch": Row(GET=expect(403, **ADMIN), POST=NOT_ALLOWED, kwargs="staff_batch"),
    # A checked file without errors is imported, then on to the staff page.
    "imports:staff_commit": Row(
        GET=NOT_ALLOWED,
        POST=expect(403, agency_admin=302),
        kwargs="staff_batch",
        reauth=("POST",),
    ),
}
