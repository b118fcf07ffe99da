"""Master-key rotation: every case's data key rewrapped under the newest key, in resumable
batches; afterwards the old key can go and everything still decrypts."""

from __future__ import annotations

import io

import pytest
from cryptography.fernet import Fernet
from django.core.management import call_command

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import CaseKey, Party
from caseflow.lib.encryption import DecryptionError
from tests.conftest import canary, wrapped_under

pytestmark = pytest.mark.django_db


def rotate(*args) -> str:
    out = io.StringIO()
    call_command("rotate_keys", *args, stdout=out)
    return out.getvalue()


def test_rotation_is_batched_resumable_idempotent_and_lets_the_old_key_go(cast, settings):
    old = settings.FIELD_ENCRYPTION_KEYS[0]
    new = Fernet.generate_key().decode()
    settings.FIELD_ENCRYPTION_KEYS = [new, old]
    pks = list(CaseKey.objects.order_by("pk").values_list("pk", flat=True))
    assert len(pks) == 4

    # An interrupted run: only the keys after pks[1] were done.
    out = rotate("--batch-size", "1", "--after", str(pks[1]))
    assert f"up to CaseKey pk {pks[-1]}" in out
    state = dict(CaseKey.objects.values_list("pk", "wrapped"))
    assert [wrapped_under(new, state[pk]) for pk in pks] == [False, False, True, True]

    # Run again from the start: the rest is done, the done ones skipped.
    out = rotate("--batch-size", "3")
    assert "2 data keys rewrapped, 2 already under the newest key" in out
    assert all(wrapped_under(new, w) for w in CaseKey.objects.values_list("wrapped", flat=True))
    assert "0 data keys rewrapped, 4 already" in rotate()
    assert AuditEvent.objects.filter(action="security.keys_rotated").count() == 3

    # The old key removed: every value still decrypts.
    settings.FIELD_ENCRYPTION_KEYS = [new]
    for case in (cast.case, cast.restricted_case, cast.team2_case, cast.foreign_case):
        names = [p.full_name for p in Party.objects.filter(case_id=case.pk).select_related("case")]
        assert any(canary(case) in n for n in names)
    # And the old key alone no longer opens anything.
    settings.FIELD_ENCRYPTION_KEYS = [old]
    party = Party.objects.filter(case_id=cast.case.pk).select_related("case").first()
    with pytest.raises(DecryptionError):
        party.full_name  # noqa: B018


def test_a_key_no_configured_master_key_opens_stops_the_run(cast, settings):
    settings.FIELD_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="resume with --after"):
        rotate()


def test_help_says_values_need_no_re_encryption():
    from caseflow.platform.management.commands.rotate_keys import Command

    assert "no value needs re-encrypting" in Command.help
