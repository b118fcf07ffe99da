"""The verifier's direct writer (``chain.canonical_values``, fed by the raw-cursor reader of
``verify.py``) produces exactly the bytes of the reference ``chain.canonical`` for every column
type, or hands the row to the reference."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caseflow.audit import verify
from caseflow.audit.chain import (
    FIELDS,
    GENESIS,
    SORTED_FIELDS,
    canonical,
    canonical_json,
    canonical_values,
    event_hash,
)
from caseflow.audit.models import AuditEvent
from caseflow.audit.sequencer import sequence_pending
from caseflow.audit.verify import verify_chain

text = st.text(st.characters(exclude_categories=["Cs"]), max_size=20)
any_text = st.text(max_size=12)  # lone surrogates included
ids = st.none() | st.integers(-(2**53) + 1, 2**53 - 1)
any_ids = ids | st.integers(-(2**63), 2**63 - 1)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=10,
)
zones = (
    st.sampled_from(
        [
            dt.UTC,
            dt.timezone(dt.timedelta(hours=2)),
            dt.timezone(dt.timedelta(hours=-9, minutes=-30)),
        ]
    )
    | st.timezones()
)
aware = st.datetimes(
    min_value=dt.datetime(1, 1, 2), max_value=dt.datetime(9999, 12, 30), timezones=zones
)


def _fast(row: dict, naive_tz=None) -> bytes | None:
    """What the verifier hashes for ``row`` without falling back; None where it would fall back
    to the reference."""
    try:
        detail = canonical_json(row["detail"])
    except Exception:  # noqa: BLE001 - the verifier falls back to the reference here
        return None
    values = [row[name] for name in SORTED_FIELDS]
    values[SORTED_FIELDS.index("detail")] = detail
    return canonical_values(*values, naive_tz=naive_tz)


def _reference(row: dict) -> bytes | None:
    try:
        return canonical(row)
    except Exception:  # noqa: BLE001 - values RFC 8785 cannot represent
        return None


@st.composite
def rows(draw, strings=text, numbers=ids, moments=aware):
    return {
        "seq": draw(st.integers(1, 2**53 - 1)),
        "at": draw(moments),
        "actor_id": draw(numbers),
        "actor_role": draw(strings),
        "agency_id": draw(numbers),
        "case_id": draw(numbers),
        "action": draw(strings),
        "object_type": draw(strings),
        "object_id": draw(strings),
        "request_id": draw(strings),
        "ip": draw(strings),
        "detail": draw(json_values),
    }


@settings(max_examples=500, deadline=None)
@given(rows())
def test_the_direct_writer_equals_the_reference_on_representable_rows(row):
    expected = _reference(row)
    if expected is None:
        assert _fast(row) is None
    else:
        # Every column the audit table holds in practice is written directly, never refused.
        assert _fast(row) == expected


@settings(max_examples=500, deadline=None)
@given(rows(strings=any_text, numbers=any_ids, moments=aware | st.datetimes() | text))
def test_the_direct_writer_never_disagrees_with_the_reference(row):
    """Lone surrogates, integers past 2**53, naive or missing datetimes: the writer either
    writes the reference's bytes or declines (and the verifier uses the reference)."""
    fast, expected = _fast(row), _reference(row)
    assert fast is None or fast == expected
    if expected is None:
        assert fast is None


def test_naive_datetimes_are_read_in_the_given_zone():
    row = {name: "" for name in FIELDS}
    row.update(seq=1, actor_id=None, agency_id=1, case_id=None, detail={})
    moment = dt.datetime(2026, 3, 29, 1, 30, 0, 7)
    row["at"] = moment.replace(tzinfo=dt.UTC)
    assert _fast({**row, "at": moment}, naive_tz=dt.UTC) == canonical(row)
    assert _fast({**row, "at": moment}) is None  # no zone: the reference decides


def test_years_before_1000_are_written_as_the_reference_writes_them():
    row = {name: "" for name in FIELDS}
    row.update(seq=1, actor_id=None, agency_id=None, case_id=None, detail=None)
    row["at"] = dt.datetime(999, 12, 31, 23, 0, tzinfo=dt.timezone(dt.timedelta(hours=-3)))
    assert _fast(row) == canonical(row)


# --- Through the database: what the raw cursor reads hashes as the ORM's values do ------------

