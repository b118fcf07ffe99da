"""Services counted in the funders' categories: the database's rules, the service and its audit,
policy (another agency's case is out of reach), the form's answers to bad input, the agency's
catalogue, and the links from a note, a call, a stay and a hearing."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.calls import services as calls
from caseflow.court.models import Hearing
from caseflow.servicelog import selectors, services
from caseflow.servicelog.models import AgencyCategory, ServiceRecord, StandardCategory
from tests.casework.helpers import make_note
from tests.matrix.shelter import _stay

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 11, 16, 11, tzinfo=dt.UTC)
TODAY = dt.date(2026, 11, 16)


def _count(cast, source, kind="note", **kw):
    args = dict(
        actor=cast.assigned,
        source_kind=kind,
        source=source,
        category=StandardCategory.INSIGHTS_EMOTIONAL,
        minutes=30,
        given_on=TODAY,
    )
    args.update(kw)
    return services.service_record(**args)


def _hearing(cast, case=None):
    return Hearing.objects.create(
        case=case or cast.case,
        court="Exampletown Family Court",
        kind="protection_order",
        starts_at=NOW - dt.timedelta(days=1),
        created_by=cast.assigned,
    )


# --- The database's rules ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"category": "", "agency_category": None},  # no category
        {"category": "voca_c2", "agency_category": "own"},  # two
        {"minutes": 0},
        {"minutes": 24 * 60 + 1},
        {"given_on": dt.date(1999, 12, 31)},
        {"note": "note", "hearing": "hearing"},  # two sources
    ],
)
@time_machine.travel(NOW, tick=False)
def test_the_database_refuses_a_record_that_breaks_a_rule(cast, fields):
    own = AgencyCategory.objects.create(agency=cast.agency, label="Peer mentoring")
    note = make_note(cast.case, cast.assigned)
    hearing = _hearing(cast)
    named = {"own": own, "note": note, "hearing": hearing}
    values = dict(
        case=cast.case, category="voca_c2", minutes=30, given_on=TODAY, given_by=cast.assigned
    )
    values.update({k: named.get(v, v) if isinstance(v, str) else v for k, v in fields.items()})
    with pytest.raises(IntegrityError), transaction.atomic():
        ServiceRecord(**values).save()


@time_machine.travel(NOW, tick=False)
def test_the_database_takes_a_record_in_the_agencys_own_category(cast):
    own = AgencyCategory.objects.create(agency=cast.agency, label="Peer mentoring")
    record = ServiceRecord(
        case=cast.case, agency_category=own, minutes=1440, given_on=TODAY, given_by=cast.assigned
    )
    record.save()
    assert record.agency_id == cast.agency.pk
    assert record.category_label == "Peer mentoring"


# --- Counting a service ------------------------------------------------------------------------


@time_machine.travel(NOW, tick=False)
def test_a_note_is_counted_and_audited_without_anything_personal(cast):
    note = make_note(cast.case, cast.assigned, kind="court", duration_minutes=90)
    service = _count(cast, note, category=StandardCategory.INSIGHTS_COURT, minutes=90)
    assert (service.case, service.note, service.agency_id) == (cast.case, note, cast.agency.pk)
    event = AuditEvent.objects.get(action="service_count.record")
    assert event.case_id == cast.case.pk
    assert event.detail == {"source": "note", "category": "insights_court", "minutes": 90}
    # The same note in the same category again is refused; in another it is counted.
    with pytest.raises(ValidationError):
        _count(cast, note, category=StandardCategory.INSIGHTS_COURT)
    _count(cast, note, category=StandardCategory.INSIGHTS_SAFETY)
    assert ServiceRecord.objects.filter(note=note).count() == 2


@time_machine.travel(NOW, tick=False)
def test_an_anonymous_call_is_counted_on_no_case(cast):
    call = calls.call_log(actor=cast.assigned, caller_kind="anonymous", duration_minutes=25)
    service = _count(cast, call, kind="call", category=StandardCategory.VOCA_C2, minutes=25)
    assert service.case is None and service.agency_id == cast.agency.pk
    # Someone who may not read the call may not count it.
    with pytest.raises(PermissionDenied):
        _count(cast, call, kind="call", actor=cast.same_team, category=StandardCategory.VOCA_C1)


@time_machine.travel(NOW, tick=False)
def test_another_agencys_case_is_refused_by_the_service(cast):
    note = make_note(cast.foreign_case, cast.other_agency)
    with pytest.raises(PermissionDenied):
        _count(cast, note)
    assert not ServiceRecord.objects.exists()


@pytest.mark.parametrize(
    "change",
    [
        {"category": ""},
        {"category": "not_a_code"},
        {"category": "own:nonsense"},
        {"minutes": 0},
        {"minutes": -5},
        {"minutes": 1441},
        {"given_on": dt.date(2026, 11, 17)},
        {"given_on": dt.date(1999, 12, 31)},
    ],
)
@time_machine.travel(NOW, tick=False)
def test_the_service_refuses_bad_values(cast, change):
    note = make_note(cast.case, cast.assigned)
    with pytest.raises(ValidationError):
        _count(cast, note, **change)
    assert not ServiceRecord.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_only_the_schemes_and_active_categories_the_agency_offers_are_taken(cast):
    services.service_schemes_save(actor=cast.agency_admin, schemes=["voca"])
    own = services.service_category_add(actor=cast.agency_admin, label="Peer  mentoring")
    assert own.label == "Peer mentoring"
    note = make_note(cast.case, cast.assigned)
    with pytest.raises(ValidationError):
        _count(cast, note, category=StandardCategory.INSIGHTS_EMOTIONAL)
    assert _count(cast, note, category=f"own:{own.public_id}").agency_category == own
    services.service_category_set_active(
        actor=cast.agency_admin, category_id=own.public_id, active=False
    )
    with pytest.raises(ValidationError):
        _count(cast, make_note(cast.case, cast.assigned), category=f"own:{own.public_id}")
    offered = [v for _g, items in selectors.category_choices(cast.agency.pk)[1:] for v, _l in items]
    assert offered and all(v.startswith("voca_") for v in offered)
    # Retired, its services are still counted under it.
    assert any(
        key == f"own:{own.public_id}" for key, _l in selectors.report_categories(cast.agency.pk)
    )
    with pytest.raises(PermissionDenied):
        services.service_category_add(actor=cast.supervisor, label="Something")
    assert AuditEvent.objects.filter(action__startswith="service_count.").count() == 4


@time_machine.travel(NOW, tick=False)
def test_sources_suggest_their_category_and_minutes(cast):
    call = calls.call_log(actor=cast.assigned, caller_kind="survivor", duration_minutes=12)
    court = make_note(cast.case, cast.assigned, kind="court", duration_minutes=40)
    agency = cast.agency.pk
    assert selectors.suggested_category(agency, "call", call) == "voca_c2"
    assert selectors.suggested_category(agency, "stay", None) == "voca_d1"
    assert selectors.suggested_category(agency, "hearing", _hearing(cast)) == "voca_e4"
    assert selectors.suggested_category(agency, "note", court) == "insights_court"
    assert selectors.suggested_minutes("call", call) == 12
    assert selectors.suggested_minutes("note", court) == 40
    services.service_schemes_save(actor=cast.agency_admin, schemes=["insights"])
    assert selectors.suggested_category(agency, "hearing", _hearing(cast)) == "insights_court"


# --- The pages ------------------------------------------------------------------------------------


@time_machine.travel(NOW, tick=False)
def test_the_form_counts_a_note_and_answers_bad_input_with_errors(cast, login):
    note = make_note(cast.case, cast.assigned, duration_minutes=35)
    client = login(cast.assigned)
    detail = client.get(reverse("casework:note", args=[cast.case.public_id, note.public_id]))
    url = reverse("servicelog:from_note", args=[cast.case.public_id, note.public_id])
    assert url in detail.content.decode()
    page = client.get(url)
    assert page.status_code == 200
    assert page.context["form"].initial["minutes"] == 35
    for bad, field in (
        ({"category": ""}, "category"),
        ({"minutes": "0"}, "minutes"),
        ({"minutes": "-3"}, "minutes"),
        ({"minutes": "1441"}, "minutes"),
        ({"minutes": "x"}, "minutes"),
        ({"given_on": "2026-11-17"}, "given_on"),
        ({"given_on": "1999-01-01"}, "given_on"),
        ({"given_on": "2026-02-30"}, "given_on"),
    ):
        data = {"category": "insights_emotional", "minutes": "35", "given_on": "2026-11-16"}
        data.update(bad)
        answer = client.post(url, data)
        assert answer.status_code == 200, bad
        assert field in answer.context["form"].errors, bad
    assert not ServiceRecord.objects.exists()
    done = client.post(
        url, {"category": "insights_emotional", "minutes": "35", "given_on": "2026-11-16"}
    )
    assert done.status_code == 302
    assert ServiceRecord.objects.get().minutes == 35


@time_machine.travel(NOW, tick=False)
def test_each_source_page_links_to_the_form(cast, login):
    client = login(cast.assigned)
    call = calls.call_log(actor=cast.assigned, caller_kind="survivor", duration_minutes=12)
    stay = _stay(cast, cast.case)
    hearing = _hearing(cast)
    pages = [
        (reverse("calls:detail", args=[call.public_id]), "servicelog:from_call", [call.public_id]),
        (
            reverse("shelter:stay", args=[cast.case.public_id, stay.public_id]),
            "servicelog:from_stay",
            [cast.case.public_id, stay.public_id],
        ),
        (
            reverse("court:hearing", args=[cast.case.public_id, hearing.public_id]),
            "servicelog:from_hearing",
            [cast.case.public_id, hearing.public_id],
        ),
    ]
    for page, name, args in pages:
        link = reverse(name, args=args)
        assert link in client.get(page).content.decode(), name
        assert client.get(link).status_code == 200, name
    assert len(pages) == 3


@time_machine.travel(NOW, tick=False)
def test_another_agencys_note_is_not_found(cast, login):
    note = make_note(cast.foreign_case, cast.other_agency)
    url = reverse("servicelog:from_note", args=[cast.foreign_case.public_id, note.public_id])
    client = login(cast.assigned)
    assert client.get(url).status_code == 404
    # A note of another case, under a case the user may work, is not found either.
    assert (
        client.get(
            reverse("servicelog:from_note", args=[cast.case.public_id, note.public_id])
        ).status_code
        == 404
    )


@time_machine.travel(NOW, tick=False)
def test_the_agency_admin_keeps_the_catalogue_from_the_settings(cast, login):
    client = login(cast.agency_admin)
    url = reverse("servicelog:categories")
    assert url in client.get(reverse("agency:settings")).content.decode()
    assert client.post(url, {"action": "schemes"}).status_code == 200  # none chosen: an error
    assert client.post(url, {"action": "schemes", "schemes": ["voca"]}).status_code == 302
    assert selectors.agency_schemes(cast.agency.pk) == ["voca"]
    assert client.post(url, {"action": "add", "label": ""}).status_code == 200
    assert client.post(url, {"action": "add", "label": "Peer mentoring"}).status_code == 302
    own = AgencyCategory.objects.get(agency=cast.agency)
    assert client.post(url, {"action": "retire", "category": own.public_id}).status_code == 302
    own.refresh_from_db()
    assert not own.active
    assert "Peer mentoring" in client.get(url).content.decode()
