"""Matrix rows for checkins URLs."""

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from caseflow.checkins.models import CheckIn
from caseflow.inbox.models import FollowUp
from tests.matrix.base import CASEWORKERS_ONLY, NOT_ALLOWED, Row, casework, expect


def _checkin(cast, case) -> CheckIn:
    return CheckIn.objects.create(
        case=case,
        assignee=cast.assigned,
        due_at=timezone.now() + dt.timedelta(days=1),
        channel="phone",
    )


def _followup(cast, case) -> FollowUp:
    return FollowUp.objects.create(
        case=case,
        assignee=cast.assigned,
        kind="task",
        due_at=timezone.now() + dt.timedelta(days=1),
    )


def _checkin_url(name):
    return lambda cast, case: reverse(name, args=[case.public_id, _checkin(cast, case).pk])


def _followup_url(name):
    return lambda cast, case: reverse(name, args=[case.public_id, _followup(cast, case).pk])


SIGNED_IN = expect(200)


def _notification_url(cast, case) -> str:
    from caseflow.inbox.models import Notification

    note, _ = Notification.objects.get_or_create(
        recipient=cast.assigned,
        key=f"matrix:{case.pk}",
        defaults={
            "kind": "task",
            "case": case,
            "text": "A matrix notification.",
            "link": f"/cases/{case.public_id}/",
            "sent_at": timezone.now(),
        },
    )
    return reverse("checkins:notification_open", args=[note.pk])


ROWS: dict[str, Row] = {
    "checkins:home": Row(GET=expect(403, **CASEWORKERS_ONLY), POST=NOT_ALLOWED),
    "checkins:notifications": Row(GET=SIGNED_IN, POST=NOT_ALLOWED),
    "checkins:notifications_read_all": Row(GET=NOT_ALLOWED, POST=expect(302)),
    # Someone's own notification only: the one built here is the assigned advocate's.
    "checkins:notification_open": Row(
        GET=expect(404, assigned=302), POST=NOT_ALLOWED, url=_notification_url
    ),
    "checkins:calendar": Row(
        GET=expect(403, **CASEWORKERS_ONLY), POST=expect(403, **CASEWORKERS_ONLY)
    ),
    "checkins:feed": Row(
        # An unknown token: no such calendar, whoever asks.
        GET=expect(404, anonymous=404, deactivated=404),
        POST=expect(405, anonymous=405, deactivated=405),
        url=lambda cast, case: reverse("checkins:feed", args=["x" * 43]),
    ),
    "checkins:new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    # An empty POST is no answer (the page posts its "confirm"): the proposals are shown again.
    "checkins:proposals": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "checkins:outcome": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_checkin_url("checkins:outcome")
    ),
    "checkins:cancel": Row(
        GET=NOT_ALLOWED, POST=casework(302, 302), url=_checkin_url("checkins:cancel")
    ),
    "checkins:followup_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "checkins:followup_edit": Row(
        GET=casework(200, 200),
        POST=casework(200, 200),
        url=_followup_url("checkins:followup_edit"),
    ),
    "checkins:followup_undo": Row(
        GET=NOT_ALLOWED, POST=casework(302, 302), url=_followup_url("checkins:followup_undo")
    ),
    "checkins:followup_done": Row(
        GET=NOT_ALLOWED, POST=casework(302, 302), url=_followup_url("checkins:followup_done")
    ),
    "scheduler_health": Row(
        # No sweep has run in the test database: stale.
        GET=expect(503, anonymous=503, deactivated=503),
        POST=expect(405, anonymous=405, deactivated=405),
    ),
}
