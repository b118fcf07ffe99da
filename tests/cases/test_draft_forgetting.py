"""Drafts are forgotten on time: the hourly task drops those unchanged for DRAFT_DAYS (the
clock moved, not the rows), and an author's drafts go when they lose the case or are
deactivated. The task takes no arguments and a second run changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.conf import settings as django_settings

from caseflow.agency.services import staff_save
from caseflow.audit.models import AuditEvent
from caseflow.cases import services
from caseflow.cases.drafts import draft_save
from caseflow.cases.models import Case, Draft
from caseflow.cases.tasks import forget_expired_drafts

pytestmark = pytest.mark.django_db

SAVED = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)


def _draft(user, case, form="note-new"):
    return draft_save(user=user, case=case, form=form, data={"text": ["Half"]})


def _kept():
    return sorted(Draft.objects.values_list("user__username", "form"))


def test_the_hourly_task_forgets_drafts_older_than_draft_days(cast, settings):
    entry = django_settings.CELERY_BEAT_SCHEDULE["cases-forget-drafts"]
    assert entry == {"task": forget_expired_drafts.name, "schedule": 3600.0}
    settings.DRAFT_DAYS = 7
    with time_machine.travel(SAVED, tick=False):
        _draft(cast.assigned, cast.case, "note-new")
    with time_machine.travel(SAVED + dt.timedelta(days=5), tick=False):
        _draft(cast.assigned, cast.case, "incident-new")
    with time_machine.travel(SAVED + dt.timedelta(days=7) - dt.timedelta(minutes=1), tick=False):
        assert forget_expired_drafts() == 0
        assert _kept() == [("assigned", "incident-new"), ("assigned", "note-new")]
    with time_machine.travel(SAVED + dt.timedelta(days=7, minutes=1), tick=False):
        assert forget_expired_drafts() == 1
        assert _kept() == [("assigned", "incident-new")]
        assert forget_expired_drafts() == 0  # a second run changes nothing
    with time_machine.travel(SAVED + dt.timedelta(days=37), tick=False):
        assert forget_expired_drafts() == 1
    assert _kept() == []
    events = AuditEvent.objects.filter(action="draft.forget").order_by("pk")
    assert [e.detail for e in events] == [
        {"case_id": cast.case.pk, "count": 1, "reason": "expired"},
        {"case_id": cast.case.pk, "count": 1, "reason": "expired"},
    ]


def test_an_author_who_loses_the_case_loses_their_drafts(cast):
    _draft(cast.assigned, cast.case)
    _draft(cast.supervisor, cast.case)  # still supervises the case: keeps theirs
    services.case_assign(actor=cast.supervisor, case=cast.case, primary=cast.same_team, others=[])
    assert _kept() == [("supervisor", "note-new")]
    event = AuditEvent.objects.get(action="draft.forget")
    assert event.detail == {"case_id": cast.case.pk, "count": 1, "reason": "unassigned"}
    assert event.actor_id == cast.supervisor.pk


def test_a_deactivated_author_loses_their_drafts(cast):
    _draft(cast.assigned, cast.case)
    _draft(cast.supervisor, cast.case)
    # Their open cases are handed over first (nobody with open cases can be switched off).
    Case.objects.filter(primary_advocate=cast.assigned).update(primary_advocate=cast.same_team)
    staff_save(
        actor=cast.agency_admin,
        user=cast.assigned,
        data={
            "first_name": "A",
            "last_name": "",
            "email": "a@example.invalid",
            "role": "advocate",
            "is_active": False,
        },
        teams=list(cast.assigned.teams.all()),
    )
    assert _kept() == [("supervisor", "note-new")]


def test_the_hourly_task_catches_an_account_switched_off_elsewhere(cast):
    _draft(cast.assigned, cast.case)
    _draft(cast.supervisor, cast.case)
    cast.supervisor.membership.is_active = False  # e.g. by the identity provider
    cast.supervisor.membership.save()
    assert forget_expired_drafts() == 1
    assert _kept() == [("assigned", "note-new")]
