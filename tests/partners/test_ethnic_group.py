"""The 2021 census's ethnic groups (ONS) for agencies in the UK: offered on the field settings
page, hidden until the agency shows them, asked on the demographics page, and counted by the
Insights-style report in its five groups."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from caseflow.cases.fields import agency_field_config
from caseflow.cases.models import (
    IntakeField,
    PartyRole,
)
from caseflow.confidentiality.services import field_settings_save
from caseflow.partners.models import DECLINED, ONS_GROUPS, QUESTIONS, Demographics
from caseflow.reporting import reports
from tests import factories as f

pytestmark = pytest.mark.django_db

ETHNIC = IntakeField.DEMOGRAPHIC_ETHNIC_GROUP


def test_every_census_answer_is_in_one_of_the_five_groups():
    answers = [value for value, _label in QUESTIONS["ethnic_group"][1]]
    grouped = [a for _label, members in ONS_GROUPS.values() for a in members]
    assert len(answers) == 19
    assert sorted(grouped) == sorted(answers)


def test_the_census_groups_are_hidden_until_the_agency_shows_them(cast, login):
    assert agency_field_config(cast.agency.pk)[ETHNIC]["hidden"] is True
    race = agency_field_config(cast.agency.pk).get(IntakeField.DEMOGRAPHIC_RACE, {})
    assert not race.get("hidden")
    client = login(cast.assigned)
    url = reverse("partners:demographics", args=[cast.case.public_id])
    f.add_party(cast.case, PartyRole.SURVIVOR, full_name="Sam Survivor")
    page = client.get(url)
    assert page.status_code == 200
    assert "ethnic_group" not in page.context["form"].fields
    # A UK agency shows them, and may stop asking the US question.
    field_settings_save(
        actor=cast.agency_admin,
        values={ETHNIC: (False, ""), IntakeField.DEMOGRAPHIC_RACE: (True, "")},
    )
    page = client.get(url)
    fields = page.context["form"].fields
    assert "ethnic_group" in fields and "race_ethnicity" not in fields
    data = {name: "not_asked" for name in fields}
    data.update(version=page.context["form"].initial["version"], ethnic_group="white_irish")
    response = client.post(url, data)
    assert response.status_code == 302
    row = Demographics.objects.get(case=cast.case)
    row.case = cast.case
    assert row.ethnic_group == "white_irish"
    assert "White: Irish" in client.get(url).content.decode()
    # Another agency's setting is its own.
    assert agency_field_config(cast.other_agency_team.agency_id)[ETHNIC]["hidden"] is True


GROUPS = ["white_british"] * 4 + ["white_other"] * 2 + ["asian_pakistani"] * 3
GROUPS += ["black_african"] * 2 + [DECLINED]


@time_machine.travel(dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC), tick=False)
def test_the_insights_report_counts_exits_by_the_five_groups(cast):
    period = reports.calendar_quarter(dt.date(2026, 7, 1))
    for n, group in enumerate([*GROUPS, None]):
        closed = dt.datetime(2026, 8, 1 + n, 10, tzinfo=dt.UTC)
        case = f.open_case(cast.team1, reference=f"E-{n}")
        party = f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {n}")
        if group is not None:
            Demographics(case=case, party=party, ethnic_group=group).save()
        f.close_episode(case, cast.assigned, opened=closed, closed=closed)
    title = "Ethnic group (the 2021 census's groups)"
    report = reports.release("insights", cast.agency.pk, period)
    assert title not in [s.title for s in report.sections]
    field_settings_save(actor=cast.agency_admin, values={ETHNIC: (False, "")})
    report = reports.release("insights", cast.agency.pk, period)
    section = next(s for s in report.sections if s.title == title)
    printed = [
        (label, [c.text for c in cells], [report.grid.values[c] for c in row.cells])
        for (label, cells), row in zip(report.table(section), section.rows, strict=True)
    ]
    assert printed == [
        ("Asian or Asian British", ["*"], [3]),
        ("Black, Black British, Caribbean or African", ["*"], [2]),
        ("Mixed or multiple ethnic groups", ["0"], [0]),
        ("White", ["6"], [6]),
        ("Another ethnic group", ["0"], [0]),
        ("Declined to answer", ["*"], [1]),
        ("Not asked", ["*"], [1]),  # the survivor with no answers at all
        ("All exits", ["13"], [13]),
    ]