#: PostgreSQL's text and jsonb refuse NUL characters.
storable = st.characters(exclude_categories=["Cs"], exclude_characters="\x00")
stored_moments = st.datetimes(
    min_value=dt.datetime(1000, 1, 2), max_value=dt.datetime(9999, 12, 30), timezones=zones
)
stored_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    # Within a range PostgreSQL's jsonb prints back as a float (it writes numbers without an
    # exponent, so 1e300 would come back as an integer).
    | st.floats(-1e6, 1e6, allow_nan=False)
    | st.text(storable, max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.text(storable, max_size=6),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)
stored_text = st.text(storable, max_size=12)


@st.composite
def stored_rows(draw):
    return {
        "at": draw(stored_moments),
        "actor_id": draw(st.none() | st.integers(1, 2**31 - 1)),
        "actor_role": draw(stored_text.map(lambda s: s[:20])),
        "agency_id": draw(st.none() | st.integers(-(2**53) + 1, 2**53 - 1)),
        "case_id": draw(st.none() | st.integers(-(2**53) + 1, 2**53 - 1)),
        "action": draw(stored_text),
        "object_type": draw(stored_text),
        "object_id": draw(stored_text),
        "request_id": draw(stored_text),
        "ip": draw(stored_text),
        # Python's None would be SQL NULL, which the column refuses.
        "detail": draw(stored_json.filter(lambda value: value is not None)),
    }


class _Rollback(Exception):
    pass


@pytest.mark.django_db
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(stored_rows(), min_size=1, max_size=8))
def test_the_raw_reader_hashes_what_the_orm_reads(drawn):
    """Rows saved through the ORM (NULLs, datetimes in any zone, unicode, JSON detail with
    floats, nesting and non-ASCII keys), chained with the reference ``event_hash``: the raw
    reader gives the reference's bytes for each, and the chain verifies."""
    try:
        with transaction.atomic():
            prev, saved = GENESIS, []
            for seq, row in enumerate(drawn, start=1):
                event = AuditEvent(seq=seq, pos=seq, **row, prev_hash=prev)
                event.hash = prev = event_hash(prev, {"seq": seq, **row})
                saved.append(event)
            AuditEvent.objects.bulk_create(saved)
            orm = list(AuditEvent.objects.order_by("seq").values(*FIELDS, "prev_hash", "hash"))
            raw = list(verify._rows(batch=3))
            assert [r[0] for r in raw] == [r["seq"] for r in orm]
            assert [r[1] for r in raw] == [canonical(r) for r in orm]
            # The stored hash was computed from the Python values before saving; the database
            # keeps them (microseconds, JSON), so the chain verifies.
            result = verify_chain(batch=3, check_tree=False)
            assert result.ok, result
            assert result.checked == len(drawn)
            raise _Rollback
    except _Rollback:
        pass


@pytest.mark.django_db
def test_a_row_the_direct_writer_declines_is_verified_through_the_reference(monkeypatch):
    from caseflow.audit import chain
    from caseflow.audit.services import record

    for n in range(4):
        record("checkin.missed", detail={"n": n, "ratio": 0.5, "naïve": "é"})
    sequence_pending()
    declined = []

    def decline(*values, **kwargs):
        declined.append(values)
        return None

    monkeypatch.setattr(verify, "canonical_values", decline)
    result = verify_chain(batch=2)
    assert result.ok and result.checked == 4
    assert len(declined) == 4
    # And with the direct writer, the same verdict.
    monkeypatch.setattr(verify, "canonical_values", chain.canonical_values)
    assert verify_chain().ok


@pytest.mark.django_db
def test_a_changed_detail_is_found_through_the_cache_of_detail_forms():
    from caseflow.audit.services import record
    from tests.audit.conftest import raw_cursor

    for _ in range(6):
        record("checkin.missed", detail={"fields": ["summary"]})
    sequence_pending()
    with raw_cursor() as cur:
        cur.execute(
            "UPDATE audit_auditevent SET detail = %s WHERE pos = 4", ['{"fields": ["notes"]}']
        )
    open_before = list(connection.savepoint_ids)
    result = verify_chain(batch=2)
    assert not result.ok and result.bad_seq == 4
    assert result.problem == "event 4 was changed"
    # Stopping at the first bad row closes the cursor and its transaction there and then.
    assert list(connection.savepoint_ids) == open_before
