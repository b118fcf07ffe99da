"""Emergency access allows what its banner says: reading the case and recording notes, until
the time it states in the reader's zone and language; every other write is refused."""

from __future__ import annotations

import datetime as dt

import time_machine
from django.conf import settings
from django.urls import reverse

from caseflow.accounts.language import set_user_language
from caseflow.cases import services as cases
from caseflow.casework.models import CaseNote
from tests.test_url_matrix import MATRIX, url_for

#: 18:20 UTC on a summer evening: the access ends an hour later, 21:20 in Madrid.
T0 = dt.datetime(2026, 6, 1, 18, 20, tzinfo=dt.UTC)

#: The one write emergency access allows: recording a note of the call.
ALLOWED_WRITES = {"casework:note_new"}


def _open(cast):
    with time_machine.travel(T0, tick=False):
        return cases.break_glass_open(
            actor=cast.same_team, reference=cast.case.reference, reason="Crisis call"
        )


def _note(occurred_at: str) -> dict[str, object]:
    return {
        "kind": "call",
        "participants": ["survivor"],
        "direction": "incoming",
        "occurred_at": occurred_at,
        "duration_minutes": "20",
        "text": "She called from a friend's phone; safe tonight.",
    }


def _case_writes() -> list[str]:
    """The URLs that change something on a case: the ones its assigned advocate may post to."""
    return sorted(
        name
        for name, row in MATRIX.items()
        if (row.kwargs in ("case", "party") or (row.url is not None and row.kwargs != "call"))
        and row.POST["assigned"] != 405
    )


def test_an_emergency_reader_records_a_note_and_every_other_write_is_refused(cast, login):
    _open(cast)
    client = login(cast.same_team)
    refused = []
    writes = _case_writes()
    assert len(writes) > 40 and set(writes) >= ALLOWED_WRITES
    with time_machine.travel(T0 + dt.timedelta(minutes=10), tick=False):
        for name in writes:
            url = url_for(name, MATRIX[name], cast, "case")
            status = client.post(url, {}).status_code
            if name in ALLOWED_WRITES:
                assert status == 200, name  # the form, asking for what is missing
            elif status != 403:
                refused.append(f"{name}: {status}")
        assert refused == []
        response = client.post(
            reverse("casework:note_new", args=[cast.case.public_id]), _note("2026-06-01T19:25")
        )
    assert response.status_code == 302
    # (The other URLs' rows wrote their own objects, a note among them, as the case's advocate.)
    note = CaseNote.objects.get(case=cast.case, author=cast.same_team)
    assert note.break_glass is not None and note.break_glass.user == cast.same_team


def test_the_access_ends_at_its_time(cast, login):
    _open(cast)
    client = login(cast.same_team)
    detail = reverse("cases:detail", args=[cast.case.public_id])
    new_note = reverse("casework:note_new", args=[cast.case.public_id])
    minutes = settings.BREAK_GLASS_MINUTES
    with time_machine.travel(T0 + dt.timedelta(minutes=minutes - 1), tick=False):
        assert client.get(detail).status_code == 200
        assert client.get(new_note).status_code == 200
    with time_machine.travel(T0 + dt.timedelta(minutes=minutes), tick=False):
        assert client.get(detail).status_code == 404
        assert client.post(new_note, _note("2026-06-01T19:25")).status_code == 404
    assert not CaseNote.objects.exists()


def test_the_banner_states_the_end_time_in_the_readers_zone_and_language(cast, login):
    cast.agency.time_zone = "Europe/Madrid"
    cast.agency.save(update_fields=["time_zone"])
    _open(cast)
    client = login(cast.same_team)
    detail = reverse("cases:detail", args=[cast.case.public_id])
    with time_machine.travel(T0 + dt.timedelta(minutes=5), tick=False):
        english = client.get(detail).content.decode()
        set_user_language(cast.same_team, "es")
        spanish = client.get(detail).content.decode()
    assert "You can read the case and record notes until 21:20." in english
    assert "Everything is recorded and your supervisor will review it." in english
    assert "read-only" not in english
    assert "Puedes leer el caso y registrar notas hasta las 21:20." in spanish
    # The banner's promise is kept: the page offers the note, and no edit.
    assert reverse("casework:note_new", args=[cast.case.public_id]) in english
    assert reverse("cases:edit", args=[cast.case.public_id]) not in english
