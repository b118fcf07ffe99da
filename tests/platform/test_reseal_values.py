"""Values sealed before the envelope changed (Fernet tokens under the data key) are sealed again
in the current one by ``reseal_values``: same values, same keys, nothing else touched."""

from __future__ import annotations

import io

import pytest
from cryptography.fernet import Fernet
from django.core.management import call_command
from django.db import connection

from caseflow.accounts.models import IdentityProvider
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, CaseKey, Party
from caseflow.lib.encryption import master
from tests import factories as f

pytestmark = pytest.mark.django_db


def _stored(table: str, column: str, pk: int) -> str:
    with connection.cursor() as cur:
        cur.execute(f"SELECT {column} FROM {table} WHERE id = %s", [pk])  # noqa: S608
        return cur.fetchone()[0]


def _write(table: str, column: str, pk: int, token: str) -> None:
    with connection.cursor() as cur:
        cur.execute(f"UPDATE {table} SET {column} = %s WHERE id = %s", [token, pk])  # noqa: S608


def _case_from_before(summary: str, name: str) -> tuple[Case, Party]:
    """A case as the first envelope wrote it: its key a Fernet token under the master key, its
    summary and a party's name Fernet tokens under that key."""
    case = f.open_case(f.TeamFactory())
    party = f.add_party(case, full_name="placeholder")
    raw = Fernet.generate_key()
    CaseKey.objects.filter(case=case).update(wrapped=master().encrypt(raw).decode())
    _write("cases_case", "summary", case.pk, Fernet(raw).encrypt(summary.encode()).decode())
    _write("cases_party", "full_name", party.pk, Fernet(raw).encrypt(name.encode()).decode())
    return case, party


def reseal() -> str:
    out = io.StringIO()
    call_command("reseal_values", "--batch-size", "1", stdout=out)
    return out.getvalue()


def test_old_values_are_sealed_again_and_read_the_same(settings):
    case, party = _case_from_before("Summary From Before", "Name From Before")
    other, other_party = _case_from_before("Another Summary", "Another Name")
    gone, gone_party = _case_from_before("Purged Summary", "Purged Name")
    gone_token = _stored("cases_party", "full_name", gone_party.pk)
    CaseKey.objects.filter(case=gone).delete()
    current = f.add_party(case, full_name="Written Today")
    current_token = _stored("cases_party", "full_name", current.pk)
    provider = IdentityProvider.objects.create(
        agency=case.agency, issuer="https://idp.example.org", client_id="x", client_secret="s3"
    )
    provider_token = _stored("accounts_identityprovider", "client_secret", provider.pk)
    opened_at = Case.objects.values_list("opened_at", flat=True).get(pk=case.pk)

    out = reseal()

    assert "4 values sealed again, 2 left as they were" in out
    for table, column, pk in (
        ("cases_case", "summary", case.pk),
        ("cases_party", "full_name", party.pk),
        ("cases_case", "summary", other.pk),
        ("cases_party", "full_name", other_party.pk),
    ):
        assert _stored(table, column, pk).startswith("v2:")
    # The values are the same, under the same keys.
    assert Case.objects.get(pk=case.pk).summary == "Summary From Before"
    assert Party.objects.get(pk=party.pk).full_name == "Name From Before"
    assert Party.objects.get(pk=other_party.pk).full_name == "Another Name"
    # What was current, what no key opens and what the master keys seal are left alone.
    assert _stored("cases_party", "full_name", current.pk) == current_token
    assert _stored("cases_party", "full_name", gone_party.pk) == gone_token
    assert _stored("accounts_identityprovider", "client_secret", provider.pk) == provider_token
    assert Case.objects.values_list("opened_at", flat=True).get(pk=case.pk) == opened_at
    event = AuditEvent.objects.get(action="security.values_resealed")
    assert event.detail == {"resealed": 4, "left": 2}

    # Run again: nothing left to do.
    assert "0 values sealed again, 2 left" in reseal()
