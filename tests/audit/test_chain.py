"""The canonical serialisation is RFC 8785's, whichever encoder writes it."""

from __future__ import annotations

import datetime as dt

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from caseflow.audit.chain import FIELDS, _iso, canonical

text = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)
scalars = st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | text
plain_json = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(st.characters(max_codepoint=127), max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
any_json = st.recursive(
    scalars | st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(2**60), 2**60),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)


def _row(detail, **overrides):
    row = {name: "" for name in FIELDS}
    row.update(seq=1, at="2026-01-01T00:00:00.000000Z", actor_id=None, agency_id=1, case_id=None)
    row.update(detail=detail, **overrides)
    return row


def _reference(row) -> bytes:
    return rfc8785.dumps({name: row[name] for name in FIELDS})


@settings(max_examples=300, deadline=None)
@given(plain_json, text, text)
def test_plain_documents_match_the_rfc8785_library(detail, action, ip):
    row = _row(detail, action=action, ip=ip)
    assert canonical(row) == _reference(row)


@settings(max_examples=300, deadline=None)
@given(any_json)
def test_every_document_matches_the_rfc8785_library_or_is_refused_by_both(detail):
    row = _row(detail)
    try:
        expected = _reference(row)
    except Exception as exc:  # values RFC 8785 cannot represent are refused by both
        with pytest.raises(type(exc)):
            canonical(row)
        return
    assert canonical(row) == expected


def test_times_are_utc_with_microseconds():
    moment = dt.datetime(2026, 3, 29, 2, 30, 0, 5, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert _iso(moment) == "2026-03-29T00:30:00.000005Z"
    assert _iso(moment) == moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
