"""Community work: education sessions and outcome surveys are checked, scoped to the agency,
audited, hold nothing personal, and a mistake on the form is a message, never a 500."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from caseflow.audit.models import AuditEvent
from caseflow.community import selectors, services
from caseflow.community.models import EducationSession, OutcomeSurvey
from tests.conftest import Cast

# Noon UTC on 2 Dec 2026: the same day in London and New York.
NOW = dt.datetime(2026, 12, 2, 12, 0, tzinfo=dt.UTC)
TODAY = dt.date(2026, 12, 2)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _now():
    with time_machine.travel(NOW, tick=False):
        yield


def _session(cast: Cast, **kw):
    args = dict(
        actor=cast.assigned, held_on=TODAY, kind="talk", audience="young_people", participants=25
    )
    args.update(kw)
    return services.session_record(**args)


def _survey(cast: Cast, **kw):
    args = dict(
        actor=cast.assigned, returned_on=TODAY, service="support", safety="yes", resources="no"
    )
    args.update(kw)
    return services.survey_record(**args)


def test_a_session_is_kept_and_audited(cast: Cast):
    row = _session(cast)
    assert (row.agency_id, row.held_on, row.participants) == (cast.agency.pk, TODAY, 25)
    event = AuditEvent.objects.get(action="community.session")
    assert event.actor_id == cast.assigned.pk
    assert event.detail["participants"] == 25


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"held_on": TODAY + dt.timedelta(days=1)}, "held_on"),
        ({"held_on": dt.date(1926, 5, 1)}, "held_on"),
        ({"participants": 0}, "participants"),
        ({"participants": 5001}, "participants"),
    ],
)
def test_a_session_that_cannot_be_right_is_refused(cast: Cast, change, field):
    with pytest.raises(ValidationError) as exc:
        _session(cast, **change)
    assert field in exc.value.error_dict
    assert not EducationSession.objects.exists()


def test_only_caseworkers_record_community_work(cast: Cast):
    for user in (cast.auditor, cast.agency_admin):
        with pytest.raises(PermissionDenied):
            _session(cast, actor=user)
        with pytest.raises(PermissionDenied):
            _survey(cast, actor=user)
    assert not EducationSession.objects.exists() and not OutcomeSurvey.objects.exists()


def test_a_survey_holds_nothing_but_its_day_service_and_answers(cast: Cast):
    row = _survey(cast)
    kept = {f.name for f in OutcomeSurvey._meta.get_fields()}
    assert kept == {
        "id",
        "agency",
        "public_id",
        "returned_on",
        "service",
        "safety",
        "resources",
        "recorded_by",
        "created_at",
    }
    assert (row.safety, row.resources) == ("yes", "no")
    assert AuditEvent.objects.filter(action="community.survey").count() == 1


def test_a_survey_with_an_answer_not_on_the_list_is_refused(cast: Cast):
    with pytest.raises(ValidationError):
        _survey(cast, safety="maybe")
    assert not OutcomeSurvey.objects.exists()


def test_counts_are_the_agencys_own_and_in_the_period(cast: Cast):
    _session(cast, participants=10)
    _session(cast, audience="adults", participants=40)
    _session(cast, held_on=dt.date(2026, 9, 30), participants=99)
    _session(cast, actor=cast.other_agency, participants=7)
    sessions, people = selectors.sessions_by_audience(
        cast.agency.pk, dt.date(2026, 10, 1), dt.date(2027, 9, 30)
    )
    assert sessions == {"young_people": 1, "adults": 1}
    assert people == {"young_people": 10, "adults": 40}
    _survey(cast)
    _survey(cast, service="shelter", safety="not_answered", resources="yes")
    _survey(cast, actor=cast.other_agency)
    answers = selectors.survey_answers(cast.agency.pk, dt.date(2026, 10, 1), TODAY)
    assert answers["safety"] == {("yes", "support"): 1, ("not_answered", "shelter"): 1}
    assert answers["resources"] == {("no", "support"): 1, ("yes", "shelter"): 1}


def test_the_education_page_records_a_session_and_lists_the_year(cast: Cast, login):
    client = login(cast.assigned)
    url = reverse("community:education")
    response = client.post(
        url,
        {
            "held_on": "2026-11-20",
            "kind": "workshop",
            "audience": "professionals",
            "participants": "14",
        },
    )
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "Session recorded" in page
    assert "Workshop or course" in page
    assert "Professionals (training)" in page and ">14<" in page
    assert EducationSession.objects.get().participants == 14


def test_a_mistake_on_the_education_form_is_a_message_and_nothing_is_saved(cast: Cast, login):
    client = login(cast.assigned)
    _session(cast, participants=33)
    response = client.post(
        reverse("community:education"),
        {"held_on": "2027-01-05", "kind": "talk", "audience": "adults", "participants": "10"},
    )
    assert response.status_code == 200
    assert "This day has not happened yet." in response.content.decode()
    assert list(EducationSession.objects.values_list("participants", flat=True)) == [33]


def test_the_survey_page_counts_a_survey_and_keeps_the_day_and_service_for_the_next(
    cast: Cast, login
):
    client = login(cast.assigned)
    url = reverse("community:surveys")
    response = client.post(
        url,
        {
            "returned_on": "2026-11-30",
            "service": "shelter",
            "safety": "yes",
            "resources": "not_answered",
        },
    )
    assert response.status_code == 302
    page = client.get(url)
    form = page.context["form"]
    assert form.initial["returned_on"] == "2026-11-30"
    assert form.initial["service"] == "shelter"
    assert "Survey counted" in page.content.decode()
    row = OutcomeSurvey.objects.get()
    assert (row.service, row.safety, row.resources) == ("shelter", "yes", "not_answered")
    incomplete = client.post(url, {"returned_on": "2026-11-30", "service": "shelter"})
    assert incomplete.status_code == 200
    assert incomplete.context["form"].errors.keys() == {"safety", "resources"}
    assert OutcomeSurvey.objects.count() == 1


def test_a_session_recorded_by_mistake_is_removed_by_its_recorder_or_a_supervisor(cast: Cast):
    mine = _session(cast, participants=31)
    with pytest.raises(PermissionDenied):
        services.session_remove(actor=cast.same_team, session=mine)
    with pytest.raises(PermissionDenied):
        services.session_remove(actor=cast.other_agency, session=mine)
    services.session_remove(actor=cast.assigned, session=mine)
    assert not EducationSession.objects.exists()
    event = AuditEvent.objects.get(action="community.session_remove")
    # What it said stays in the trail.
    assert event.detail == {
        "held_on": "2026-12-02",
        "kind": "talk",
        "audience": "young_people",
        "participants": 31,
    }
    theirs = _session(cast, actor=cast.same_team)
    services.session_remove(actor=cast.supervisor, session=theirs)
    assert not EducationSession.objects.exists()


def test_the_remove_button_shows_only_on_sessions_one_may_remove(cast: Cast, login):
    mine = _session(cast)
    theirs = _session(cast, actor=cast.same_team)
    page = login(cast.assigned).get(reverse("community:education")).content.decode()
    assert reverse("community:session_remove", args=[mine.public_id]) in page
    assert reverse("community:session_remove", args=[theirs.public_id]) not in page
    response = login(cast.assigned).post(
        reverse("community:session_remove", args=[theirs.public_id])
    )
    assert response.status_code == 404
    assert EducationSession.objects.filter(pk=theirs.pk).exists()


def test_taking_back_removes_only_ones_own_last_survey_and_only_soon_after(cast: Cast, login):
    first = _survey(cast, safety="yes")
    last = _survey(cast, safety="no")
    other = _survey(cast, actor=cast.same_team)
    taken = services.survey_take_back(actor=cast.assigned)
    assert taken is not None and taken.public_id == last.public_id
    assert set(OutcomeSurvey.objects.all()) == {first, other}
    assert AuditEvent.objects.filter(action="community.survey_take_back").count() == 1
    with time_machine.travel(NOW + services.TAKE_BACK + dt.timedelta(seconds=1), tick=False):
        assert services.survey_take_back(actor=cast.assigned) is None
        client = login(cast.assigned)
        page = client.post(reverse("community:survey_take_back"), follow=True)
        assert "no survey of yours from the last 30 minutes" in page.content.decode()
    assert set(OutcomeSurvey.objects.all()) == {first, other}
