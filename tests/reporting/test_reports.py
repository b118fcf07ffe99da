"""Funder reports: on the demo most cells are counts; every generation is audited; the preview
shows charts with their tables; the CSV keeps the funder's layout; other agencies never count."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from caseflow.accounts import zones
from caseflow.accounts.models import Agency, User
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case
from caseflow.demo import seed
from caseflow.inbox.models import FollowUp
from caseflow.partners.models import DECLINED, Demographics, MeetingAction, ServiceReferral
from caseflow.reporting import reports, services
from tests import factories as f
from tests.reporting.test_hud_any_answer import told_by_any_answer, told_by_disabling
from tests.reporting.test_hud_income_change import told_by_q19a
from tests.reporting.test_report_cells import small_counts_told

pytestmark = pytest.mark.django_db


def _period(slug: str) -> dict[str, str]:
    """The latest period the report may be run for."""
    latest = reports.periods(reports.REPORTS[slug].period, timezone.localdate())[0]
    return {"period": latest.start.isoformat()}


def _last_year() -> reports.Period:
    return reports.periods("federal_year", timezone.localdate())[0]


def _backdated(case: Case) -> Case:
    case.opened_at = timezone.now() - dt.timedelta(days=800)
    case.save(update_fields=["opened_at"])
    return case


@pytest.mark.demo
def test_the_demo_reports_mostly_counts_and_shows_partners_work(login):
    seed.seed()
    admin = User.objects.get(username="ada.admin")
    auditor = User.objects.get(username="oli.auditor")
    client = login(auditor)
    for slug in reports.REPORTS:
        response = client.get(reverse("reporting:preview", args=[slug]), _period(slug))
        assert response.status_code == 200
        report = response.context["report"]
        counted = [i for i in report.displayed if report.grid.values[i] > 0]
        hidden = report.hidden & set(counted)
        if slug != "insights":
            assert report.grid.keys["served"] not in report.hidden
        if slug in reports.ANNUAL:
            # A year is read with its quarters: a count that differs from a quarter's by fewer
            # than five people is hidden, which in a year of long cases is many.
            assert len(hidden) < len(counted), f"{slug}: {len(hidden)} of {len(counted)} hidden"
        else:
            assert len(hidden) * 2 < len(counted), f"{slug}: {len(hidden)} of {len(counted)}"
        assert b"<svg" in response.content
    assert AuditEvent.objects.filter(action="report.funder").count() == len(reports.REPORTS)
    # The demo shows the partners features in use.
    assert MeetingAction.objects.filter(status="open", due_on__lt=timezone.localdate()).exists()
    assert ServiceReferral.objects.filter(service_type="housing", state="accepted").exists()
    assert FollowUp.objects.filter(kind="referral_response").exists()
    assert any(d.gender_identity == DECLINED for d in Demographics.objects.all()[:200])
    assert admin.membership.agency.partner_settings.lawful_basis


def test_reports_count_one_agency_and_hide_what_would_give_a_small_count_away(cast, login):
    for n in range(7):
        _backdated(f.open_case(cast.team1, reference=f"R-{n}"))
    for n in range(3):
        _backdated(f.open_case(cast.other_agency_team, reference=f"B-{n}"))
    report = reports.release("hud", cast.agency.pk, _last_year())
    served = Case.objects.filter(agency=cast.agency, reference__startswith="R-").count()
    q5a = report.sections[0]
    assert [c.text for _label, c in ((r.label, report.shown(r.cells[0])) for r in q5a.rows)][
        -1
    ] == str(served)
    # Every survivor's age is "not asked": one cell holds everyone, the rest are zero.
    age = next(s for s in report.sections if s.code == "Q11")
    texts = [report.shown(r.cells[0]).text for r in age.rows]
    assert texts[-2] == str(served) and texts[-1] == str(served)
    # Q22a1: every one a stayer, in the band of the days from opening to the year's last day.
    period = _last_year()
    opened = Case.objects.filter(reference="R-0").get().opened_at.date()
    band = reports.hud_length_band((period.end - opened).days)
    q22 = next(s for s in report.sections if s.code == "Q22a1")
    assert q22.columns == ["Total", "Leavers", "Stayers"]
    length = {r.label: [report.shown(c).text for c in r.cells] for r in q22.rows}
    label = next(label for code, label, _most in reports.HUD_LENGTHS if code == band)
    assert length[label] == [str(served), "0", str(served)]
    assert length["Total"] == [str(served), "0", str(served)]
    csv = login(cast.auditor).get(reverse("reporting:csv", args=["hud"]), _period("hud"))
    body = csv.content.decode()
    assert "Q5a" in body and "Total number of persons served" in body
    assert "Client Doesn't Know/Prefers Not to Answer" in body
    # HUD's name of Q5a's rows' column, in the CSV and on the preview; Q11's has none.
    assert "Q5a\r\nCategory,Count of Clients\r\n" in body and "Q11\r\n,Total\r\n" in body
    page = login(cast.auditor).get(reverse("reporting:preview", args=["hud"]), _period("hud"))
    assert '<th scope="col">Category</th>' in page.content.decode()


def test_advocates_cannot_run_funder_reports(cast, login):
    response = login(cast.assigned).get(reverse("reporting:preview", args=["voca"]))
    assert response.status_code == 403
    assert not AuditEvent.objects.filter(action="report.funder").exists()


def test_funder_reports_count_languages_served_and_interpreter_use(cast):
    from caseflow.cases.models import PartyRole

    spoken = ["es,en"] * 6 + ["pl"] * 6 + [""] * 5
    for n, languages in enumerate(spoken):
        case = _backdated(f.open_case(cast.team1, reference=f"L-{n}"))
        party = f.add_party(case, PartyRole.SURVIVOR, full_name=f"Survivor {n}")
        party.languages = languages
        party.interpreter_language = "pl" if languages == "pl" else ""
        party.save()
    served = len(spoken)
    for slug in ("voca", "fvpsa"):
        period = reports.periods(reports.REPORTS[slug].period, timezone.localdate())[0]
        report = reports.release(slug, cast.agency.pk, period)
        preferred = next(s for s in report.sections if s.title == "Preferred language")
        rows = {r.label: report.shown(r.cells[0]).text for r in preferred.rows}
        # The first language each survivor speaks, each person once; the rest not recorded.
        assert rows["Spanish"] == "6" and rows["Polish"] == "6"
        assert "English" not in rows
        assert rows["People served"] == str(served)
        interpreters = next(
            s for s in report.sections if s.title == "Interpreter needed, by language"
        )
        rows = {r.label: report.shown(r.cells[0]).text for r in interpreters.rows}
        assert rows["Polish"] == "6"
        assert rows["No interpreter recorded"] == str(served - 6)


def test_a_report_is_run_for_a_period_from_its_list_not_for_free_dates(cast, login):
    _backdated(f.open_case(cast.team1, reference="P-1"))
    client = login(cast.auditor)
    page = client.get(reverse("reporting:preview", args=["voca"]))
    assert page.status_code == 200 and page.context["report"] is None
    latest = reports.periods("federal_quarter", timezone.localdate())[0]
    # The latest quarter that has ended is chosen, named in plain words.
    assert f'value="{latest.start.isoformat()}" selected'.encode() in page.content
    assert "of the federal year" in latest.label
    assert b'name="start"' not in page.content
    # A day that does not start one of the quarters is a form error, and nothing is counted.
    odd = client.get(reverse("reporting:preview", args=["voca"]), {"period": "2025-10-02"})
    assert odd.status_code == 200 and odd.context["report"] is None
    assert "Choose one of the periods in the list." in odd.content.decode()
    csv = client.get(reverse("reporting:csv", args=["hud"]), {"period": "2025-10-02"})
    assert csv.status_code == 302
    assert not AuditEvent.objects.filter(action="report.funder").exists()
    with pytest.raises(ValueError):
        services.funder_report(
            actor=cast.auditor,
            slug="hud",
            period=reports.Period(dt.date(2025, 1, 1), dt.date(2025, 6, 30), "free"),
            fmt="preview",
        )


def _cell(report, key: str) -> int:
    return report.grid.values[report.grid.keys[key]]


def test_the_language_breakdowns_count_each_survivor_once_by_their_first_language(cast):
    from caseflow.cases.models import PartyRole

    for case, languages, interpreter in (
        (f.open_case(cast.team1, reference="L-1"), "es,en", "es"),
        (f.open_case(cast.team1, reference="L-2"), "es", ""),
        (f.open_case(cast.team2, reference="L-3"), "pl", "pl"),
        (f.open_case(cast.other_agency_team, reference="L-4"), "fr", "fr"),
    ):
        party = f.add_party(case, PartyRole.SURVIVOR, full_name=f"Survivor {case.reference}")
        party.languages, party.interpreter_language = languages, interpreter
        party.save()
    period = reports.Period(
        timezone.localdate().replace(month=1, day=1), timezone.localdate(), "this year"
    )
    report = reports.build("voca", cast.agency.pk, period)
    # The report's numbers are the definition: the first language only, the agency's cases only.
    assert (_cell(report, "language:es"), _cell(report, "language:pl")) == (2, 1)
    assert "language:en" not in report.grid.keys and "language:fr" not in report.grid.keys
    assert (_cell(report, "interpreter:es"), _cell(report, "interpreter:pl")) == (1, 1)


def test_needs_met_in_the_period_are_counted_by_their_status_now(cast):
    import datetime as dt

    import time_machine

    from caseflow.casework import needs
    from caseflow.casework.models import NeedStatus
    from tests.casework.helpers import make_need

    with time_machine.travel(timezone.now(), tick=False):
        kept = make_need(cast.case, cast.assigned, kind="housing")
        back = make_need(cast.case, cast.assigned, kind="money")
        make_need(cast.foreign_case, cast.other_agency, kind="housing")
        for need in (kept, back):
            needs.need_set_status(
                actor=cast.assigned,
                need=need,
                expected_version=need.version,
                status=NeedStatus.MET,
            )
        # Met, then open again: the report counts the need as it stands, not its history.
        back.refresh_from_db()
        needs.need_set_status(
            actor=cast.assigned,
            need=back,
            expected_version=back.version,
            status=NeedStatus.IN_PROGRESS,
        )
        today = timezone.localdate()
        period = reports.Period(today - dt.timedelta(days=30), today, "the last month")
        report = reports.build("insights", cast.agency.pk, period)
    assert _cell(report, "needs_met:housing") == 1
    assert _cell(report, "needs_met:money") == 0
    assert _cell(report, "needs_met:total") == 1


@time_machine.travel(dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC), tick=False)
@pytest.mark.demo
def test_the_demo_reports_show_numbers_across_the_bands_and_the_services(login):
    """A first showing to a funder: the latest periods of the demo's reports count people of
    working age and of several backgrounds, hotline calls (anonymous ones among them), services
    in the funders' categories, shelter nights and turn-aways, and payments."""
    seed.seed()
    agency = User.objects.get(username="ada.admin").membership.agency.pk
    today = timezone.localdate()

    def value(report: reports.FunderReport, key: str) -> int:
        return report.grid.values[report.grid.keys[key]]

    quarter = reports.periods("federal_quarter", today)[0]
    voca = reports.release("voca", agency, quarter)
    year = reports.release("fvpsa", agency, reports.periods("federal_year", today)[0])
    for report in (voca, year):
        assert value(report, "demo:age_band:25_34+35_44+45_54+55_59") >= 20
        for race in ("white", "black", "hispanic"):
            assert value(report, f"demo:race_ethnicity:{race}") >= 5, race
        assert value(report, "demo:gender_identity:man") > 0
        assert value(report, "calls:anonymous") >= 5
        assert value(report, "calls:total") >= 20
        # Services in the funders' categories: calls as hotline counselling, notes as support.
        assert value(report, "service_categories:voca_c2") >= 5
        assert value(report, "service_categories:insights_emotional") >= 5
        assert value(report, "service_categories:total") >= 20
    assert value(year, "shelter:nights") >= 20
    assert value(year, "shelter:turn_aways") > 0
    assert value(year, "beds:beds") >= 5
    shown = {s.title: [year.shown(r.cells[0]).text for r in s.rows] for s in year.sections}
    assert shown["Bed count"] != ["*"]
    # Community education for every audience, and outcome surveys answered each way, shown.
    for audience in ("young_people", "adults", "professionals"):
        assert value(year, f"education_sessions:{audience}") >= 3, audience
        assert value(year, f"education_people:{audience}") >= 20, audience
    for statement in ("safety", "resources"):
        assert value(year, f"outcome_{statement}:yes:*") >= 50
        assert value(year, f"outcome_{statement}:no:*") >= 5
        assert year.shown(year.grid.keys[f"outcome_{statement}:yes:*"]).text != "*"
    assert value(year, "outcome_surveys:total") >= 100
    # HUD's entry and exit questions, from the survivors' answers: figures, not only "*".
    hud_year = reports.release("hud", agency, reports.periods("federal_year", today)[0])
    codes = [s.code for s in hud_year.sections]
    # In the order of HUD's tables (an emergency shelter: no Q22c).
    assert codes == [
        *("Q4a", "Q5a", "Q6a", "Q6b", "Q6c", "Q6d", "Q6e", "Q6f", "Q8a", "Q8b", "Q10a"),
        "Q10d",
        *("Q11", "Q12", "Q13a1", "Q13b1", "Q13c1", "Q13a2", "Q13b2", "Q13c2", "Q14a", "Q14b"),
        "Q15",
        *("Q16", "Q17", "Q18", "Q19a1", "Q19a2", "Q19b", "Q20a", "Q20b", "Q21", "Q22a1"),
        *("Q22a2", "Q22b", "Q22d"),
        *("Q22e", "Q22g", "Q23c", "Q23d", "Q25a", "Q25c", "Q25d", "Q25i"),
        *("Q25j", "Q26a", "Q26b", "Q26c", "Q26d"),
        *("Q26e", "Q26f", "Q26g", "Q26h", "Q27a", "Q27c", "Q27d", "Q27e", "Q27f1"),
        *("Q27f2", "Q27g", "Q27h", "Q27i", "Q27j", "Q27l"),
    ]
    # Income change: leavers whose income went up and down; the averages of those who had
    # more and of those who gained an income shown.
    for column in ("more", "less", "gained"):
        assert value(hud_year, f"q19a2:total:{column}") >= 5, column
    for column in ("more", "gained", "measure"):
        assert hud_year.shown(hud_year.grid.keys[f"q19a2:total:{column}:average"]).text != "*"
    assert value(hud_year, "q19a2:earned:more") >= 5
    assert value(hud_year, "q19a1:total") >= 5
    # Gender by age: the women and the men aged 25 to 64 are counted, the women's shown. The
    # men's 25 to 64 hide: the men are 1 aged 18 to 24, 1 aged 65 or over and the rest aged 25
    # to 64, so printed beside the men's total the count would leave 2 for the two "*", each
    # at least 1 (zeros are printed). The men's total (12) hides too: less the second
    # quarter's 8 men, printed, it would tell the 4 men of the year not served in that
    # quarter, which the rest of the year pins down (the reporting README).
    for gender, least in (("woman", 20), ("man", 5)):
        assert value(hud_year, f"q10d:{gender}:25_64") >= least
    assert hud_year.shown(hud_year.grid.keys["q10d:woman:25_64"]).text != "*"
    q10d = next(s for s in hud_year.sections if s.code == "Q10d")
    man = next(r for r in q10d.rows if r.label == "Man")
    whole, under_18, *men, unknown, not_collected = [hud_year.grid.values[c] for c in man.cells]
    assert (under_18, men[0], men[2], unknown, not_collected) == (0, 1, 1, 0, 0)
    assert whole == sum(men) and hud_year.shown(man.cells[0]).text == "*"
    assert hud_year.shown(man.cells[3]).text == "*"
    # The youth by gender: the women among them are counted. The 12 women aged 18 to 24 hide:
    # of the 14 youth of that age, 1 is a man and 1 declined, so printed beside the 14 they
    # would leave 2 for the two "*", each at least 1 (zeros are printed). The youth (21) hide
    # in every table: printed beside the 7 under 18, they would tell the 14 aged 18 to 24, and
    # with the second quarter's 10 of that age, the 4 of the year not served in that quarter.
    assert value(hud_year, "q27c:woman") >= 10
    q27c = next(s for s in hud_year.sections if s.code == "Q27c")
    assert q27c.rows[0].label == "Woman" and q27c.rows[-1].label == "Total"
    assert hud_year.grid.values[q27c.rows[-1].cells[0]] >= 10
    assert hud_year.shown(q27c.rows[-1].cells[0]).text == "*"
    assert hud_year.shown(q27c.rows[-1].cells[1]).value == 7
    women_18_24, men_18_24 = q27c.rows[0].cells[2], q27c.rows[1].cells[2]
    assert hud_year.grid.values[women_18_24] >= 10 and hud_year.grid.values[men_18_24] == 1
    assert hud_year.shown(women_18_24).text == "*"
    # Q5a's validations by age: the adults and the children counted and shown, the youth
    # counted (hidden, above).
    q5a = {r.label: r.cells[0] for r in next(s for s in hud_year.sections if s.code == "Q5a").rows}
    assert hud_year.shown(q5a["Number of adults (age 18 or over)"]).value >= 100
    assert hud_year.shown(q5a["Number of children (under age 18)"]).value == 7
    assert hud_year.grid.values[q5a["Number of youth under age 25"]] >= 10
    # The project as its admin described it, and its people served.
    (_label, q4a), *_rest = hud_year.table(hud_year.sections[0])
    assert [c.text for c in q4a[:5]] == [
        "Riverside Domestic Abuse Service",
        "RDAS-1",
        "Riverside Emergency Shelter",
        "RES-2027",
        "Emergency shelter, entry and exit",
    ]
    assert q4a[-1].value == q4a[-2].value == value(hud_year, "served") > 20
    # Q22b's figures about the leavers and the stayers, each group large enough to show them.
    q22b = hud_year.sections[codes.index("Q22b")]
    assert [c.text != "*" for _l, cells in hud_year.table(q22b) for c in cells] == [True] * 4
    # The quality of the records: the project has its CoC, and every rate is a percentage or
    # hidden with its count.
    q6b = dict(hud_year.table(hud_year.sections[codes.index("Q6b")]))
    assert [c.text for c in q6b["Enrollment CoC (3.16)"]] == ["0", "0.00%"]
    q6 = [
        cells
        for s in hud_year.sections[codes.index("Q6b") : codes.index("Q6d")]
        for _l, cells in hud_year.table(s)
    ]
    assert all(rate.text == "*" or rate.text.endswith("%") for _count, rate in q6)
    assert sum(1 for count, _rate in q6 if count.value and count.value >= 5) >= 2
    # Q6a: the people whose race or gender is not known, and the overall score, shown with its
    # rate: at least each row's total, at most both added up (a row's total hides where one of
    # its two cells does, as the few never asked their race are).
    q6a = next(s for s in hud_year.sections if s.code == "Q6a")
    race, gender, overall = (hud_year.grid.values[row.cells[-1]] for row in q6a.rows)
    assert max(race, gender) <= overall <= race + gender and min(race, gender) >= 5
    (_label, shown), *_rest = hud_year.table(q6a)[::-1]
    assert shown[3].value == overall and shown[4].text.endswith("%")
    assert all(c[4].text == "*" or c[4].text.endswith("%") for _l, c in hud_year.table(q6a))
    # Households by type, in the year and on the last Wednesday of each quarter's month.
    for key in ("q8a:children_and_adults", "q8a:without_children"):
        assert value(hud_year, key) >= 5, key
        assert hud_year.shown(hud_year.grid.keys[key]).value is not None, key
    assert sum(value(hud_year, f"q8b:{month}") for month, _l in reports.HUD_PIT_MONTHS) >= 20
    # The youth's living situations before, and their income at start (Q27d, Q27g, Q27h).
    for key in ("q27d:permanent", "q27g:earned:start", "q27h:stayers", "q27h:any:start"):
        assert value(hud_year, key) >= 5, key
        assert hud_year.shown(hud_year.grid.keys[key]).value is not None, key
    # Veterans, chronic homelessness and the subsidies of those who went to rent with one.
    for key in ("q25a:no", "q26b:no", "q20b:some:start", "q23d:hcv"):
        assert value(hud_year, key) >= 5, key
    for key in ("q25a:veteran", "q26b:yes", "q5a:veterans"):
        assert value(hud_year, key) > 0, key
    # The chronically homeless persons' conditions, income and benefits at start.
    for question, rows in (
        ("q26e", [code for code, _l in reports.HUD_CONDITIONS]),
        ("q26g", reports.HUD_INCOME_SOURCES),
        ("q26h", reports.HUD_BENEFITS),
    ):
        assert sum(value(hud_year, f"{question}:{row}:start") for row in rows) > 0, question
    # The stayers supported for more than a year, at their annual assessment; the rest not yet.
    for key in ("q21:one:annual", "q18:both:annual", "q20b:some:annual"):
        assert value(hud_year, key) > 0, key
    assert value(hud_year, "q16:not_required:annual") >= 5
    # The days from homelessness to support, for those who came from the street or a shelter.
    assert sum(value(hud_year, f"q22e:{code}") for code in ("30", "60", "180", "365")) > 0
    # The same by race and ethnicity (Q22g): a column large enough to show its figures.
    keys = hud_year.grid.keys
    assert value(hud_year, "q22g:moved:white") >= 5
    for figure in ("q22g:moved:white", "q22g:average:white", "q22g:median:white"):
        assert hud_year.shown(keys[figure]).value is not None, figure
    assert value(hud_year, "q22g:average:white") > 0
    for key in ("q14a:yes", "q15:temporary", "q23c:permanent", "q17:earned:start"):
        assert value(hud_year, key) >= 5, key
        assert hud_year.shown(hud_year.grid.keys[key]).value is not None, key
    assert value(hud_year, "q21:medicaid:start") >= 5
    # The days the answers were recorded after support began and after the exit (Q6e).
    timeliness = {
        label: [c.value for c in cells]
        for _s in hud_year.sections
        if _s.code == "Q6e"
        for label, cells in hud_year.table(_s)
    }
    assert (timeliness["0 days"][0] or 0) >= 5
    exits = [value(hud_year, f"q6e:{code}:exit") for code, _l, _m in reports.HUD_TIMELINESS]
    assert sum(exits) >= 5 and sum(1 for n in exits if n) >= 2, exits
    # Hillview runs rapid re-housing: the days its survivors waited to move into housing.
    hillview = User.objects.get(username="ivan.advocate").membership.agency.pk
    with zones.using(zones.agency_zone(Agency.objects.get(pk=hillview))):
        hill_year = reports.release(
            "hud", hillview, reports.periods("federal_year", timezone.localdate())[0]
        )
    # Nothing small can be worked out of either release, zeros read as zeros.
    assert small_counts_told(hud_year) == set()
    assert small_counts_told(hill_year) == set()
    # Nor by a reader who knows that Q19a's people are some of Q18's.
    assert told_by_q19a(hud_year) == told_by_q19a(hill_year) == set()
    # Nor by one who knows that each source, benefit, insurance and condition is some of
    # those with any.
    assert told_by_any_answer(hud_year) == told_by_any_answer(hill_year) == set()
    # Nor by one who knows that chronic homelessness needs a disabling condition.
    assert told_by_disabling(hud_year) == told_by_disabling(hill_year) == set()
    assert "Q22c" in [s.code for s in hill_year.sections]
    assert value(hill_year, "q22c:moved") >= 5
    assert hill_year.shown(hill_year.grid.keys["q22c:moved"]).value is not None
    assert value(hill_year, "q22c:average") > 0
    assert value(hill_year, "q22e:not_yet") > 0
    # By race and ethnicity (Q22f): its total column is Q22c's, shown with its median.
    hill = {s.code: s for s in hill_year.sections}
    q22f = [row.cells[0] for row in hill["Q22f"].rows]
    assert q22f[:3] == [
        hill_year.grid.keys[f"q22c:{k}"] for k in ("moved", "left_without", "average")
    ]
    assert hill_year.shown(q22f[3]).value is not None and value(hill_year, "q22f:median:total") > 0
    assert sum(value(hill_year, f"q22f:moved:{c}") for c, _l in reports.HUD_RACE_COLUMNS) >= 5
    assert value(hud_year, "q13a1:mental_health:total") > 0
    # The leavers' answers at exit, and the counts of conditions and kinds of income.
    for key in ("q20a:snap:exit", "q21:medicaid:exit", "q13b1:mental_health:total"):
        assert value(hud_year, key) > 0, key
    for key in ("q13a2:1", "q13b2:none", "q18:earned:start", "q18:earned:exit"):
        assert value(hud_year, key) > 0, key
    # The leavers with and without a disabling condition, by their income at exit (Q19b): the
    # unduplicated total shown, and a source's share of those with one.
    for key in ("q19b:total:with", "q19b:total:without"):
        assert value(hud_year, key) >= 5, key
        assert hud_year.shown(keys[key]).value is not None, key
    q19b = hud_year.table(hud_year.sections[codes.index("Q19b")])
    assert any(cells[-1].text.endswith("%") and cells[0].value for _l, cells in q19b)
