"""The checker's findings are shown in the reader's words, with the checker's own sentence."""

from __future__ import annotations

from django.utils import translation

from caseflow.agreements.labels import RECORDED_BY_ADVOCATE, finding_label
from caseflow.agreements.templatetags.agreement_words import finding


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
