"""Field encryption: per-case data keys, wrong keys raise, lookups raise, None and "" differ."""

from __future__ import annotations

import io
import json

import hypothesis
import pytest
from cryptography.fernet import Fernet, InvalidToken
from django.core.exceptions import FieldError
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st

from caseflow.cases.models import Case, CaseKey, Party, PartyRole
from caseflow.lib.encryption import (
    DataKey,
    DecryptionError,
    KeyDestroyed,
    Sealed,
    blind_index,
    master,
    new_wrapped_data_key,
    normalise_identity,
    rewrap_data_key,
    unwrap_data_key,
    wrapped_under_newest,
)
from caseflow.partners.models import HudAnswers
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


# --- The envelope (version 2) and what was written in version 1 ------------------------------


def _stored_full_name(party: Party) -> str:
    with connection.cursor() as cur:
        cur.execute("SELECT full_name FROM cases_party WHERE id = %s", [party.pk])
        return cur.fetchone()[0]


def test_a_new_key_is_wrapped_and_values_sealed_in_version_2(settings):
    case = _case()
    party = f.add_party(case, full_name="Sealed In Two")
    wrapped = CaseKey.objects.get(case=case).wrapped
    assert wrapped.startswith("w2:")
    assert wrapped_under_newest(wrapped)
    # The master key's id names it without giving anything of it away.
    master_key = settings.FIELD_ENCRYPTION_KEYS[0]
    assert master_key not in wrapped and master_key[:12] not in wrapped
    token = _stored_full_name(party)
    assert token.startswith("v2:") and "Sealed In Two" not in token
    # Two values alike are sealed differently (a fresh nonce each).
    twin = f.add_party(case, full_name="Sealed In Two")
    assert _stored_full_name(twin) != token


def test_a_changed_version_2_value_is_refused():
    case = _case()
    party = f.add_party(case, full_name="Untouched")
    token = _stored_full_name(party)
    key = case.data_key()
    assert key.decrypt(token.encode()) == b"Untouched"
    body = bytearray(token.encode())
    body[-5] = ord("A") if body[-5] != ord("A") else ord("B")
    for changed in (bytes(body), token.encode()[:-8], b"v2:", b"v2:not base64!"):
        with pytest.raises(InvalidToken):
            key.decrypt(changed)
    # And through the field, a clear error rather than garbage.
    with connection.cursor() as cur:
        cur.execute(
            "UPDATE cases_party SET full_name = %s WHERE id = %s", [bytes(body).decode(), party.pk]
        )
    with pytest.raises(DecryptionError):
        _ = Party.objects.get(pk=party.pk).full_name


def test_a_version_2_key_opens_with_no_other_master_key(settings):
    case = _case()
    f.add_party(case, full_name="Only Mine")
    wrapped = CaseKey.objects.get(case=case).wrapped
    other = Fernet.generate_key().decode()
    with override_settings(FIELD_ENCRYPTION_KEYS=[other]), pytest.raises(DecryptionError):
        unwrap_data_key(wrapped)
    # Even given the right master key's id with another key behind it.
    key_id = wrapped.split(":")[1]
    with override_settings(FIELD_ENCRYPTION_KEYS=[other]):
        forged = wrapped.replace(f"w2:{key_id}:", f"w2:{wrapped_id_of_newest()}:")
        with pytest.raises(DecryptionError):
            unwrap_data_key(forged)
    for broken in ("w2:", f"w2:{key_id}:", f"w2:{key_id}:@@@", "w2:000000000000:AAAA"):
        with pytest.raises(DecryptionError):
            unwrap_data_key(broken)


def wrapped_id_of_newest() -> str:
    return new_wrapped_data_key().split(":")[1]


def test_version_1_keys_and_values_still_open_and_rotation_moves_the_key_to_version_2(settings):
    """A case written before the envelope changed: its key a Fernet token under the master key,
    its values Fernet tokens under the data key. Both still open; new values are sealed in
    version 2 under the same key; rotating rewraps the key in version 2 even under the same
    master key, and every value, old and new, still opens."""
    case = _case()
    legacy_raw = Fernet.generate_key()
    legacy = Fernet(legacy_raw)
    CaseKey.objects.filter(case=case).update(wrapped=master().encrypt(legacy_raw).decode())
    old_token = legacy.encrypt(b"Written Long Ago").decode()
    party = f.add_party(Case.objects.get(pk=case.pk), full_name="placeholder")
    with connection.cursor() as cur:
        cur.execute("UPDATE cases_party SET full_name = %s WHERE id = %s", [old_token, party.pk])

    fresh = Case.objects.get(pk=case.pk)
    assert Party.objects.get(pk=party.pk).full_name == "Written Long Ago"
    newer = f.add_party(fresh, full_name="Written Today")
    new_token = _stored_full_name(newer)
    assert new_token.startswith("v2:")
    # The version-2 value is under a subkey of the same data key, not the Fernet key's halves.
    with pytest.raises(InvalidToken):
        legacy.decrypt(new_token.encode())

    wrapped = CaseKey.objects.get(case=case).wrapped
    assert not wrapped_under_newest(wrapped)
    out = io.StringIO()
    call_command("rotate_keys", stdout=out)
    assert "1 data keys rewrapped" in out.getvalue()
    rewrapped = CaseKey.objects.get(case=case).wrapped
    assert rewrapped.startswith("w2:") and wrapped_under_newest(rewrapped)
    assert Party.objects.get(pk=party.pk).full_name == "Written Long Ago"
    assert Party.objects.get(pk=newer.pk).full_name == "Written Today"


def test_a_data_key_is_32_bytes_and_says_nothing_when_printed():
    with pytest.raises(ValueError):
        DataKey(b"short")
    key = DataKey.generate()
    assert repr(key) == "<DataKey>" and str(key) == "<DataKey>"
    assert key.decrypt(key.encrypt(b"")) == b""


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()  # past 64 bits too
    | st.floats()  # NaN and the infinities too
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@hypothesis.settings(max_examples=300)
@given(_json_values)
def test_an_encrypted_json_document_reads_back_as_pythons_json_reads_it(value):
    """What a JSON field writes reads back to what Python's json reads from it, type for type
    (an integer stays one, a float one), NaN, the infinities and integers past 64 bits too."""
    field = HudAnswers._meta.get_field("answers")
    raw = field.to_plain_bytes(value)
    expected = json.loads(raw.decode())
    assert json.dumps(field.from_plain_bytes(raw)) == json.dumps(expected)


@pytest.mark.parametrize(
    "raw, value",
    [
        (b'{"a":"\\ud800"}', {"a": "\ud800"}),  # a lone surrogate's escape
        (b"[NaN,Infinity]", None),
        (b"123456789012345678901234567890", 123456789012345678901234567890),
        (b'{"a":1,"a":2}', {"a": 2}),  # the last of a repeated key
    ],
)
def test_what_orjson_refuses_json_reads(raw, value):
    field = HudAnswers._meta.get_field("answers")
    read = field.from_plain_bytes(raw)
    assert json.dumps(read) == json.dumps(json.loads(raw.decode()))
    if value is not None:
        assert read == value


def test_a_document_that_is_not_utf8_is_refused_as_before():
    field = HudAnswers._meta.get_field("answers")
    with pytest.raises(UnicodeDecodeError):
        field.from_plain_bytes(b'{"a":"\xff"}')
