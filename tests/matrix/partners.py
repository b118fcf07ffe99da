"""Matrix rows for partners URLs: risk meetings, referrals and demographics are case pages
(reading is "view", changing "edit"); the risk meeting settings are the agency admin's."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from caseflow.cases.models import Episode, FieldSetting, IntakeField
from caseflow.partners.models import MeetingReferral, ServiceReferral
from tests.matrix.base import NOT_ALLOWED, Row, casework, expect


def _meeting(cast, case) -> MeetingReferral:
    return MeetingReferral.objects.create(
        case=case,
        route="judgement",
        reason="Matrix",
        basis="lawful_basis",
        lawful_basis="Matrix",
        categories=["risk"],
        meeting_name="MARAC",
        referred_on=dt.date(2026, 1, 5),
        referred_by=cast.assigned,
    )


def _meeting_url(name):
    def build(cast, case):
        return reverse(name, args=[case.public_id, _meeting(cast, case).public_id])

    return build


def _hud_url(cast, case):
    """The HUD page of a case whose agency asks HUD's questions (hidden until it shows them)."""
    FieldSetting.objects.get_or_create(
        agency_id=case.agency_id, field=IntakeField.HUD_ANSWERS, defaults={"hidden": False}
    )
    Episode.objects.get_or_create(case=case, number=1, defaults={"opened_at": case.opened_at})
    return reverse("partners:hud_answers", args=[case.public_id])


def _referral_url(cast, case):
    referral = ServiceReferral.objects.create(
        case=case,
        direction="in",
        service_type="police",
        organisation="Matrix Police",
        sent_on=dt.date(2026, 1, 5),
        state_changed_on=dt.date(2026, 1, 5),
        created_by=cast.assigned,
    )
    return reverse("partners:referral", args=[case.public_id, referral.public_id])


ROWS: dict[str, Row] = {
    # An empty POST re-renders the form with its errors.
    "partners:meeting_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "partners:meeting": Row(
        GET=casework(200, 200), POST=NOT_ALLOWED, url=_meeting_url("partners:meeting")
    ),
    "partners:meeting_change": Row(
        GET=casework(200, 200),
        POST=casework(200, 200),
        url=_meeting_url("partners:meeting_change"),
    ),
    "partners:action_new": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_meeting_url("partners:action_new")
    ),
    # An unreadable status: a message, and back to the meeting.
    "partners:action_status": Row(
        GET=NOT_ALLOWED, POST=casework(302, 302), url=_meeting_url("partners:action_status")
    ),
    "partners:referral_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "partners:referral": Row(GET=casework(200, 200), POST=casework(200, 200), url=_referral_url),
    "partners:demographics": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    # An empty POST re-renders the form with its errors.
    "partners:hud_answers": Row(GET=casework(200, 200), POST=casework(200, 200), url=_hud_url),
    "partners:settings": Row(GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)),
    # An empty POST re-renders the form with its errors.
    "partners:hud_project": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)
    ),
}
