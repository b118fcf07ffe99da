"""The case timeline page and its printed chronology: constant queries per page, keyset links to
older entries, the audit of each read and print, bad query strings answered with a message, and
the outside-the-agency variant only under a covering release or a recorded order."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import PartyRole
from caseflow.cases.timeline import Cursor
from caseflow.confidentiality.models import Category, Disclosure, DisclosureKind
from tests import factories as f
from tests.cases.timeline_helpers import fill
from tests.confidentiality.helpers import RECIPIENT, release

pytestmark = pytest.mark.django_db


def _url(case, name="cases:timeline") -> str:
    return reverse(name, args=[case.public_id])


def _page_queries(client, case) -> tuple[int, bytes]:
    url = _url(case)
    client.get(url)  # warm: first-request work (session, caches) is not the page's
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured), response.content


def test_first_page_costs_the_same_queries_for_2000_entries_as_for_20(cast, login):
    client = login(cast.assigned)
    small_case = f.open_case(cast.team1, [cast.assigned], reference="SMALL")
    f.add_party(small_case, PartyRole.SURVIVOR, full_name="Small survivor")
    fill(small_case, cast.assigned, 20)
    small, small_body = _page_queries(client, small_case)

    counts = fill(cast.case, cast.assigned, 2000)
    assert sum(counts.values()) >= 2000
    large, body = _page_queries(client, cast.case)
    assert small == large
    # The large page is full, the small one shows its whole record.
    assert body.count(b'class="timeline-entry') == 50
    assert b"Older entries" in body and b"Older entries" not in small_body
    assert 20 <= small_body.count(b'class="timeline-entry') < 50


def test_page_pages_to_older_entries_and_is_audited(cast, login):
    fill(cast.case, cast.assigned, 120)
    client = login(cast.assigned)
    response = client.get(_url(cast.case))
    body = response.content.decode()
    assert "Older entries" in body and "Check-in note" in body
    older = re.search(r'href="\?(before=[^"]+)">Older entries', body)
    assert older
    second = client.get(f"{_url(cast.case)}?{older.group(1).replace('&amp;', '&')}")
    assert second.status_code == 200 and "Newest entries" in second.content.decode()
    views = AuditEvent.objects.filter(case_id=cast.case.pk, action="timeline.view")
    assert views.count() == 2
    assert all(e.actor_id == cast.assigned.pk for e in views)


@pytest.mark.parametrize(
    "query",
    [
        "before=garbage",
        "before=20260101T000000.000000Z.nosuchkind.000000000001",
        "before=20261399T000000.000000Z.contact.000000000001",
        "since=not-a-date",
        "since=2026-03-10&until=2026-03-01",
        "since=0001-01-01",
        "kind=nosuchkind",
        "person=nobody",
        "kind=contact&before=20260101T000000.000000Z.contact.99999999999999999999",
    ],
)
def test_bad_query_strings_get_a_message_never_an_error(cast, login, query):
    client = login(cast.assigned)
    for name in ("cases:timeline", "cases:timeline_print"):
        response = client.get(f"{_url(cast.case, name)}?{query}")
        assert response.status_code == 200, (name, query)
    # The outside variant sends bad filters back to the timeline, which names what is wrong.
    share = client.get(f"{_url(cast.case, 'confidentiality:timeline_share')}?{query}")
    assert share.status_code in (200, 302)
    if share.status_code == 302:
        assert share["Location"].startswith(_url(cast.case))
    body = client.get(f"{_url(cast.case)}?{query}").content.decode()
    assert "Check the" in body or "does not work any more" in body or "Select a valid" in body


def test_cursor_token_round_trips():
    cursor = Cursor(
        dt.datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=dt.UTC), "contact", "000000000042"
    )
    assert Cursor.parse(cursor.token(), ["contact"]) == cursor
    with pytest.raises(ValueError):
        Cursor.parse(cursor.token(), ["checkin"])


def test_internal_print_has_fingerprint_page_numbers_and_is_a_read(cast, login):
    fill(cast.case, cast.assigned, 30)
    client = login(cast.assigned)
    response = client.get(f"{_url(cast.case, 'cases:timeline_print')}?kind=contact&kind=breach")
    body = response.content.decode()
    assert response.status_code == 200
    fingerprint = re.search(r"SHA-256 of the content: <code>([0-9a-f]{64})</code>", body)
    assert fingerprint
    assert "internal file" in body and "Contact number" in body and "Check-in note" not in body
    assert "case-chronology.css" in body
    event = AuditEvent.objects.get(case_id=cast.case.pk, action="timeline.print")
    assert event.detail["audience"] == "internal"
    assert event.detail["sha256"] == fingerprint.group(1)
    # The same content gives the same fingerprint.
    again = client.get(f"{_url(cast.case, 'cases:timeline_print')}?kind=contact&kind=breach")
    assert fingerprint.group(1) in again.content.decode()


def _share(client, cast, query="kind=contact&kind=breach", **over):
    data = {"recipient": RECIPIENT, "release": "", "order": ""}
    data.update(over)
    return client.post(f"{_url(cast.case, 'confidentiality:timeline_share')}?{query}", data)


def test_outside_needs_a_covering_release_and_is_a_disclosure(cast, login):
    fill(cast.case, cast.assigned, 30)
    client = login(cast.assigned)
    narrow = release(cast, categories=[Category.CONTACT])
    refused = _share(client, cast, release=narrow.public_id)
    assert refused.status_code == 200
    assert (
        "Refused" in refused.content.decode() and "Contact number" not in refused.content.decode()
    )
    assert not AuditEvent.objects.filter(action="timeline.share").exists()
    assert AuditEvent.objects.filter(action="disclosure.refused", case_id=cast.case.pk).exists()

    covering = release(cast, categories=[Category.EVIDENCE, Category.NARRATIVES])
    given = _share(client, cast, release=covering.public_id)
    body = given.content.decode()
    assert given.status_code == 200
    assert f"Produced for {RECIPIENT}" in body and "Contact number" in body
    event = AuditEvent.objects.get(action="timeline.share", case_id=cast.case.pk)
    disclosure = Disclosure.objects.get(pk=event.detail["disclosure"])
    assert disclosure.kind == DisclosureKind.CASE_CHRONOLOGY
    assert disclosure.categories == ["evidence", "narratives"]
    assert event.detail["audience"] == "outside"
    assert event.detail["release"] == covering.pk
    assert re.search(event.detail["sha256"], body)


def test_outside_under_a_recorded_order(cast, login):
    from caseflow.confidentiality import services as conf

    fill(cast.case, cast.assigned, 20)
    order = conf.compelled_record(
        actor=cast.assigned,
        case=cast.case,
        kind="court_order",
        received_on=dt.date(2024, 5, 1),
        issuer="Family Court",
        reference="FC-1",
        demanded="The record",
        recipient="Family Court",
        categories=[Category.EVIDENCE],
        disclosed_on=dt.date(2024, 5, 2),
    )
    client = login(cast.assigned)
    given = _share(client, cast, query="", order=str(order.pk))
    assert given.status_code == 200 and "Produced for" in given.content.decode()
    event = AuditEvent.objects.get(action="timeline.share", case_id=cast.case.pk)
    assert event.detail["order"] == order.pk and event.detail["release"] is None


def test_outside_needs_recent_authentication(cast, login, settings):
    from caseflow.accounts import second_factor as sf

    client = login(cast.assigned)
    session = client.session
    session[sf.RECENT_AUTH_AT] = sf.now_ts() - settings.RECENT_AUTH_MINUTES * 60 - 1
    session.save()
    response = _share(client, cast)
    assert response.status_code == 302
    assert reverse("accounts:reauth") in response["Location"]
    assert not AuditEvent.objects.filter(action="timeline.share").exists()


def test_case_page_links_to_the_timeline(cast, login):
    client = login(cast.assigned)
    body = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert f'href="{_url(cast.case)}"' in body
