import datetime as dt
import random

import pytest
import time_machine

from caseflow.demo.seed import DemoContext
from caseflow.shelter import demo, selectors
from caseflow.shelter.models import Bed, Site, Stay, TurnAway

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 6, 4, 12, 0, tzinfo=dt.UTC)


@time_machine.travel(NOW, tick=False)
def test_demo_keeps_two_sites_with_current_and_past_stays_and_turn_aways(cast):
    context = DemoContext(
        rng=random.Random(3),
        cases=[cast.case, cast.restricted_case, cast.team2_case],
        staff={"north": [cast.assigned]},
        now=NOW,
    )
    demo.seed_demo(context)
    assert Site.objects.filter(agency=cast.agency).count() == 2
    assert Bed.objects.filter(agency=cast.agency).count() == 10
    stays = list(Stay.objects.filter(agency=cast.agency))
    assert stays, "the demo books stays"
    assert all(s.ended_at is not None for s in stays), "with three cases, all go to past stays"
    assert TurnAway.objects.filter(agency=cast.agency).count() == 18
    figures = selectors.shelter_figures(
        cast.agency.pk, dt.date(2025, 6, 1), dt.date(2026, 6, 30), today=dt.date(2026, 6, 4)
    )
    assert figures.shelter_nights > 0 and figures.people_sheltered > 0
    assert figures.turn_aways == 13 and figures.beds == 10
