"""The checker's findings are shown in the reader's words, with the checker's own sentence."""

from __future__ import annotations

import datetime as dt
import html
import json

import time_machine
from django.urls import reverse
from django.utils import translation

from caseflow.accounts.language import set_agency_language
from caseflow.agreements import packs, terms
from caseflow.agreements.labels import RECORDED_BY_ADVOCATE, finding_label, finding_sentence
from caseflow.agreements.templatetags.agreement_words import finding
from tests.agreements.helpers import log_event, london, make_agreement, record_breach


def test_a_finding_is_named_by_its_code_else_by_its_term():
    assert finding_label({"term": "handover", "code": "handover_missed", "message": "x"}) == (
        "The handover was missed"
    )
    assert finding_label({"term": "time_windows", "message": "x"}) == (
        "Outside the agreed contact times"
    )
    assert finding_label({"term": "gone", "message": "x"}) == "Another term of the agreement"


def test_a_finding_is_read_in_the_readers_language():
    stored = {"term": "time_windows", "code": "outside_window", "message": "Sent at 21:00."}
    with translation.override("es"):
        shown = finding(stored)
    assert shown["label"] != "Outside the agreed contact times" and shown["label"]
    assert shown["message"] == "Sent at 21:00."
    assert finding({"term": "handover", "message": RECORDED_BY_ADVOCATE})["message"] == ""


# --------------------------------------------------------------------------------------------------
# The checker's sentence, written again in the reader's language from the values kept with it.

NOW = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.UTC)
#: What the checker finds of a call by phone at 22:00 on Tuesday 25 February 2025 (London), under
#: the agreement tests/agreements/helpers.py makes, written for a Spanish-reading advocate.
SPANISH_CHANNEL = (
    "Contacto de la otra parte progenitora por un canal que el acuerdo prohíbe: Llamada."
)
SPANISH_WINDOW = "Llamada a las 22:00 del martes 25"
ENGLISH_CHANNEL = "Called by phone, which the agreement forbids from the other parent."


def _page(client, name, agreement, *more) -> str:
    url = reverse(f"agreements:{name}", args=[agreement.case.public_id, agreement.public_id, *more])
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_a_finding_reads_in_spanish_on_the_pages_and_in_the_chronology(cast, login):
    set_agency_language(cast.agency.pk, "es")
    agreement = make_agreement(cast.case, cast.assigned)
    with time_machine.travel(NOW, tick=False):
        breach = record_breach(agreement, cast.assigned, london(2025, 2, 25, 22, 0))
        pending = log_event(agreement, cast.assigned, london(2025, 2, 25, 22, 0), channel="phone")
    assert [v["message"] for v in breach.violations][0] == ENGLISH_CHANNEL  # the record
    assert breach.violations[0]["params"]["channel"] == "phone"
    client = login(cast.assigned)

    detail = _page(client, "detail", agreement)
    assert detail.count(SPANISH_CHANNEL) == 1  # the breach (the pending contact shows none)
    assert SPANISH_WINDOW in detail
    assert ENGLISH_CHANNEL not in detail and "outside the agreed contact times" not in detail
    review = _page(client, "review", agreement, pending.public_id)
    assert SPANISH_CHANNEL in review and ENGLISH_CHANNEL not in review

    chronology = _page(client, "chronology", agreement)
    assert SPANISH_CHANNEL in chronology and SPANISH_WINDOW in chronology
    assert ENGLISH_CHANNEL not in chronology
    csv = client.get(
        reverse("agreements:chronology_csv", args=[cast.case.public_id, agreement.public_id])
    ).content.decode()
    assert SPANISH_CHANNEL in csv and ENGLISH_CHANNEL not in csv
    with translation.override("es"):
        assert packs.breaches(cast.case)[0]["findings"][0] == SPANISH_CHANNEL


def test_a_finding_stored_without_its_values_keeps_its_english_sentence(cast, login):
    set_agency_language(cast.agency.pk, "es")
    agreement = make_agreement(cast.case, cast.assigned)
    with time_machine.travel(NOW, tick=False):
        breach = record_breach(agreement, cast.assigned, london(2025, 2, 25, 22, 0))
        pending = log_event(agreement, cast.assigned, london(2025, 2, 25, 22, 0), channel="phone")
    # As rows were kept before the values were: the register had the term and the sentence, the
    # contact log the term, the code and the sentence.
    breach.violations = [{"term": v["term"], "message": v["message"]} for v in breach.violations]
    breach.save()
    pending.proposed = [{k: v[k] for k in ("term", "code", "message")} for v in pending.proposed]
    pending.save()
    client = login(cast.assigned)

    detail = _page(client, "detail", agreement)
    assert ENGLISH_CHANNEL in detail and SPANISH_CHANNEL not in detail
    review = _page(client, "review", agreement, pending.public_id)
    assert "Sent by phone, which the agreement forbids" in review and "prohíbe" not in review
    chronology = _page(client, "chronology", agreement)
    assert ENGLISH_CHANNEL in chronology and SPANISH_CHANNEL not in chronology


