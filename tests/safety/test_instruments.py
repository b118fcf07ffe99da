"""Tests for the risk-instrument engine (pure Python: no database)."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseflow.safety.instruments import (
    SHIPPED_DIR,
    Instrument,
    InstrumentError,
    effective_band,
    load_instrument,
    score,
    validate_instrument,
)

SAMPLE_PATH = SHIPPED_DIR / "caseflow-sample.yaml"
DASH_STYLE_PATH = SHIPPED_DIR / "example-dash-style.yaml"
SAMPLE = load_instrument(SAMPLE_PATH)
DASH_STYLE = load_instrument(DASH_STYLE_PATH)


def _valid() -> dict[str, Any]:
    """A small valid weighted instrument, freshly built so tests can mutate it."""
    return {
        "id": "tiny",
        "name": "Tiny test instrument",
        "version": 1,
        "licence": "Test data.",
        "scoring": "weighted",
        "items": [
            {"id": "alpha", "text": "Alpha?", "weight": 2},
            {"id": "beta", "text": "Beta?", "weight": 3},
            {"id": "gamma", "text": "Gamma?", "weight": 5, "escalates": True, "help": "Help."},
            {"id": "delta", "text": "Delta?", "weight": 4},
        ],
        "bands": [
            {"id": "standard", "label": "Standard", "min_score": 0},
            {"id": "medium", "label": "Medium", "min_score": 5},
            {"id": "high", "label": "High", "min_score": 9},
        ],
        "escalation_band": "high",
        "reassess_days": 30,
    }


def _problems(data: Any) -> list[str]:
    with pytest.raises(InstrumentError) as excinfo:
        validate_instrument(data)
    return excinfo.value.problems


def _yes(instrument: Instrument, count: int) -> dict[str, bool]:
    """The first ``count`` items answered yes, the rest no."""
    return {item.id: index < count for index, item in enumerate(instrument.items)}


# --- shipped files -----------------------------------------------------------------------------


def test_sample_instrument_loads():
    assert SAMPLE.id == "caseflow-sample"
    assert SAMPLE.scoring == "weighted"
    assert SAMPLE.version == 1
    assert SAMPLE.reassess_days == 90
    assert len(SAMPLE.items) == 15
    assert all(item.weight is not None and item.weight > 0 for item in SAMPLE.items)
    assert [band.id for band in SAMPLE.bands] == ["standard", "medium", "high"]
    assert [band.min_score for band in SAMPLE.bands] == [0, 10, 20]
    assert SAMPLE.escalation_band == "high"
    assert {item.id for item in SAMPLE.items if item.escalates} == {
        "strangulation",
        "weapon_threat_to_kill",
    }
    assert "caseflow" in SAMPLE.licence


def test_dash_style_example_loads_with_placeholders_only():
    assert DASH_STYLE.id == "example-dash-style"
    assert DASH_STYLE.scoring == "yes_count"
    assert len(DASH_STYLE.items) == 24
    assert all(item.weight is None for item in DASH_STYLE.items)
    assert not any(item.escalates for item in DASH_STYLE.items)
    assert [(band.id, band.min_score) for band in DASH_STYLE.bands] == [
        ("standard", 0),
        ("medium", 10),
        ("high", 14),
    ]
    for number, item in enumerate(DASH_STYLE.items, start=1):
        assert item.text == f"Question {number} — replace with your licensed text"
    assert "licence" in DASH_STYLE.licence
    assert "paste" in DASH_STYLE.licence


def test_shipped_directory_is_not_a_package():
    # A regular package named "instruments" would shadow the instruments module on import.
    assert not (SHIPPED_DIR / "__init__.py").exists()
    assert sorted(path.name for path in SHIPPED_DIR.glob("*.yaml")) == [
        "caseflow-sample.yaml",
        "example-dash-style.yaml",
    ]


def test_load_from_path_string_yaml_text_and_json_text():
    from_str_path = load_instrument(str(SAMPLE_PATH))
    from_text = load_instrument(SAMPLE_PATH.read_text(encoding="utf-8"))
    from_json = load_instrument(json.dumps(SAMPLE.to_dict()))
    assert from_str_path == SAMPLE
    assert from_text == SAMPLE
    assert from_json == SAMPLE


def test_load_missing_file_is_not_parsed_as_text(tmp_path: Path):
    with pytest.raises(FileNotFoundError):
        load_instrument(str(tmp_path / "nope.yaml"))


def test_to_dict_round_trips():
    for instrument in (SAMPLE, DASH_STYLE, validate_instrument(_valid())):
        assert validate_instrument(instrument.to_dict()) == instrument


def test_instrument_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        SAMPLE.reassess_days = 1  # type: ignore[misc]
    assert isinstance(SAMPLE.items, tuple)
    assert isinstance(SAMPLE.bands, tuple)


def test_next_reassessment_date():
    assert SAMPLE.next_reassessment(date(2025, 1, 1)) == date(2025, 4, 1)


# --- scoring -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("yes_count", "band"),
    [(0, "standard"), (9, "standard"), (10, "medium"), (13, "medium"), (14, "high"), (24, "high")],
)
def test_dash_style_yes_count_bands(yes_count: int, band: str):
    result = score(DASH_STYLE, _yes(DASH_STYLE, yes_count))
    assert result.score == yes_count
    assert result.band.id == band
    assert result.escalated_by == ()


def test_dash_style_threshold_override_to_12():
    agency = DASH_STYLE.with_thresholds({"high": 12})
    assert score(DASH_STYLE, _yes(DASH_STYLE, 12)).band.id == "medium"
    assert score(agency, _yes(agency, 12)).band.id == "high"
    assert score(agency, _yes(agency, 11)).band.id == "medium"
    assert agency.band("high").min_score == 12
    assert agency.band("medium").min_score == 10
    assert DASH_STYLE.band("high").min_score == 14  # the original is untouched


def test_threshold_override_out_of_order_is_rejected():
    with pytest.raises(InstrumentError) as excinfo:
        DASH_STYLE.with_thresholds({"high": 9})
    assert excinfo.value.problems == ["bands: min_score must increase (high 9 <= medium 10)"]


def test_threshold_override_must_keep_first_band_at_zero():
    with pytest.raises(InstrumentError) as excinfo:
        DASH_STYLE.with_thresholds({"standard": 2})
    assert excinfo.value.problems == ["bands[0].min_score: the first band must start at 0 (got 2)"]


def test_threshold_override_for_unknown_band_is_rejected():
    instrument = validate_instrument(
        {**_valid(), "bands": _valid()["bands"][:2], "escalation_band": "medium"}
    )
    with pytest.raises(InstrumentError) as excinfo:
        instrument.with_thresholds({"high": 7})
    assert excinfo.value.problems == [
        'thresholds: unknown band "high" (expected one of standard, medium)'
    ]


def test_weighted_score_sums_weights_of_yes_answers():
    instrument = validate_instrument(_valid())
    result = score(instrument, {"alpha": True, "beta": False, "delta": True})
    assert result.score == 6
    assert result.band.id == "medium"
    assert result.score_band.id == "medium"
    assert result.answered == ("alpha", "beta", "delta")
    assert result.unanswered == ("gamma",)


def test_sample_scores_and_bands():
    nothing = score(SAMPLE, {})
    assert (nothing.score, nothing.band.id) == (0, "standard")
    assert nothing.unanswered == tuple(item.id for item in SAMPLE.items)
    assert nothing.answered == ()

    # 3 + 3 + 3 = 9: just under medium.
    under = score(SAMPLE, {"recent_separation": True, "stalking": True, "abuse_escalating": True})
    assert (under.score, under.band.id) == (9, "standard")
    # + isolation (2) = 11: medium.
    medium = score(
        SAMPLE,
        {"recent_separation": True, "stalking": True, "abuse_escalating": True, "isolation": True},
    )
    assert (medium.score, medium.band.id) == (11, "medium")
    # Everything except the two escalating items: 44 - 10 = 34, high on score alone.
    no_escalation = {item.id: not item.escalates for item in SAMPLE.items}
    high = score(SAMPLE, no_escalation)
    assert (high.score, high.band.id, high.escalated_by) == (34, "high", ())


def test_unanswered_items_count_as_no():
    instrument = validate_instrument(_valid())
    explicit_no = score(instrument, {"alpha": True, "beta": False, "gamma": False, "delta": False})
    with_gaps = score(instrument, {"alpha": True, "beta": None})
    assert with_gaps.score == explicit_no.score == 2
    assert with_gaps.band == explicit_no.band
    assert with_gaps.answered == ("alpha",)
    assert with_gaps.unanswered == ("beta", "gamma", "delta")
    assert explicit_no.unanswered == ()


def test_unknown_item_in_answers_is_rejected():
    with pytest.raises(InstrumentError) as excinfo:
        score(SAMPLE, {"strangulation": True, "weapons": True, "pets": False})
    assert excinfo.value.problems == [
        'answers: unknown item "weapons" in instrument "caseflow-sample"',
        'answers: unknown item "pets" in instrument "caseflow-sample"',
    ]


def test_non_boolean_answer_is_rejected():
    with pytest.raises(InstrumentError) as excinfo:
        score(SAMPLE, {"stalking": "yes"})
    assert excinfo.value.problems == ['answers["stalking"]: expected true, false or None, got str']


# --- escalation --------------------------------------------------------------------------------


def test_escalating_yes_forces_high_band_on_sample():
    result = score(SAMPLE, {"strangulation": True})
    assert result.score == 5
    assert result.score_band.id == "standard"
    assert result.band.id == "high"
    assert result.escalated_by == ("strangulation",)


def test_escalated_by_lists_every_escalating_yes_in_order():
    result = score(SAMPLE, {"strangulation": True, "weapon_threat_to_kill": True})
    assert result.escalated_by == ("weapon_threat_to_kill", "strangulation")
    assert result.band.id == "high"


def test_escalating_item_answered_no_does_not_escalate():
    result = score(SAMPLE, {"strangulation": False, "weapon_threat_to_kill": None})
    assert result.escalated_by == ()
    assert result.band.id == "standard"


def test_escalation_raises_to_at_least_the_escalation_band_never_lowers():
    instrument = validate_instrument({**_valid(), "escalation_band": "medium"})
    raised = score(instrument, {"gamma": True})  # 5 is medium anyway; gamma escalates
    assert raised.band.id == "medium"
    low = validate_instrument({**_valid(), "escalation_band": "medium"}).with_thresholds(
        {"medium": 6}
    )
    raised_from_standard = score(low, {"gamma": True})
    assert raised_from_standard.score_band.id == "standard"
    assert raised_from_standard.band.id == "medium"
    already_high = score(instrument, {"gamma": True, "delta": True})  # 9: high on score
    assert already_high.escalated_by == ("gamma",)
    assert already_high.band.id == "high"


# --- professional-judgement override -----------------------------------------------------------


def test_effective_band_without_override_is_scored_band():
    result = score(SAMPLE, {"strangulation": True})
    assert effective_band(result, None, "") == "high"


def test_override_with_reason_applies():
    result = score(DASH_STYLE, _yes(DASH_STYLE, 3))
    assert result.band.id == "standard"
    assert effective_band(result, "high", "Threats made at court last week.") == "high"


@pytest.mark.parametrize("reason", ["", "   \n\t", None])
def test_override_requires_reason(reason: str | None):
    result = score(DASH_STYLE, _yes(DASH_STYLE, 3))
    with pytest.raises(ValueError, match=r'override to "high" needs a reason'):
        effective_band(result, "high", reason)


def test_override_must_be_a_known_band():
    instrument = validate_instrument(
        {**_valid(), "bands": _valid()["bands"][:2], "escalation_band": "medium"}
    )
    result = score(instrument, {})
    with pytest.raises(
        ValueError, match=r'override band "high" is not a band of instrument "tiny"'
    ):
        effective_band(result, "high", "Judgement.")
    with pytest.raises(ValueError, match=r'override band "severe"'):
        effective_band(result, "severe", "Judgement.")


# --- validation --------------------------------------------------------------------------------


def test_minimal_valid_instrument_builds():
    instrument = validate_instrument(_valid())
    assert instrument.item("gamma").escalates is True
    assert instrument.item("gamma").help == "Help."
    assert instrument.item("alpha").escalates is False
    assert instrument.item("alpha").help == ""
    assert instrument.max_score == 14


def test_unknown_top_level_field():
    data = _valid()
    data["colour"] = "red"
    assert _problems(data) == ['unknown field "colour" in instrument']


def test_unknown_item_field_is_named_with_its_position():
    data = _valid()
    data["items"][2]["wieght"] = data["items"][2].pop("weight")
    assert _problems(data) == [
        'unknown field "wieght" in items[2]',
        'items[2]: missing "weight" (required when scoring is weighted)',
    ]


def test_unknown_band_field():
    data = _valid()
    data["bands"][1]["colour"] = "amber"
    assert _problems(data) == ['unknown field "colour" in bands[1]']


@pytest.mark.parametrize("name", ["id", "name", "version", "licence", "scoring", "reassess_days"])
def test_missing_required_top_level_field(name: str):
    data = _valid()
    del data[name]
    assert _problems(data) == [f'instrument: missing required field "{name}"']


def test_missing_items_bands_and_escalation_band():
    data = _valid()
    del data["items"], data["bands"], data["escalation_band"]
    assert _problems(data) == [
        'instrument: missing required field "items"',
        'instrument: missing required field "bands"',
        'instrument: missing required field "escalation_band"',
    ]


def test_missing_item_and_band_fields():
    data = _valid()
    del data["items"][1]["text"]
    del data["bands"][2]["label"]
    assert _problems(data) == [
        'items[1]: missing required field "text"',
        'bands[2]: missing required field "label"',
    ]


def test_duplicate_item_id():
    data = _valid()
    data["items"][1]["id"] = "weapons"
    data["items"][3]["id"] = "weapons"
    assert _problems(data) == ['items[3].id: duplicate id "weapons" (already used by items[1])']


def test_duplicate_band_id():
    data = _valid()
    data["bands"][2]["id"] = "medium"
    problems = _problems(data)
    assert 'bands[2].id: duplicate id "medium" (already used by bands[1])' in problems


def test_band_thresholds_must_strictly_increase():
    data = _valid()
    data["bands"][1]["min_score"] = 12
    assert _problems(data) == ["bands: min_score must increase (high 9 <= medium 12)"]
    data["bands"][1]["min_score"] = 9
    assert _problems(data) == ["bands: min_score must increase (high 9 <= medium 9)"]


def test_first_band_must_start_at_zero():
    data = _valid()
    data["bands"][0]["min_score"] = 1
    assert _problems(data) == ["bands[0].min_score: the first band must start at 0 (got 1)"]


def test_band_ids_must_be_app_risk_levels():
    data = _valid()
    data["bands"][2]["id"] = "severe"
    data["escalation_band"] = "medium"
    assert _problems(data) == [
        'bands[2].id: unknown band "severe" (expected one of standard, medium, high)'
    ]


def test_bands_must_be_in_severity_order():
    data = _valid()
    data["bands"][1]["id"], data["bands"][2]["id"] = "high", "medium"
    assert _problems(data) == [
        "bands: must be listed from least to most severe (standard, medium, high); "
        "got standard, high, medium"
    ]


def test_fewer_bands_are_allowed():
    data = _valid()
    data["bands"] = [
        {"id": "standard", "label": "Standard", "min_score": 0},
        {"id": "high", "label": "High", "min_score": 9},
    ]
    instrument = validate_instrument(data)
    assert score(instrument, {"delta": True, "alpha": True}).band.id == "standard"
    assert score(instrument, {"delta": True, "gamma": True}).band.id == "high"


@pytest.mark.parametrize(
    ("path", "value", "problem"),
    [
        ("version", "1", "version: expected an integer, got str"),
        ("version", True, "version: expected an integer, got bool"),
        ("version", 0, "version: must be a positive integer (got 0)"),
        ("name", 5, "name: expected a string, got int"),
        ("name", "  ", "name: must not be blank"),
        ("licence", None, "licence: expected a string, got null"),
        ("id", "Tiny Instrument", 'id: "Tiny Instrument" is not a valid id'),
        ("items", {"alpha": "Alpha?"}, "items: expected a list, got mapping"),
        ("bands", "standard", "bands: expected a list, got str"),
        ("items.0", "alpha", "items[0]: expected a mapping, got str"),
        ("items.0.weight", "3", "items[0].weight: expected a number, got str"),
        ("items.0.weight", True, "items[0].weight: expected a number, got bool"),
        ("items.0.weight", float("nan"), "items[0].weight: must be a finite number (got nan)"),
        ("items.0.weight", -1, "items[0].weight: must not be negative (got -1)"),
        ("items.1.escalates", "yes", "items[1].escalates: expected true or false, got str"),
        ("items.1.help", ["a"], "items[1].help: expected a string, got list"),
        ("items.1.id", "Beta Item", 'items[1].id: "Beta Item" is not a valid id'),
        ("items.1.text", "", "items[1].text: must not be blank"),
        ("bands.1.min_score", "5", "bands[1].min_score: expected a number, got str"),
        ("bands.1.label", 3, "bands[1].label: expected a string, got int"),
        ("escalation_band", 1, "escalation_band: expected a string, got int"),
        ("scoring", "sum", 'scoring: must be "weighted" or "yes_count" (got "sum")'),
    ],
)
def test_wrong_types_and_values(path: str, value: Any, problem: str):
    data = _valid()
    *parents, last = path.split(".")
    target: Any = data
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    target[int(last) if last.isdigit() else last] = value
    problems = _problems(data)
    assert len(problems) == 1, problems
    assert problems[0].startswith(problem)


def test_weights_not_allowed_on_yes_count():
    data = _valid()
    data["scoring"] = "yes_count"
    del data["items"][1]["weight"], data["items"][2]["weight"], data["items"][3]["weight"]
    assert _problems(data) == ["items[0].weight: not allowed when scoring is yes_count"]


def test_weights_required_on_weighted():
    data = _valid()
    del data["items"][1]["weight"]
    assert _problems(data) == ['items[1]: missing "weight" (required when scoring is weighted)']


def test_escalation_band_must_be_a_band():
    data = _valid()
    data["bands"] = data["bands"][:2]
    assert _problems(data) == ['escalation_band: "high" is not one of the bands (standard, medium)']


def test_empty_item_list():
    data = _valid()
    data["items"] = []
    assert _problems(data) == ["items: must not be empty"]


def test_empty_band_list():
    data = _valid()
    data["bands"] = []
    assert _problems(data) == ["bands: must not be empty"]


@pytest.mark.parametrize("days", [0, -5])
def test_reassess_days_must_be_positive(days: int):
    data = _valid()
    data["reassess_days"] = days
    assert _problems(data) == [f"reassess_days: must be a positive integer (got {days})"]


def test_not_a_mapping():
    assert _problems(["id", "tiny"]) == ["instrument: expected a mapping, got list"]


def test_all_problems_are_reported_together():
    data = _valid()
    data["wobble"] = 1
    data["reassess_days"] = 0
    data["items"][0]["wieght"] = 1
    data["items"][3]["id"] = "alpha"
    data["bands"][2]["min_score"] = 3
    data["escalation_band"] = "severe"
    with pytest.raises(InstrumentError) as excinfo:
        validate_instrument(data)
    expected = [
        'unknown field "wobble" in instrument',
        "reassess_days: must be a positive integer (got 0)",
        'unknown field "wieght" in items[0]',
        'items[3].id: duplicate id "alpha" (already used by items[0])',
        "bands: min_score must increase (high 3 <= medium 5)",
        'escalation_band: "severe" is not one of the bands (standard, medium, high)',
    ]
    assert excinfo.value.problems == expected
    message = str(excinfo.value)
    assert message.startswith("invalid instrument: 6 problems:")
    for problem in expected:
        assert problem in message


def test_yaml_syntax_error_is_an_instrument_error():
    with pytest.raises(InstrumentError) as excinfo:
        load_instrument("id: tiny\nitems: [unclosed\n")
    assert len(excinfo.value.problems) == 1
    assert re.match(r"yaml: .*\(line \d+, column \d+\)$", excinfo.value.problems[0])


def test_duplicate_yaml_key_is_rejected():
    text = SAMPLE_PATH.read_text(encoding="utf-8").replace(
        "    weight: 3\n", "    weight: 3\n    weight: 30\n", 1
    )
    with pytest.raises(InstrumentError) as excinfo:
        load_instrument(text)
    assert excinfo.value.problems[0].startswith('yaml: duplicate key "weight" (line ')


def test_validation_errors_from_a_file_are_reported(tmp_path: Path):
    data = copy.deepcopy(DASH_STYLE.to_dict())
    data["items"][4]["weight"] = 2
    path = tmp_path / "agency.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InstrumentError) as excinfo:
        load_instrument(path)
    assert excinfo.value.problems == ["items[4].weight: not allowed when scoring is yes_count"]


# --- monotonicity ------------------------------------------------------------------------------


def _answers(instrument: Instrument) -> st.SearchStrategy[dict[str, bool | None]]:
    return st.fixed_dictionaries(
        {item.id: st.sampled_from([True, False, None]) for item in instrument.items}
    )


@given(answers=_answers(SAMPLE), flip=st.sampled_from([item.id for item in SAMPLE.items]))
def test_adding_a_yes_never_lowers_score_or_band_on_sample(
    answers: dict[str, bool | None], flip: str
):
    before = score(SAMPLE, answers)
    after = score(SAMPLE, {**answers, flip: True})
    assert after.score >= before.score
    assert SAMPLE.band_rank(after.band.id) >= SAMPLE.band_rank(before.band.id)
    if answers[flip] is not True:
        assert after.score == before.score + SAMPLE.item(flip).weight
    else:
        assert after == before


@given(
    answers=_answers(DASH_STYLE),
    flip=st.sampled_from([item.id for item in DASH_STYLE.items]),
    high=st.integers(min_value=11, max_value=24),
)
def test_adding_a_yes_never_lowers_band_with_agency_thresholds(
    answers: dict[str, bool | None], flip: str, high: int
):
    instrument = DASH_STYLE.with_thresholds({"high": high})
    before = score(instrument, answers)
    after = score(instrument, {**answers, flip: True})
    assert after.score >= before.score
    assert instrument.band_rank(after.band.id) >= instrument.band_rank(before.band.id)
    assert after.score == sum(1 for value in {**answers, flip: True}.values() if value)


def test_escalation_band_is_checked_against_bands_that_have_problems_of_their_own():
    data = _valid()
    del data["bands"][2]["label"]  # "high" is still a band the file declares
    assert _problems(data) == ['bands[2]: missing required field "label"']
