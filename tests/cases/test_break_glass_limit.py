"""Break-glass by reference is limited per user per hour; reaching the limit alerts the user's
supervisors."""

from __future__ import annotations

from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import BreakGlassGrant
from caseflow.inbox.models import Notification


def _attempt(client, reference: str):
    return client.post(
        reverse("cases:break_glass"), {"reference": reference, "reason": "Duty line call at night"}
    )


def test_the_limit_refuses_even_a_valid_reference_and_alerts_supervisors(cast, login, settings):
    settings.BREAK_GLASS_PER_HOUR = 3
    client = login(cast.same_team)
    for n in range(3):
        assert _attempt(client, f"NO-SUCH-{n}").status_code == 200
    response = _attempt(client, cast.team2_case.reference)
    assert response.status_code == 200
    assert "limit of emergency accesses" in response.content.decode()
    assert not BreakGlassGrant.objects.filter(user=cast.same_team).exists()
    alerts = Notification.objects.filter(kind="unusual_access", recipient=cast.supervisor)
    assert alerts.count() == 1
    assert reverse("audit:user", args=[cast.same_team.pk]) in alerts.get().link
    assert AuditEvent.objects.filter(action="break_glass.limited", actor_id=cast.same_team.pk)
    # Trying again within the hour: still refused, one alert only.
    _attempt(client, cast.team2_case.reference)
    assert alerts.count() == 1


def test_under_the_limit_break_glass_works(cast, login, settings):
    settings.BREAK_GLASS_PER_HOUR = 3
    client = login(cast.same_team)
    for n in range(2):
        _attempt(client, f"NO-SUCH-{n}")
    assert _attempt(client, cast.team2_case.reference).status_code == 302
    assert BreakGlassGrant.objects.filter(user=cast.same_team).exists()
    assert not Notification.objects.filter(kind="unusual_access").exists()
