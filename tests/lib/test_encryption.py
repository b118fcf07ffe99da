"""Field encryption: per-case data keys, wrong keys raise, lookups raise, None and "" differ."""

from __future__ import annotations

import pytest
from cryptography.fernet import Fernet, InvalidToken
from django.core.exceptions import FieldError
from django.db import connection
from django.test import override_settings

from caseflow.cases.models import Case, CaseKey, Party, PartyRole
from caseflow.lib.encryption import (
    DecryptionError,
    KeyDestroyed,
    Sealed,
    blind_index,
    normalise_identity,
    rewrap_data_key,
)
from tests import factories as f

pytestmark = pytest.mark.django_db


def _case():
    return f.open_case(f.TeamFactory())


def test_values_are_stored_encrypted_and_read_back():
    case = _case()
    party = f.add_party(case, full_name="Plain Name Marker", phone="07700 900123")
    with connection.cursor() as cur:
        cur.execute("SELECT full_name, phone FROM cases_party WHERE id = %s", [party.pk])
        stored = cur.fetchone()
    assert "Plain Name Marker" not in stored[0]
    assert "07700" not in stored[1]
    fresh = Party.objects.get(pk=party.pk)
    assert fresh.full_name == "Plain Name Marker"
    assert fresh.phone == "07700 900123"


def test_none_and_empty_string_round_trip_distinctly():
    case = _case()
    party = f.add_party(case, full_name="X", date_of_birth=None, address="")
    fresh = Party.objects.get(pk=party.pk)
    assert fresh.date_of_birth is None
    assert fresh.address == ""
    assert Party.objects.filter(pk=party.pk, date_of_birth__isnull=True).exists()
    assert Party.objects.filter(pk=party.pk, address__isnull=False).exists()


def test_each_case_has_its_own_key():
    a, b = _case(), _case()
    assert CaseKey.objects.get(case=a).wrapped != CaseKey.objects.get(case=b).wrapped
    party = f.add_party(a, full_name="Owned by A")
    token = Party.objects.values_list("full_name", flat=True).get(pk=party.pk)
    assert isinstance(token, Sealed)
    with pytest.raises(InvalidToken):
        b.data_key().decrypt(token.token.encode())
    assert a.data_key().decrypt(token.token.encode()) == b"Owned by A"


def test_wrong_master_key_raises():
    case = _case()
    f.add_party(case, full_name="Secret")
    with override_settings(FIELD_ENCRYPTION_KEYS=[Fernet.generate_key().decode()]):
        fresh = Party.objects.get(case=case)
        with pytest.raises(DecryptionError):
            _ = fresh.full_name


def test_destroyed_key_raises_key_destroyed():
    case = _case()
    f.add_party(case, full_name="Gone")
    CaseKey.objects.filter(case=case).delete()
    fresh = Party.objects.get(case=case)
    with pytest.raises(KeyDestroyed):
        _ = fresh.full_name


def test_lookups_on_encrypted_fields_raise():
    with pytest.raises(FieldError):
        list(Party.objects.filter(full_name="anything"))
    with pytest.raises(FieldError):
        list(Party.objects.filter(full_name__icontains="any"))
    with pytest.raises(FieldError):
        list(Case.objects.filter(summary__startswith="x"))


def test_queryset_update_with_plaintext_is_refused():
    case = _case()
    f.add_party(case, full_name="Before")
    with pytest.raises(FieldError):
        Party.objects.filter(case=case).update(full_name="Plaintext written raw")


def test_list_query_does_not_decrypt(django_assert_num_queries):
    case = _case()
    f.add_party(case, full_name="Lazy")
    fresh = Party.objects.get(case=case)
    # Nothing decrypted yet: the value is still sealed in the instance.
    assert isinstance(fresh.__dict__["full_name"], Sealed)
    assert str(fresh.__dict__["full_name"]) == "[encrypted]"


def test_master_rotation_rewraps_keys():
    old = Fernet.generate_key().decode()
    new = Fernet.generate_key().decode()
    with override_settings(FIELD_ENCRYPTION_KEYS=[old]):
        case = _case()
        f.add_party(case, full_name="Rotates")
    with override_settings(FIELD_ENCRYPTION_KEYS=[new, old]):
        key = CaseKey.objects.get(case=case)
        key.wrapped = rewrap_data_key(key.wrapped)
        key.save()
    with override_settings(FIELD_ENCRYPTION_KEYS=[new]):
        assert Party.objects.get(case=case).full_name == "Rotates"


def test_blind_index_normalises_and_is_keyed():
    assert normalise_identity("  ÉLodie   O'Brien ") == "élodie o brien"
    a = blind_index("Jane  Doe", "1990-01-01")
    assert a == blind_index("jane doe", "1990-01-01")
    assert a != blind_index("Jane Doe", "1990-01-02")
    with override_settings(BLIND_INDEX_KEY="another key"):
        assert blind_index("Jane Doe", "1990-01-01") != a


def test_party_role_choices_are_used():
    case = _case()
    party = f.add_party(case, PartyRole.CHILD, full_name="Kid")
    assert Party.objects.get(pk=party.pk).get_role_display() == "Child"
