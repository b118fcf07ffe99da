"""Matrix rows for funder reports: agency-wide pages for the roles that run reports, and the
reports prepared in the background, which only the person who asked sees."""

from django.urls import reverse

from tests.matrix.base import NOT_ALLOWED, Row, expect
from tests.matrix.confidentiality import REPORTERS


def prepared_url(name: str, cast) -> str:
    """A report the cast's supervisor asked to be prepared (``kwargs="prepared"``), waiting for
    its worker: everyone else, the other reporters of the agency included, gets 404."""
    import datetime as dt

    from django.utils import timezone

    from caseflow.reporting.models import PreparedReport

    prepared = PreparedReport.objects.create(
        agency=cast.agency,
        requested_by=cast.supervisor,
        slug="voca",
        period_start=dt.date(2025, 10, 1),
        period_end=dt.date(2025, 12, 31),
        expires_at=timezone.now() + dt.timedelta(hours=24),
    )
    return reverse(name, args=[prepared.public_id])


ASKER = {"supervisor": 200}

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
    # Without a period the request goes back to the preview.
    "reporting:prepare": Row(
        GET=NOT_ALLOWED,
        POST=expect(403, **{k: 302 for k in REPORTERS}),
        kwargs="report",
        reauth=("POST",),
    ),
    "reporting:prepared": Row(GET=expect(404, **ASKER), POST=NOT_ALLOWED, kwargs="prepared"),
    "reporting:prepared_progress": Row(
        GET=expect(404, **ASKER), POST=NOT_ALLOWED, kwargs="prepared"
    ),
    # Not ready yet: back to its page.
    "reporting:prepared_download": Row(
        GET=expect(404, supervisor=302), POST=NOT_ALLOWED, kwargs="prepared", reauth=("GET",)
    ),
    # Not stale: nothing to start again, back to its page.
    "reporting:prepared_retry": Row(
        GET=NOT_ALLOWED, POST=expect(404, supervisor=302), kwargs="prepared"
    ),
}

# The Insights return: the agency's reporters; a POST without a period is the form again.
ROWS["reporting:insights_return"] = Row(
    GET=expect(403, **REPORTERS), POST=expect(403, **REPORTERS), reauth=("POST",)
)

# A coalition's roll-ups: its person alone (an agency's reporters have no coalition seat).
ROWS.update(
    {
        "reporting:coalition": Row(GET=expect(403, coalition=200), POST=NOT_ALLOWED),
        # A POST without a period is the form again, with its message.
        "reporting:coalition_report": Row(
            GET=expect(403, coalition=200),
            POST=expect(403, coalition=200),
            kwargs="report",
            reauth=("POST",),
        ),
    }
)
