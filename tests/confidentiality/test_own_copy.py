"""The survivor's own copy of her record: the incidents and contacts she chooses, in her words,
on a paper that names no agency, case, member of staff or web address, recorded as a disclosure to
herself on her own consent."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import PartyRole
from caseflow.confidentiality import services
from caseflow.confidentiality.models import Disclosure, DisclosureKind
from tests.agreements.helpers import log_event, make_agreement
from tests.casework.helpers import make_incident, make_note
from tests.confidentiality.helpers import party
from tests.conftest import canary

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
HER_WORDS = "He took my phone and read my messages out loud."
NOT_CHOSEN = "He waited outside the school gate."
CONTACT_WORDS = "Said he would keep the children an extra night."


@pytest.fixture
def records(cast):
    """Two incidents (one with other people's details around her words) and two contacts."""
    survivor = party(cast.case)
    survivor.languages = "es,so"
    survivor.save()
    with time_machine.travel(NOW, tick=False):
        chosen = make_incident(
            cast.case,
            cast.assigned,
            when=dt.datetime(2026, 3, 1, 20, 0, tzinfo=dt.UTC),
            kinds=["coercive", "technology"],
            what_happened=HER_WORDS,
            place="The kitchen",
            person_described="Named by her: Mr Other Person",
            witnesses="Neighbour Witness-Name",
            police="yes",
            police_reference="POLICE-REF-778",
        )
        other = make_incident(
            cast.case,
            cast.assigned,
            when=dt.datetime(2026, 2, 1, 9, 0, tzinfo=dt.UTC),
            what_happened=NOT_CHOSEN,
        )
        agreement = make_agreement(cast.case, cast.assigned)
        contact = log_event(
            agreement,
            cast.assigned,
            dt.datetime(2026, 3, 3, 18, 30, tzinfo=dt.UTC),
            topic="weekend",
            description=CONTACT_WORDS,
        )
        unchosen_contact = log_event(
            agreement,
            cast.assigned,
            dt.datetime(2026, 3, 4, 18, 30, tzinfo=dt.UTC),
            description="Unchosen contact words.",
        )
    return chosen, other, contact, unchosen_contact


def _url(case) -> str:
    return reverse("confidentiality:own_copy", args=[case.public_id])


def _paper(body: str) -> str:
    """The part of the page that is printed."""
    return body.split('id="print-area"', 1)[1].split("</main>", 1)[0]


def _post(client, case, **over):
    data = {"incidents": [], "contacts": [], "language": "es", "consent": "on"}
    data.update(over)
    return client.post(_url(case), data)


def test_the_form_lists_her_records_with_none_ticked_and_her_language_first(cast, login, records):
    chosen, other, contact, _unchosen = records
    with time_machine.travel(NOW, tick=False):
        response = login(cast.assigned).get(_url(cast.case))
    body = response.content.decode()
    assert response.status_code == 200
    for record in (chosen, other, contact):
        assert f'value="{record.public_id}"' in body
    assert "checked" not in body
    assert re.search(r'<option value="es" selected>', body)
    assert "Her languages: Spanish, Somali." in body


def test_her_copy_holds_her_chosen_words_and_nothing_else(cast, login, records):
    chosen, other, contact, unchosen = records
    other_party = party(cast.case, PartyRole.OTHER_PARTY)
    other_party.address = "12 Hidden Lane, Othertown"
    other_party.save()
    with time_machine.travel(NOW, tick=False):
        # The agency's own note about the chosen incident stays with the agency.
        make_note(cast.case, cast.assigned, incident=chosen, text="Agency note: risk rising.")
        response = _post(
            login(cast.assigned),
            cast.case,
            incidents=[chosen.public_id],
            contacts=[contact.public_id],
        )
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]  # never kept by a browser or proxy cache
    body = response.content.decode()
    paper = _paper(body)
    assert "<title>Notas para mí</title>" in body  # the title in her language
    assert HER_WORDS in paper and CONTACT_WORDS in paper and "The kitchen" in paper
    # Dates in her language; the incident (1 March) comes before the contact (3 March).
    assert "1 marzo 2026" in paper and "3 marzo 2026, 18:30" in paper
    assert paper.index(HER_WORDS) < paper.index(CONTACT_WORDS)
    # Not chosen, not hers, or the agency's own: none of it is on the paper.
    for absent in (
        NOT_CHOSEN,
        "Unchosen contact words.",
        "Hidden Lane",
        "risk rising",
        "Mr Other Person",
        "Witness-Name",
        "POLICE-REF-778",
        canary(cast.case),  # her name, phone, the case summary, the other party's name
        cast.case.reference,
        cast.case.public_id,
        cast.agency.name,
        cast.assigned.get_full_name(),
        cast.assigned.username,
        "http",
        "/cases/",
        "caseflow",
    ):
        assert absent not in paper, f"the paper shows {absent!r}"

    disclosure = Disclosure.objects.get()
    disclosure.case = cast.case
    assert disclosure.kind == DisclosureKind.OWN_COPY
    assert disclosure.release_id is None and disclosure.order_id is None
    assert disclosure.recipient == party(cast.case).full_name
    assert disclosure.categories == ["evidence", "narratives"]
    event = AuditEvent.objects.get(action="disclosure.own_copy")
    assert event.case_id == cast.case.pk
    assert event.detail["incidents"] == 1 and event.detail["contacts"] == 1
    assert event.detail["language"] == "es" and event.detail["consent"] == "survivor"
    for words in (HER_WORDS, CONTACT_WORDS, canary(cast.case)):
        assert words not in str(event.detail)


