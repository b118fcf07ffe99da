"""Master-key rotation reaches the calls on no case: their keys are rewrapped, and once the old
master key is gone the calls still decrypt."""

from __future__ import annotations

import io

import pytest
import time_machine
from cryptography.fernet import Fernet
from django.core.management import call_command

from caseflow.calls import services
from caseflow.calls.models import Call
from tests.conftest import wrapped_under

pytestmark = pytest.mark.django_db


@time_machine.travel("2026-11-10T12:00:00+00:00", tick=False)
def test_call_keys_are_rewrapped_and_the_old_key_can_go(cast, settings):
    old = settings.FIELD_ENCRYPTION_KEYS[0]
    loose = services.call_log(actor=cast.assigned, caller_kind="survivor", caller_name="Rowan")
    services.call_log(actor=cast.assigned, caller_kind="anonymous")
    taken = services.call_log(actor=cast.assigned, caller_kind="survivor", notes="on a case")
    services.call_attach(actor=cast.assigned, call=taken, case=cast.case)
    new = Fernet.generate_key().decode()
    settings.FIELD_ENCRYPTION_KEYS = [new, old]
    out = io.StringIO()
    call_command("rotate_call_keys", "--batch-size", "1", stdout=out)
    assert "2 call keys rewrapped, 0 already under the newest key" in out.getvalue()
    keys = list(Call.objects.exclude(wrapped_key="").values_list("wrapped_key", flat=True))
    assert len(keys) == 2 and all(wrapped_under(new, k) for k in keys)
    assert Call.objects.get(pk=taken.pk).wrapped_key == ""  # under the case's key
    settings.FIELD_ENCRYPTION_KEYS = [new]
    assert Call.objects.get(pk=loose.pk).caller_name == "Rowan"
