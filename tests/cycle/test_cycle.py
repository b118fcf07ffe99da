"""What followed harm: marks after an incident or a contact, their constraints, the service and
its audit, the pages (policy, bad input), the timeline, the journey's row and pattern, packs
under a release, the field setting for her words, and the agency's own kinds."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases import timeline, trend
from caseflow.cases.models import FieldSetting, IntakeField
from caseflow.confidentiality.models import Category
from caseflow.confidentiality.pack import build_sections, category_rows
from caseflow.cycle import services
from caseflow.cycle.models import AgencyKind, Mark
from tests.agreements.helpers import log_event, make_agreement
from tests.casework.helpers import make_incident

pytestmark = pytest.mark.django_db

# Monday 9 March 2026, 12:00 UTC.
NOW = dt.datetime(2026, 3, 9, 12, 0, tzinfo=dt.UTC)
INCIDENT_AT = dt.datetime(2026, 3, 1, 20, 0, tzinfo=dt.UTC)


def _incident(cast, when=INCIDENT_AT, case=None):
    return make_incident(case or cast.case, cast.assigned, when=when)


def _mark(cast, incident, *, kind="apology", at=None, words=""):
    return services.mark_record(
        actor=cast.assigned,
        case=cast.case,
        incident=incident,
        at=at or incident.occurred_at + dt.timedelta(days=1),
        kind=kind,
        words=words,
    )


def _url(cast, incident):
    return reverse("cycle:after_incident", args=[cast.case.public_id, incident.public_id])


# --- The model ---------------------------------------------------------------------------------


@time_machine.travel(NOW, tick=False)
def test_a_mark_follows_exactly_one_record(cast):
    incident = _incident(cast)
    agreement = make_agreement(cast.case, cast.assigned)
    event = log_event(agreement, cast.assigned, INCIDENT_AT)
    base = dict(case=cast.case, at=NOW, kind="apology", recorded_by=cast.assigned)
    with pytest.raises(IntegrityError), transaction.atomic():
        Mark.objects.create(**base)
    with pytest.raises(IntegrityError), transaction.atomic():
        Mark.objects.create(incident=incident, contact_event=event, **base)
    Mark.objects.create(incident=incident, **base)
    Mark.objects.create(contact_event=event, **base)
    assert Mark.objects.count() == 2


@time_machine.travel(NOW, tick=False)
def test_a_mark_has_exactly_one_kind(cast):
    incident = _incident(cast)
    own = AgencyKind.objects.create(agency=cast.agency, label="Flowers at work")
    base = dict(case=cast.case, incident=incident, at=NOW, recorded_by=cast.assigned)
    with pytest.raises(IntegrityError), transaction.atomic():
        Mark.objects.create(kind="", **base)
    with pytest.raises(IntegrityError), transaction.atomic():
        Mark.objects.create(kind="gift", agency_kind=own, **base)
    assert Mark.objects.create(kind="", agency_kind=own, **base).kind_label == "Flowers at work"


# --- The service -------------------------------------------------------------------------------


@time_machine.travel(NOW, tick=False)
def test_marking_is_audited_and_her_words_are_encrypted(cast):
    incident = _incident(cast)
    mark = _mark(cast, incident, words="He said it would never happen again")
    assert mark.agency_id == cast.case.agency_id
    event = AuditEvent.objects.get(action="cycle_mark.create")
    assert event.detail == {"kind": "apology", "follows": "incident", "words": True}
    assert "never happen" not in str(event.detail)
    with connection.cursor() as cursor:
        cursor.execute("SELECT words FROM cycle_mark")
        (stored,) = cursor.fetchone()
    assert "never happen" not in stored
    assert Mark.objects.get(pk=mark.pk).words == "He said it would never happen again"


@time_machine.travel(NOW, tick=False)
def test_a_mark_is_not_before_its_harm_nor_in_the_future_nor_of_an_unknown_kind(cast):
    incident = _incident(cast)
    with pytest.raises(ValidationError) as before:
        _mark(cast, incident, at=INCIDENT_AT - dt.timedelta(hours=1))
    assert "before what it follows" in str(before.value)
    with pytest.raises(ValidationError) as future:
        _mark(cast, incident, at=NOW + dt.timedelta(days=1))
    assert "in the future" in str(future.value)
    with pytest.raises(ValidationError):
        _mark(cast, incident, kind="score")
    retired = AgencyKind.objects.create(agency=cast.agency, label="Old", active=False)
    with pytest.raises(ValidationError):
        _mark(cast, incident, kind=f"agency:{retired.pk}")
    foreign = AgencyKind.objects.create(agency=cast.foreign_case.agency, label="Theirs")
    with pytest.raises(ValidationError):
        _mark(cast, incident, kind=f"agency:{foreign.pk}")
    assert not Mark.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_the_service_checks_policy_and_the_record_belongs_to_the_case(cast):
    incident = _incident(cast)
    with pytest.raises(PermissionDenied):
        services.mark_record(
            actor=cast.other_team, case=cast.case, incident=incident, at=NOW, kind="gift"
        )
    other = _incident(cast, case=cast.restricted_case)
    with pytest.raises(PermissionDenied):
        services.mark_record(
            actor=cast.assigned, case=cast.case, incident=other, at=NOW, kind="gift"
        )
    assert not Mark.objects.exists()


# --- The pages ---------------------------------------------------------------------------------


@time_machine.travel(NOW, tick=False)
def test_an_advocate_marks_an_apology_from_the_incident(cast, login):
    incident = _incident(cast)
    client = login(cast.assigned)
    page = client.get(reverse("casework:incident", args=[cast.case.public_id, incident.public_id]))
    assert _url(cast, incident).encode() in page.content
    form = client.get(_url(cast, incident))
    assert form.status_code == 200
    assert b"What did the other party do afterwards?" in form.content
    response = client.post(
        _url(cast, incident),
        {"kind": "apology", "at": "2026-03-02T09:30", "words": "Flowers and sorry"},
    )
    assert response.status_code == 302
    mark = Mark.objects.get()
    assert mark.incident == incident and mark.kind == "apology"
    shown = client.get(_url(cast, incident)).content.decode()
    assert "An apology" in shown and "Flowers and sorry" in shown


@time_machine.travel(NOW, tick=False)
def test_an_advocate_marks_what_followed_a_logged_contact(cast, login):
    agreement = make_agreement(cast.case, cast.assigned)
    event = log_event(agreement, cast.assigned, INCIDENT_AT)
    client = login(cast.assigned)
    detail = client.get(
        reverse("agreements:detail", args=[cast.case.public_id, agreement.public_id])
    )
    url = reverse("cycle:after_contact", args=[cast.case.public_id, event.public_id])
    assert url.encode() in detail.content
    assert client.post(url, {"kind": "pity", "at": "2026-03-01T22:00"}).status_code == 302
    assert Mark.objects.get().contact_event == event


@time_machine.travel(NOW, tick=False)
def test_bad_input_is_a_message_on_the_form_and_nothing_is_saved(cast, login):
    incident = _incident(cast)
    client = login(cast.assigned)
    for data, message in (
        ({"kind": "apology", "at": "2026-02-01T10:00"}, "before what it follows"),
        ({"kind": "apology", "at": "2027-02-01T10:00"}, "in the future"),
        ({"kind": "score", "at": "2026-03-02T10:00"}, "Select a valid choice"),
        ({"kind": "apology", "at": "yesterday"}, "Enter a valid date"),
        ({"kind": "apology", "at": "2026-03-02T10:00", "words": "x" * 2001}, "at most 2000"),
    ):
        response = client.post(_url(cast, incident), {**data, "words": data.get("words", "kept")})
        assert response.status_code == 200
        assert message in response.content.decode()
    assert not Mark.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_another_agency_and_another_team_get_nothing(cast, login):
    incident = _incident(cast)
    foreign = make_incident(cast.foreign_case, cast.other_agency, when=INCIDENT_AT)
    assert login(cast.other_agency).get(_url(cast, incident)).status_code == 404
    assert login(cast.other_team).post(_url(cast, incident), {"kind": "gift"}).status_code == 404
    # An incident of another case is not found inside this one.
    wrong = reverse("cycle:after_incident", args=[cast.case.public_id, foreign.public_id])
    assert login(cast.assigned).get(wrong).status_code == 404
    assert login(cast.auditor).get(_url(cast, incident)).status_code == 404
    assert not Mark.objects.exists()


# --- The timeline, the journey and the packs ---------------------------------------------------


@time_machine.travel(NOW, tick=False)
def test_marks_are_on_the_timeline_with_her_words(cast):
    incident = _incident(cast)
    _mark(cast, incident, words="Said he'd change")
    entries = timeline.page(cast.case, timeline.Query(kinds=frozenset({"cycle_mark"}))).entries
    assert [e.title for e in entries] == ["What followed harm: An apology"]
    assert entries[0].body == "Said he'd change"
    source = next(s for s in timeline.registered_sources() if s.kind == "cycle_mark")
    assert source.categories == frozenset({"evidence", "narratives"})


@time_machine.travel(NOW, tick=False)
def test_the_journey_draws_marks_beside_harm_and_says_the_pattern(cast, login):
    # Opened before the incidents (the cast is made at the real, or the moved, clock).
    cast.case.opened_at = NOW - dt.timedelta(weeks=20)
    cast.case.save(update_fields=["opened_at"])
    for week in range(4):
        incident = _incident(cast, when=INCIDENT_AT - dt.timedelta(weeks=week + 1))
        _mark(cast, incident, kind="apology" if week else "promise")
    picture = trend.build(cast.case, [], today=NOW.date())
    row = next(r for r in picture.svg["rows"] if r["label"] == "What followed harm")
    assert row["peak"] == 1 and len(row["bars"]) == 4
    assert "An apology: after 3 of the last 4 incidents, within 3 days." in picture.summary
    assert "A promise to change: after 1 of the last 4 incidents, within 3 days." in picture.summary
    page = login(cast.assigned).get(reverse("cases:journey", args=[cast.case.public_id]))
    assert "An apology: after 3 of the last 4 incidents, within 3 days." in page.content.decode()


@time_machine.travel(NOW, tick=False)
def test_marks_leave_in_packs_by_category_and_her_words_only_while_collected(cast):
    incident = _incident(cast)
    _mark(cast, incident, words="Sorry, sorry")
    case = type(cast.case).objects.get(pk=cast.case.pk)
    evidence = " ".join(v for _, v in category_rows(case, Category.EVIDENCE))
    assert "An apology, 2026-03-02" in evidence and "Sorry, sorry" not in evidence
    narratives = " ".join(v for _, v in category_rows(case, Category.NARRATIVES))
    assert "Sorry, sorry" in narratives
    # A release of other categories carries none of it.
    sections = build_sections(case, [Category.CONTACT, Category.ADDRESS])
    assert sections and not any("What followed harm" in k for _, rows in sections for k, _ in rows)
    FieldSetting.objects.create(agency=cast.agency, field=IntakeField.CYCLE_WORDS, hidden=True)
    narratives = " ".join(v for _, v in category_rows(case, Category.NARRATIVES))
    assert "Sorry, sorry" not in narratives
    entries = timeline.page(cast.case, timeline.Query(kinds=frozenset({"cycle_mark"}))).entries
    assert entries and entries[0].body == ""


@time_machine.travel(NOW, tick=False)
def test_a_hidden_words_field_is_not_asked_for_and_a_relabelled_one_shows_its_label(cast, login):
    incident = _incident(cast)
    setting = FieldSetting.objects.create(
        agency=cast.agency, field=IntakeField.CYCLE_WORDS, label="What she told us"
    )
    client = login(cast.assigned)
    assert "What she told us" in client.get(_url(cast, incident)).content.decode()
    setting.hidden = True
    setting.save()
    assert b'name="words"' not in client.get(_url(cast, incident)).content
    client.post(_url(cast, incident), {"kind": "gift", "at": "2026-03-02T10:00", "words": "No"})
    mark = Mark.objects.get()
    mark.case = cast.case
    assert mark.words == ""


# --- The agency's own kinds --------------------------------------------------------------------


@time_machine.travel(NOW, tick=False)
def test_the_agency_admin_adds_and_retires_kinds_that_advocates_then_see(cast, login):
    admin = login(cast.agency_admin)
    url = reverse("cycle:kinds")
    assert url.encode() in admin.get(reverse("agency:settings")).content
    assert admin.post(url, {"label": "  Flowers   at work "}).status_code == 302
    kind = AgencyKind.objects.get()
    assert kind.label == "Flowers at work" and kind.agency == cast.agency
    again = admin.post(url, {"label": "Flowers at work"})
    assert again.status_code == 200 and "already has this kind" in again.content.decode()
    assert AuditEvent.objects.filter(action="cycle_kind.save").count() == 1
    incident = _incident(cast)
    advocate = login(cast.assigned)
    assert "Flowers at work" in advocate.get(_url(cast, incident)).content.decode()
    assert (
        advocate.post(
            _url(cast, incident), {"kind": f"agency:{kind.pk}", "at": "2026-03-02T10:00"}
        ).status_code
        == 302
    )
    admin = login(cast.agency_admin)
    assert admin.post(url, {"toggle": str(kind.pk)}).status_code == 302
    kind.refresh_from_db()
    assert not kind.active
    advocate = login(cast.assigned)
    page = advocate.get(_url(cast, incident)).content.decode()
    # Retired: no longer offered, still on the mark that used it.
    assert f'value="agency:{kind.pk}"' not in page and "Flowers at work" in page
    assert login(cast.agency_admin).post(url, {"toggle": "999999"}).status_code == 404
    assert login(cast.agency_admin).post(url, {"toggle": "x"}).status_code == 404
    assert login(cast.assigned).get(url).status_code == 403


# --- Partial purge -----------------------------------------------------------------------------


def test_a_partial_purge_clears_her_words_and_keeps_the_dated_kind(cast):
    from caseflow.confidentiality import services as conf_services
    from caseflow.confidentiality.models import PurgeProposal, PurgeScope
    from tests.confidentiality.helpers import close, fresh

    incident = _incident(cast, when=dt.datetime(2020, 3, 1, 20, 0, tzinfo=dt.UTC))
    mark = _mark(cast, incident, words="He cried and said sorry")
    case = close(cast.case, 4)
    conf_services.purge_propose_due()
    proposal = PurgeProposal.objects.get(case=case, scope=PurgeScope.NARRATIVES)
    conf_services.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    certificate = conf_services.purge_execute(actor=cast.supervisor, proposal_id=proposal.pk)
    assert certificate.purged["cleared"]["cycle.Mark"] == ["words"]
    kept = Mark.objects.get(pk=mark.pk)
    kept.case = fresh(case)
    assert kept.words == "" and kept.kind == "apology" and kept.at == mark.at
