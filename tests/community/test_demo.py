"""The demo's community work gives every FVPSA year the demo may show sessions for every
audience and surveys with each answer, so the report shows figures, not zeros."""

import datetime as dt
import random

import pytest
import time_machine

from caseflow.community import demo, selectors
from caseflow.community.models import Audience, SurveyAnswer, SurveyService
from caseflow.demo.seed import DemoContext

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 12, 4, 12, 0, tzinfo=dt.UTC)


@time_machine.travel(NOW, tick=False)
def test_demo_records_sessions_and_surveys_for_the_last_two_federal_years(cast):
    context = DemoContext(
        rng=random.Random(5),
        cases=[],
        staff={"north": [cast.supervisor, cast.assigned], "other": [cast.other_agency]},
        now=NOW,
    )
    demo.seed_demo(context)
    for year in (2025, 2026):
        start, end = dt.date(year - 1, 10, 1), dt.date(year, 9, 30)
        sessions, people = selectors.sessions_by_audience(cast.agency.pk, start, end)
        assert set(sessions) == set(Audience.values)
        assert all(people[a] >= sessions[a] for a in Audience.values)
        answers = selectors.survey_answers(cast.agency.pk, start, end)
        for statement in ("safety", "resources"):
            given = {answer for answer, _service in answers[statement]}
            assert given == set(SurveyAnswer.values)
            services = {service for _answer, service in answers[statement]}
            assert services == set(SurveyService.values)
            assert sum(answers[statement].values()) >= 100
        # The second agency runs no shelter: its surveys are all about support.
        other = selectors.survey_answers(cast.other_agency.membership.agency_id, start, end)
        assert {s for _a, s in other["safety"]} == {SurveyService.SUPPORT}