def test_a_finding_sentence_follows_the_reader_and_falls_back_when_unreadable():
    stored = {
        "term": "handover",
        "code": "handover_late",
        "message": "Handover at 17:40 on Friday 7 March 2025 (Europe/London time), ...",
        "params": {
            "place": "",
            "time": "17:40",
            "date": "2025-03-07",
            "timezone": "Europe/London",
            "agreed_time": "17:00",
            "minutes": 40,
            "early": False,
            "tolerance": 1,
        },
    }
    with translation.override("es"):
        assert finding_sentence(stored) == (
            "Entrega de los niños a las 17:40 del viernes 7 mar 2025 (hora de Europe/London), "
            "40 minutos después de la hora acordada de las 17:00 (margen: 1 minuto antes o "
            "después)."
        )
    with translation.override("en-gb"):
        assert finding_sentence(stored) == (
            "Handover at 17:40 on Friday 7 Mar 2025 (Europe/London time), 40 minutes after the "
            "agreed time of 17:00 (allowed: 1 minute either way)."
        )
    for broken in ({}, {"place": ""}, {**stored["params"], "date": "soon"}):
        assert finding_sentence({**stored, "params": broken}) == stored["message"]
    assert finding_sentence({**stored, "code": "gone"}) == stored["message"]
    assert finding_sentence({"term": "handover", "message": "Old."}) == "Old."


def _every_kind_of_finding() -> list[terms.Violation]:
    start = dt.datetime(2025, 1, 6, tzinfo=dt.UTC)
    every_day = range(7)
    contact = terms.Agreement(
        effective_from=start,
        effective_to=dt.datetime(2025, 12, 1, tzinfo=dt.UTC),
        timezone="Europe/London",
        permitted_channels={"to_survivor": ["app", "email"]},
        forbidden_channels={"to_survivor": ["in_person"]},
        permitted_topics=["school"],
        time_windows=(terms.Window(days=[0, 1], start="18:00", end="19:00"),),
        frequency_cap=terms.Cap(limit=1, per="week"),
        handover=terms.Handover(
            place="the library", weekdays=[4], time="17:00", no_direct_contact=True
        ),
        child_contact_windows=(terms.Window(days=every_day, start="18:00", end="18:30"),),
    )

    def event(at: dt.datetime, **fields) -> terms.ContactEvent:
        data = {"channel": "app", "direction": "to_survivor", "topic": "school", "kind": "message"}
        data.update(fields)
        return terms.ContactEvent(occurred_at=at, **data)

    first = event(london(2025, 3, 3, 18, 10))
    found = [
        *terms.check(event(london(2025, 1, 1, 9, 0)), contact),
        *terms.check(event(london(2025, 12, 2, 9, 0)), contact),
        *terms.check(event(london(2025, 3, 3, 21, 0), channel="phone", topic=""), contact),
        *terms.check(event(london(2025, 3, 3, 18, 20), channel="in_person"), contact),
        *terms.check(event(london(2025, 3, 4, 18, 20)), contact, [first]),
        *terms.check(event(london(2025, 3, 7, 17, 40), kind="handover"), contact),
        *terms.check(event(london(2025, 3, 6, 17, 0), kind="handover"), contact),
        *terms.check(
            event(london(2025, 3, 7, 17, 0), kind="handover", handover_missed=True), contact
        ),
        *terms.check(
            event(london(2025, 3, 7, 17, 0), kind="handover", direct_contact_at_handover=True),
            contact,
        ),
        *terms.check(event(london(2025, 3, 7, 20, 0), kind="child_contact"), contact),
    ]
    assert {v.code for v in found} == set(terms.Code)
    return found


def test_every_kind_of_finding_is_written_in_spanish_from_its_values():
    found = _every_kind_of_finding()
    for violation in found:
        stored = json.loads(json.dumps(violation.to_dict()))
        with translation.override("es"):
            spanish = finding_sentence(stored)
        with translation.override("en-gb"):
            english = finding_sentence(stored)
        assert spanish != violation.message, violation.code  # not the stored sentence
        assert spanish != english, violation.code  # translated, not fallen back
        assert "%(" not in spanish and "%(" not in english


def test_the_survivors_own_contact_is_described_as_what_it_is():
    """Her own contact outside what was agreed is never told in rule-breaking words, in any
    language: not "forbids", "permit", "allows", "breach"; it says it is common and offers
    support."""
    own = [
        {
            "term": "forbidden_channels",
            "code": "forbidden_channel",
            "message": "x",
            "params": {"kind": "call", "channel": "phone", "direction": "from_survivor"},
        },
        {
            "term": "permitted_channels",
            "code": "channel_not_permitted",
            "message": "x",
            "params": {
                "kind": "message",
                "channel": "phone",
                "direction": "from_survivor",
                "permitted": ["app", "email"],
            },
        },
        {
            "term": "frequency_cap",
            "code": "over_cap",
            "message": "x",
            "params": {
                "count": 4,
                "direction": "from_survivor",
                "per": "day",
                "start_date": "2025-02-25",
                "limit": 2,
                "timezone": "Europe/London",
            },
        },
    ]
    rule_words = ("forbid", "permit", "allows", "breach", "must", "prohíbe", "permite", "incumpl")
    seen = 0
    for language, support in (("en-gb", "That is common"), ("es", "Es algo frecuente")):
        with translation.override(language):
            for stored in own:
                label, sentence = finding_label(stored), finding_sentence(stored)
                seen += 1
                assert support in sentence, (language, sentence)
                for word in rule_words:
                    assert word not in sentence.lower(), (language, word, sentence)
                    assert word not in label.lower(), (language, word, label)
    assert seen == 6
    with translation.override("en-gb"):
        assert finding_label(own[0]) == "Outside what was agreed"
        assert finding_sentence(own[0]) == (
            "The survivor got in touch outside what was agreed. Channel: Phone call. That is "
            "common; it may be worth talking about support for moments like this."
        )
    # The other parent's contact keeps the agreement's own words.
    other = {**own[0], "params": {**own[0]["params"], "direction": "to_survivor"}}
    with translation.override("en-gb"):
        assert "forbids" in finding_sentence(other)
