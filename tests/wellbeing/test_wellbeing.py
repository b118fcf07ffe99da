"""Her own rating: the questions and their scales, the presets, recording (service, audit,
policy, the form's bad input), the timeline, packs, the journey's trend and closure's proposal."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases import trend
from caseflow.cases.models import FeelsSafer
from caseflow.cases.timeline import Query, page
from caseflow.casework.models import CaseNote
from caseflow.checkins.models import CheckInOutcome
from caseflow.wellbeing import closure, packs, services
from caseflow.wellbeing.forms import RatingForm
from caseflow.wellbeing.models import QuestionSet, Rating
from caseflow.wellbeing.questions import PRESETS, QUESTIONS, SAFE, Preset, questions_of
from caseflow.wellbeing.selectors import question_set
from tests.checkins.helpers import make_checkin

pytestmark = pytest.mark.django_db

# Monday 7 December 2026, 08:00 UTC.
MONDAY = dt.datetime(2026, 12, 7, 8, 0, tzinfo=dt.UTC)
WEEK = dt.timedelta(days=7)


def _rate(cast, answers, *, at=None, words="", **kw) -> Rating:
    return services.rating_record(
        actor=cast.assigned, case=cast.case, answers=answers, words=words, taken_at=at, **kw
    )


# --- Questions and presets ---------------------------------------------------------------------


def test_every_preset_asks_how_safe_she_feels_first_and_names_known_questions():
    assert set(PRESETS) == set(Preset.values)
    for preset, codes in PRESETS.items():
        assert codes[0] == SAFE, preset
        assert set(codes) <= set(QUESTIONS), preset
    assert [q.code for q in questions_of(Preset.DEFAULT)] == ["safe", "coping"]
    assert [q.code for q in questions_of(Preset.SAFELIVES)] == [
        "safe",
        "quality_of_life",
        "confidence",
    ]
    assert [q.code for q in questions_of(Preset.VOCA)] == [
        "safe",
        "safety_strategies",
        "know_resources",
    ]


def test_a_question_turned_off_is_not_asked_but_how_safe_she_feels_always_is():
    assert [q.code for q in questions_of(Preset.VOCA, ["know_resources", "safe"])] == [
        "safe",
        "safety_strategies",
    ]


@pytest.mark.parametrize(
    ("code", "value", "ok"),
    [
        ("safe", 0, True),
        ("safe", 10, True),
        ("safe", -1, False),
        ("safe", 11, False),
        ("safety_strategies", 1, True),
        ("safety_strategies", 5, True),
        ("safety_strategies", 0, False),
        ("safety_strategies", 6, False),
        ("safe", "7", False),
        ("safe", 7.5, False),
        ("safe", True, False),
        ("mood", 3, False),
    ],
)
@time_machine.travel(MONDAY, tick=False)
def test_a_rating_outside_its_scale_or_not_a_number_is_refused(cast, code, value, ok):
    if ok:
        assert _rate(cast, {code: value}).answers == {code: value}
    else:
        with pytest.raises(ValidationError):
            _rate(cast, {code: value})
        assert not Rating.objects.exists()


def test_an_agency_without_a_choice_asks_the_two_default_questions(cast):
    asked = question_set(cast.agency.pk)
    assert asked.pk is None
    assert [q.code for q in asked.questions] == ["safe", "coping"]
    assert asked.ask_words


# --- Recording -----------------------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_a_rating_is_recorded_encrypted_and_audited_without_her_numbers_or_words(cast):
    checkin = make_checkin(cast.case, cast.assigned, MONDAY - dt.timedelta(hours=1))
    rating = _rate(cast, {"safe": 3, "coping": 4}, words="Scared at night", checkin=checkin)
    assert rating.agency_id == cast.case.agency_id
    with connection.cursor() as cursor:
        cursor.execute("SELECT answers, words FROM wellbeing_rating")
        answers, words = cursor.fetchone()
    assert "coping" not in answers and "Scared" not in words
    stored = Rating.objects.get(pk=rating.pk)
    # Dated by the check-in it was taken at.
    assert stored.taken_at == MONDAY - dt.timedelta(hours=1)
    assert stored.answers == {"safe": 3, "coping": 4}
    assert stored.words == "Scared at night"
    assert stored.checkin_id == checkin.pk
    event = AuditEvent.objects.get(action="wellbeing.record")
    assert event.case_id == cast.case.pk
    assert event.detail == {"questions": ["coping", "safe"], "words": True, "at": "checkin"}
    assert "Scared" not in str(event.detail)


@time_machine.travel(MONDAY, tick=False)
def test_only_someone_who_may_change_the_case_records_a_rating(cast):
    for actor in (cast.other_team, cast.auditor, cast.agency_admin, cast.other_agency):
        with pytest.raises(PermissionDenied):
            services.rating_record(actor=actor, case=cast.case, answers={"safe": 5})
    assert not Rating.objects.exists()


@time_machine.travel(MONDAY, tick=False)
def test_a_check_in_of_another_case_cannot_be_attached(cast):
    other = make_checkin(cast.team2_case, cast.other_team, MONDAY - dt.timedelta(hours=1))
    with pytest.raises(PermissionDenied):
        _rate(cast, {"safe": 5}, checkin=other)
    assert not Rating.objects.exists()


@time_machine.travel(MONDAY, tick=False)
def test_a_rating_with_no_answer_or_dated_ahead_is_refused(cast):
    with pytest.raises(ValidationError):
        _rate(cast, {})
    with pytest.raises(ValidationError):
        _rate(cast, {"safe": 5}, at=MONDAY + dt.timedelta(days=1))
    assert not Rating.objects.exists()


# --- The pages ------------------------------------------------------------------------------------


def _url(case, query=""):
    return reverse("wellbeing:new", args=[case.public_id]) + query


@time_machine.travel(MONDAY, tick=False)
def test_the_advocate_records_her_rating_at_a_check_in_from_the_form(cast, login):
    checkin = make_checkin(
        cast.case,
        cast.assigned,
        MONDAY - dt.timedelta(hours=1),
        outcome=CheckInOutcome.REACHED,
        status="done",
        outcome_at=MONDAY - dt.timedelta(minutes=50),
    )
    client = login(cast.assigned)
    case_page = client.get(reverse("cases:detail", args=[cast.case.public_id]))
    assert _url(cast.case, f"?checkin={checkin.pk}") in case_page.content.decode()
    shown = client.get(_url(cast.case, f"?checkin={checkin.pk}"))
    assert shown.status_code == 200
    assert "How safe does she feel right now?" in shown.content.decode()
    response = client.post(
        _url(cast.case),
        {"q_safe": "4", "q_coping": "6", "words": "Better than last week", "checkin": checkin.pk},
    )
    assert response.status_code == 302
    rating = Rating.objects.get()
    assert (rating.answers, rating.checkin_id) == ({"safe": 4, "coping": 6}, checkin.pk)
    # Rated: the case page no longer offers it.
    case_page = client.get(reverse("cases:detail", args=[cast.case.public_id]))
    assert f"?checkin={checkin.pk}" not in case_page.content.decode()


@time_machine.travel(MONDAY, tick=False)
def test_a_rating_is_taken_with_a_note(cast, login):
    note = CaseNote.objects.create(
        case=cast.case,
        kind="phone",
        direction="outgoing",
        occurred_at=MONDAY - dt.timedelta(hours=2),
        text="Called her.",
        author=cast.assigned,
        with_survivor=True,
    )
    client = login(cast.assigned)
    detail = client.get(reverse("casework:note", args=[cast.case.public_id, note.public_id]))
    assert _url(cast.case, f"?note={note.public_id}") in detail.content.decode()
    response = client.post(_url(cast.case), {"q_safe": "7", "note": note.public_id})
    assert response.status_code == 302
    assert Rating.objects.get().note_id == note.pk


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"q_safe": "11"}, "Her answer is a number from 0 to 10."),
        ({"q_safe": "-1"}, "Her answer is a number from 0 to 10."),
        ({"q_safe": "seven"}, "Her answer is a number from 0 to 10."),
        ({"q_safe": "6.5"}, "Her answer is a number from 0 to 10."),
        ({"q_safe": "", "q_coping": ""}, "Record at least one of her answers."),
        ({"q_safe": "5", "checkin": "999999"}, "That check-in or note is not on this case."),
        ({"q_safe": "5", "note": "not-a-note"}, "That check-in or note is not on this case."),
    ],
)
@time_machine.travel(MONDAY, tick=False)
def test_bad_input_is_a_message_on_the_form_and_nothing_is_saved(cast, login, data, message):
    response = login(cast.assigned).post(_url(cast.case), {"words": "Kept as typed", **data})
    assert response.status_code == 200
    body = response.content.decode()
    assert message in body
    assert "Kept as typed" in body  # what she said is not lost
    assert not Rating.objects.exists()


@time_machine.travel(MONDAY, tick=False)
def test_a_check_in_of_another_case_is_refused_on_the_form(cast, login):
    other = make_checkin(cast.team2_case, cast.other_team, MONDAY - dt.timedelta(hours=1))
    response = login(cast.assigned).post(_url(cast.case), {"q_safe": "5", "checkin": other.pk})
    assert "That check-in or note is not on this case." in response.content.decode()
    assert not Rating.objects.exists()


@time_machine.travel(MONDAY, tick=False)
def test_the_form_of_another_agencys_case_is_not_found(cast, login):
    client = login(cast.assigned)
    assert client.get(_url(cast.foreign_case)).status_code == 404
    assert client.post(_url(cast.foreign_case), {"q_safe": "5"}).status_code == 404
    assert client.post(_url(cast.team2_case), {"q_safe": "5"}).status_code == 404
    # The auditor reads case metadata only: the case's pages are outside their scope.
    assert login(cast.auditor).get(_url(cast.case)).status_code == 404
    assert login(None).get(_url(cast.case)).status_code == 302
    assert login(cast.assigned).delete(_url(cast.case)).status_code == 405
    assert not Rating.objects.exists()


# --- The agency's questions -----------------------------------------------------------------------


def test_the_agency_admin_chooses_a_preset_and_turns_a_question_off(cast, login):
    client = login(cast.agency_admin)
    assert (
        client.get(reverse("agency:settings")).content.decode().count(reverse("wellbeing:settings"))
    )
    response = client.post(
        reverse("wellbeing:settings"), {"preset": "voca", "off": ["know_resources"]}
    )
    assert response.status_code == 302
    row = QuestionSet.objects.get(agency=cast.agency)
    assert (row.preset, row.off, row.ask_words) == ("voca", ["know_resources"], False)
    assert [q.code for q in row.questions] == ["safe", "safety_strategies"]
    assert AuditEvent.objects.filter(action="wellbeing.settings").count() == 1
    # The advocate's form asks those, without her words.
    form = login(cast.assigned).get(_url(cast.case)).content.decode()
    assert "She knows more ways to plan for her safety" in form
    assert "know more about where to get help" not in form
    assert 'name="words"' not in form


def test_a_question_of_another_set_cannot_be_turned_off(cast, login):
    response = login(cast.agency_admin).post(
        reverse("wellbeing:settings"), {"preset": "default", "off": ["know_resources"]}
    )
    assert response.status_code == 200
    assert "Choose questions of the set you chose." in response.content.decode()
    with pytest.raises(ValidationError):
        services.question_set_save(
            actor=cast.agency_admin, preset="default", off=["safe"], ask_words=True
        )
    with pytest.raises(PermissionDenied):
        services.question_set_save(actor=cast.assigned, preset="voca", off=[], ask_words=True)
    assert not QuestionSet.objects.exists()


def test_the_form_asks_only_the_questions_it_is_given():
    form = RatingForm(data={"q_safe": "3", "q_coping": "99"}, questions=questions_of("default"))
    assert not form.is_valid()
    assert list(form.errors) == ["q_coping"]
    form = RatingForm(data={"q_safe": "3"}, questions=questions_of("default"))
    assert form.is_valid() and form.answers() == {"safe": 3}


# --- Where her ratings are read -------------------------------------------------------------------


@time_machine.travel(MONDAY, tick=False)
def test_her_ratings_are_on_the_timeline_with_her_words(cast):
    _rate(cast, {"safe": 2}, at=MONDAY - 3 * WEEK, words="Not sleeping")
    _rate(cast, {"safe": 6, "coping": 5}, at=MONDAY - WEEK)
    entries = [e for e in page(cast.case, Query(limit=20)).entries if e.kind == "wellbeing_rating"]
    assert len(entries) == 2
    newest, oldest = entries
    assert newest.facts == (("How safe she feels", "6 of 10"), ("How she is coping", "5 of 10"))
    assert oldest.body == "Not sleeping"


@time_machine.travel(MONDAY, tick=False)
def test_packs_hold_her_numbers_under_risk_and_her_words_under_narratives(cast):
    _rate(cast, {"safe": 2}, at=MONDAY - 3 * WEEK, words="Not sleeping")
    _rate(cast, {"safe": 6}, at=MONDAY - WEEK)
    numbers = packs.number_rows(cast.case)
    assert ("Her own rating 1: How safe she feels", "2 (0–10)") in numbers
    assert ("Her own rating 2: How safe she feels", "6 (0–10)") in numbers
    assert not any("Not sleeping" in value for _label, value in numbers)
    assert packs.words_rows(cast.case) == [("Her own rating 1: in her words", "Not sleeping")]


@time_machine.travel(MONDAY, tick=False)
def test_the_journey_draws_her_trend_beside_the_staffs_figures(cast, login):
    # Opened before the ratings (the cast is made at the real, or the moved, clock).
    cast.case.opened_at = MONDAY - 10 * WEEK
    cast.case.save(update_fields=["opened_at"])
    for weeks, safe in ((6, 2), (4, 3), (2, 5), (0, 7)):
        _rate(cast, {"safe": safe, "coping": 4}, at=MONDAY - weeks * WEEK)
    picture = trend.build(cast.case, [])
    (line,) = picture.svg["lines"]
    assert line["label"] == "Her own rating"
    safe = next(s for s in line["series"] if s["label"] == "How safe she feels")
    assert len(safe["points"]) == 4
    ys = [p["y"] for p in safe["points"]]
    assert ys == sorted(ys, reverse=True)  # rising: higher on the picture
    assert (
        "Her own rating, how safe she feels: 2 at first, 7 most recently (0 to 10)."
        in picture.summary
    )
    body = login(cast.assigned).get(reverse("cases:journey", args=[cast.case.public_id]))
    assert "2 at first, 7 most recently" in body.content.decode()


@time_machine.travel(MONDAY, tick=False)
def test_without_ratings_the_journey_says_none_recorded(cast):
    picture = trend.build(cast.case, [])
    assert picture.svg["lines"][0]["series"] == []
    assert "Her own rating: none recorded." in picture.summary


# --- Closure ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], None),
        ([5], None),
        ([3, 5], FeelsSafer.YES),
        ([3, 4], FeelsSafer.A_LITTLE),
        ([3, 9, 4], FeelsSafer.A_LITTLE),
        ([6, 6], FeelsSafer.NO),
        ([7, 2], FeelsSafer.NO),
        ([0, 10], FeelsSafer.YES),
    ],
)
def test_feels_safer_is_read_from_her_first_and_latest_answer(values, expected):
    assert closure.feels_safer(values, low=0, high=10) == expected


def test_on_a_one_to_five_scale_one_step_is_clearly_safer():
    assert closure.feels_safer([2, 3], low=1, high=5) == FeelsSafer.YES


@time_machine.travel(MONDAY, tick=False)
def test_the_closure_form_proposes_feels_safer_from_her_ratings(cast, login):
    client = login(cast.assigned)
    url = reverse("cases:closure", args=[cast.case.public_id])
    assert "Proposed from her own rating" not in client.get(url).content.decode()
    _rate(cast, {"safe": 3}, at=MONDAY - 5 * WEEK)
    _rate(cast, {"safe": 8}, at=MONDAY - WEEK)
    body = client.get(url).content.decode()
    assert "Proposed from her own rating of how safe she feels: 3 of 10" in body
    assert '<option value="yes" selected>' in body


@time_machine.travel(MONDAY, tick=False)
def test_a_pack_holds_her_numbers_only_when_its_release_names_risk(cast):
    from caseflow.confidentiality.pack import build_sections

    _rate(cast, {"safe": 4}, at=MONDAY - WEEK, words="Tired of hiding")
    only_contact = dict(build_sections(cast.case, ["contact"]))
    assert not any("Her own rating" in label for rows in only_contact.values() for label, _ in rows)
    with_risk = build_sections(cast.case, ["risk"])
    assert any(
        label == "Her own rating 1: How safe she feels"
        for _s, rows in with_risk
        for label, _ in rows
    )
    assert not any("Tired of hiding" in value for _s, rows in with_risk for _l, value in rows)
    with_words = build_sections(cast.case, ["narratives"])
    assert any("Tired of hiding" in value for _s, rows in with_words for _l, value in rows)


@time_machine.travel(MONDAY, tick=False)
def test_a_partial_purge_clears_her_words_and_keeps_her_numbers(cast):
    from caseflow.confidentiality.services.purges import _clear_narratives

    rating = _rate(cast, {"safe": 4, "coping": 5}, at=MONDAY - WEEK, words="Tired of hiding")
    result = _clear_narratives(cast.case)
    assert result["cleared"]["wellbeing.Rating"] == ["words"]
    kept = Rating.objects.get(pk=rating.pk)
    assert (kept.words, kept.answers) == ("", {"safe": 4, "coping": 5})


@time_machine.travel(MONDAY, tick=False)
def test_recording_a_reached_check_in_on_the_home_list_offers_her_rating(cast, login):
    reached = make_checkin(cast.case, cast.assigned, MONDAY - dt.timedelta(hours=1))
    no_answer = make_checkin(cast.case, cast.assigned, MONDAY - dt.timedelta(hours=2))
    client = login(cast.assigned)
    offers = {}
    for checkin, outcome in ((reached, "reached"), (no_answer, "no_answer")):
        response = client.post(
            reverse("checkins:outcome", args=[cast.case.public_id, checkin.pk]),
            {"outcome": outcome, "version": checkin.version, "next": "home"},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200
        offers[outcome] = _url(cast.case, f"?checkin={checkin.pk}") in response.content.decode()
    assert offers == {"reached": True, "no_answer": False}
