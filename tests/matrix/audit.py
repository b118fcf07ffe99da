"""Matrix rows for audit URLs."""

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from tests.matrix.base import NOT_ALLOWED, Row, casework, expect

WORKSPACE = dict(supervisor=200, other_supervisor=200, auditor=200)


def _expired_grant_url(cast, case) -> str:
    """An emergency access ``same_team`` had to ``case``, over by now."""
    from caseflow.cases.models import BreakGlassGrant

    now = timezone.now()
    grant = BreakGlassGrant.objects.create(
        case=case,
        user=cast.same_team,
        reason="Duty line call",
        granted_at=now - dt.timedelta(hours=2),
        expires_at=now - dt.timedelta(hours=1),
    )
    return reverse("audit:break_glass_review", args=[grant.pk])


ROWS: dict[str, Row] = {
    "audit:events": Row(GET=expect(403, **WORKSPACE), POST=NOT_ALLOWED),
    "audit:export": Row(GET=expect(403, **WORKSPACE), POST=NOT_ALLOWED, reauth=("GET",)),
    "audit:break_glass": Row(GET=expect(403, **WORKSPACE), POST=NOT_ALLOWED),
    # Timelines: whoever may read the case, and the agency's auditors.
    "audit:case": Row(GET=casework(200, 200, auditor=200), POST=NOT_ALLOWED, kwargs="case"),
    "audit:case_access": Row(GET=casework(200, 200, auditor=200), POST=NOT_ALLOWED, kwargs="case"),
    # ``same_team`` is in team 1: its supervisor and the auditor review their activity.
    "audit:user": Row(
        GET=expect(403, supervisor=200, auditor=200, other_supervisor=404),
        POST=NOT_ALLOWED,
        kwargs="user",
    ),
    # Only the case's team supervisor reviews; an empty POST is a form error (200).
    "audit:break_glass_review": Row(
        GET=casework(403, 200, auditor=403),
        POST=casework(403, 200, auditor=403),
        url=_expired_grant_url,
    ),
}
