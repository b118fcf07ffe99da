import datetime as dt
import random

import time_machine

from caseflow.agreements import demo, selectors
from caseflow.agreements.models import Breach, ContactAgreement, ContactEvent
from caseflow.demo.seed import DemoContext

NOW = dt.datetime(2025, 6, 4, 12, 0, tzinfo=dt.UTC)


@time_machine.travel(NOW, tick=False)
def test_demo_populates_agreements_the_chart_and_the_chronology(cast):
    context = DemoContext(
        rng=random.Random(3), cases=[cast.case, cast.team2_case], staff={}, now=NOW
    )
    demo.seed_demo(context)
    agreements = ContactAgreement.objects.all()
    assert agreements.count() == 2
    for agreement in agreements:
        assert agreement.status == "active"
        assert agreement.versions.count() == 2
        assert not ContactEvent.objects.filter(agreement=agreement, review="pending").exists()
        assert Breach.objects.filter(agreement=agreement).count() >= 4
        weeks = selectors.weekly_counts(agreement)
        assert len(weeks) >= demo.WEEKS
        assert sum(1 for w in weeks if w.breaches) >= 4
        report = selectors.chronology(agreement)
        assert {row["version"] for row in report["rows"]} == {1, 2}
    assert ContactEvent.objects.filter(occurred_at__gt=NOW).count() == 0
    # The survivor's own message outside the terms, recorded neutrally: never a breach.
    survivor = ContactEvent.objects.filter(direction="from_survivor")
    assert survivor.count() == 2
    assert set(survivor.values_list("review", flat=True)) == {"survivor_outside"}
    assert not Breach.objects.filter(event__direction="from_survivor").exists()
