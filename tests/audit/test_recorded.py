"""Generated from the authorization matrix: every page of case data writes exactly one read event
for its case, and every denied case URL writes an access-denied event."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.audit.actions import is_read
from caseflow.audit.models import AuditEvent
from tests.conftest import ACTORS
from tests.test_url_matrix import MATRIX, url_for

# Built from a row's URL builder but not case URLs: the calendar feed is per user, by token; a
# notification is its recipient's own (another's answers 404, as if it did not exist).
NOT_CASE_URLS = {"checkins:feed", "checkins:notification_open"}


def _per_case(row, name: str = "") -> bool:
    if name in NOT_CASE_URLS:
        return False
    # A duty-line call on no case (``kwargs="call"``) is not a case URL (tests/calls).
    return row.kwargs in ("case", "party") or (row.url is not None and row.kwargs != "call")


CASE_URLS = sorted(name for name, row in MATRIX.items() if _per_case(row, name))
OTHER_URLS = sorted(name for name, row in MATRIX.items() if not _per_case(row, name))


def _head() -> int:
    return AuditEvent.objects.order_by("-seq").values_list("seq", flat=True).first() or 0


def test_the_matrix_has_case_urls():
    assert {"cases:detail", "audit:case"} <= set(CASE_URLS)


@pytest.mark.parametrize("name", CASE_URLS)
def test_case_pages_write_one_read_and_denials_are_recorded(name, cast, login):
    row = MATRIX[name]
    failures = []
    for actor in ACTORS:
        expected = row.GET[actor]
        if expected not in (200, 403, 404):
            continue
        url = url_for(name, row, cast, "case")  # may create the object it needs first
        mark = _head()
        response = login(cast.actor(actor)).get(url)
        if response.status_code != expected:
            failures.append(f"{actor}: {response.status_code}, expected {expected}")
            continue
        written = list(AuditEvent.objects.filter(seq__gt=mark))
        reads = [e for e in written if is_read(e.action)]
        denied = [e for e in written if e.action == "access.denied"]
        if expected == 200:
            if [(e.case_id, e.actor_id) for e in reads] != [(cast.case.pk, cast.actor(actor).pk)]:
                failures.append(f"{actor}: reads {[(e.action, e.case_id) for e in reads]}")
            if denied:
                failures.append(f"{actor}: a page it may see recorded a denial")
        else:
            if len(denied) != 1 or denied[0].actor_id != cast.actor(actor).pk:
                failures.append(f"{actor}: {expected} recorded {[e.action for e in written]}")
            if denied and denied[0].detail.get("status") != expected:
                failures.append(f"{actor}: denial recorded as {denied[0].detail}")
            if reads:
                failures.append(f"{actor}: a denied page recorded a read")
    assert failures == []


@pytest.mark.parametrize("name", OTHER_URLS)
def test_other_pages_write_at_most_one_read(name, cast, login):
    row = MATRIX[name]
    failures = []
    for actor in ACTORS:
        if row.GET[actor] != 200:
            continue
        url = url_for(name, row, cast, "case")
        mark = _head()
        login(cast.actor(actor)).get(url)
        reads = list(AuditEvent.objects.filter(seq__gt=mark).values_list("action", flat=True))
        if len([a for a in reads if is_read(a)]) > 1:
            failures.append(f"{actor}: {reads}")
    assert failures == []


def test_a_case_page_records_who_where_and_which_request(cast, login, settings):

    settings.TRUSTED_PROXY_IP_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    mark = _head()
    response = login(cast.assigned).get(
        reverse("cases:detail", args=[cast.case.public_id]),
        HTTP_X_FORWARDED_FOR="198.51.100.7",
    )
    event = AuditEvent.objects.get(seq__gt=mark)
    assert (event.action, event.actor_id, event.actor_role) == (
        "case.view",
        cast.assigned.pk,
        "advocate",
    )
    assert (event.agency_id, event.case_id) == (cast.agency.pk, cast.case.pk)
    assert event.ip == "198.51.100.7"
    assert event.request_id == response["X-Request-ID"]


def test_security_events_are_recorded(cast, client, login):
    from caseflow.agency.services import staff_save

    staff_save(
        actor=cast.agency_admin,
        user=cast.same_team,
        data={
            "first_name": "S",
            "last_name": "",
            "email": "s@example.invalid",
            "role": "supervisor",
            "is_active": True,
            "password": "",
        },
        teams=[cast.team1],
    )
    change = AuditEvent.objects.get(action="security.role_change")
    assert change.detail == {"from": "advocate", "to": "supervisor"}
    assert change.object_id == str(cast.same_team.pk)
    login(None).post(reverse("accounts:login"), {"username": "assigned", "password": "wrong"})
    assert AuditEvent.objects.filter(action="security.login_failed").exists()