def test_the_copy_is_shown_on_the_case_as_given_to_her(cast, login, records):
    chosen, *_rest = records
    client = login(cast.assigned)
    with time_machine.travel(NOW, tick=False):
        _post(client, cast.case, incidents=[chosen.public_id])
        page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "Her own copy (given to the survivor)" in page
    assert reverse("confidentiality:own_copy", args=[cast.case.public_id]) in page


@pytest.mark.parametrize(
    ("over", "message"),
    [
        ({}, "Choose at least one incident or contact she wants on her copy."),
        ({"consent": ""}, "Confirm that she asked for this copy and agrees to take it."),
        ({"incidents": ["not-an-incident"]}, "Select a valid choice."),
        ({"language": "xx"}, "Select a valid choice."),
    ],
)
def test_bad_input_is_a_form_error_and_nothing_is_recorded(cast, login, records, over, message):
    chosen, *_rest = records
    if "consent" in over:
        over = {**over, "incidents": [chosen.public_id]}
    with time_machine.travel(NOW, tick=False):
        response = _post(login(cast.assigned), cast.case, **over)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Disclosure.objects.exists()
    assert not AuditEvent.objects.filter(action="disclosure.own_copy").exists()


def test_another_cases_record_cannot_be_put_on_her_copy(cast, records):
    with time_machine.travel(NOW, tick=False):
        foreign = make_incident(cast.team2_case, cast.other_team, what_happened="Not hers.")
        with pytest.raises(services.OwnCopyRefused):
            services.own_copy_give(
                actor=cast.assigned,
                case=cast.case,
                incident_ids=[foreign.public_id],
                contact_ids=[],
                language="en-gb",
                survivor_consents=True,
            )
    assert not Disclosure.objects.exists()


def test_only_those_who_may_write_the_case_give_a_copy(cast, login, records):
    chosen, *_rest = records
    with time_machine.travel(NOW, tick=False):
        for user, status in (
            (cast.other_team, 404),
            (cast.other_agency, 404),
            (cast.auditor, 404),
            (cast.agency_admin, 404),
        ):
            response = _post(login(user), cast.case, incidents=[chosen.public_id])
            assert response.status_code == status, user.username
        # The restricted case is out of reach of its team's other advocates.
        assert login(cast.same_team).get(_url(cast.restricted_case)).status_code == 404
        with pytest.raises(PermissionDenied):
            services.own_copy_give(
                actor=cast.other_team,
                case=cast.case,
                incident_ids=[chosen.public_id],
                contact_ids=[],
                language="en-gb",
                survivor_consents=True,
            )
    assert not Disclosure.objects.exists()


def test_a_break_glass_reader_may_not_give_a_copy(cast, login, records):
    from caseflow.cases.services import break_glass_open

    with time_machine.travel(NOW, tick=False):
        break_glass_open(actor=cast.same_team, reference=cast.case.reference, reason="duty line")
        assert login(cast.same_team).get(_url(cast.case)).status_code == 403


def test_her_copy_is_on_the_timeline_as_given_to_her_not_shared_outside(cast, records):
    from caseflow.cases.timeline import OTHER_AGENCY, SURVIVOR, Query
    from caseflow.confidentiality.timeline import disclosures

    chosen, *_rest = records
    with time_machine.travel(NOW, tick=False):
        services.own_copy_give(
            actor=cast.assigned,
            case=cast.case,
            incident_ids=[chosen.public_id],
            contact_ids=[],
            language="en-gb",
            survivor_consents=True,
        )
    (entry,) = disclosures(cast.case, Query(person=SURVIVOR))
    assert str(entry.title) == "Given to the survivor: a copy of her own record"
    assert ("Under", "Her own consent") in [(str(k), str(v)) for k, v in entry.facts]
    assert disclosures(cast.case, Query(person=OTHER_AGENCY)) == []
    assert len(disclosures(cast.case, Query())) == 1
