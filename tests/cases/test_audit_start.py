"""The auditor's home starts their work: what waits in their agency's trail, counted within
their own audit scope, each with the page where it is looked at."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from caseflow.audit.services import record
from caseflow.cases.audit_start import where_to_start
from caseflow.cases.models import BreakGlassGrant
from caseflow.inbox.models import Notification


def _counts(user) -> dict[str, int]:
    return {start.key: start.count for start in where_to_start(user)}


def _grant(case, user, reviewed: bool = False) -> BreakGlassGrant:
    return BreakGlassGrant.objects.create(
        case=case,
        user=user,
        reason="Duty line crisis call",
        expires_at=timezone.now(),
        reviewed_at=timezone.now() if reviewed else None,
    )


def _alert(user, key: str, read: bool = False, kind: str = "break_glass") -> None:
    Notification.objects.create(
        recipient=user,
        kind=kind,
        key=key,
        text="Emergency access opened: please review it.",
        link="/",
        sent_at=timezone.now(),
        read_at=timezone.now() if read else None,
    )


def test_each_count_is_what_waits_in_the_auditors_own_scope(cast):
    before = _counts(cast.auditor)
    # Emergency access: two waiting in the agency; one already reviewed, one on a restricted
    # case the auditor is not listed on, and one in another agency are not counted.
    _grant(cast.case, cast.same_team)
    _grant(cast.team2_case, cast.same_team)
    _grant(cast.case, cast.other_team, reviewed=True)
    _grant(cast.restricted_case, cast.same_team)
    _grant(cast.foreign_case, cast.other_agency)
    # Alerts: two unread of the audit kinds; a read one, another kind, another person's: not.
    _alert(cast.auditor, "a1")
    _alert(cast.auditor, "a2", kind="unusual_access")
    _alert(cast.auditor, "a3", read=True)
    _alert(cast.auditor, "a4", kind="checkin_due")
    _alert(cast.supervisor, "a5")
    # Security events: two this week in the agency; one ten days ago and one in another agency
    # are not counted (the old one is outside the week as well).
    for _ in range(2):
        record("security.role_change", actor=cast.agency_admin, agency_id=cast.agency.pk)
    record(
        "security.role_change",
        actor=cast.agency_admin,
        agency_id=cast.agency.pk,
        at=timezone.now() - dt.timedelta(days=10),
    )
    record("security.role_change", actor=cast.other_agency, agency_id=cast.foreign_case.agency_id)
    # One more event of the week that is not about security.
    record("case.view", actor=cast.assigned, case=cast.case)

    after = _counts(cast.auditor)
    assert after["break_glass"] - before["break_glass"] == 2
    assert after["alerts"] - before["alerts"] == 2
    assert after["security"] - before["security"] == 2
    assert after["week"] - before["week"] == 3


def test_the_auditors_home_lists_where_to_start_and_each_link_opens(cast, login):
    _grant(cast.case, cast.same_team)
    client = login(cast.auditor)
    page = client.get(reverse("dashboard"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Where to start" in html
    assert "Emergency access to review: <strong>1</strong>" in html
    for start in page.context["starts"]:
        assert f'href="{start.link.replace("&", "&amp;")}"' in html
        assert client.get(start.link).status_code == 200, start.key
    security = next(s for s in page.context["starts"] if s.key == "security")
    assert "action=security." in security.link and "date_from=" in security.link


def test_the_audit_filter_offers_anyone_not_dashes(cast, login):
    html = login(cast.auditor).get(reverse("audit:events")).content.decode()
    assert "Anyone" in html
    assert "---------" not in html
