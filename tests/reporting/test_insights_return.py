"""The SafeLives Insights return: one coded row per exit of the quarter, for the survivors who
agreed to share anonymised data with SafeLives Insights, checked cell by cell against a seeded
population (and the exits that must not be in it: no answer, "did not agree", withdrawn, another
agency's, an exit outside the quarter); nothing identifying in its bytes; a reference stable per
case and different per agency; prepared in the background for its asker only, each included
case's audit trail told, each download audited with counts only."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import (
    Case,
    EpisodeStart,
    FieldSetting,
    IntakeField,
    PartyRole,
)
from caseflow.casework.models import Need, NeedStatus, NeedStatusChange
from caseflow.confidentiality import services as confidentiality
from caseflow.confidentiality.models import ResearchAnswer, ResearchConsent
from caseflow.outbox.models import Intent
from caseflow.partners.models import Demographics, MeetingReferral
from caseflow.reporting import reports, returns, services
from caseflow.reporting.models import PreparedReport, PreparedState
from caseflow.reporting.tasks import prepare_report
from tests import factories as f

pytestmark = pytest.mark.django_db

#: Every date here is pinned: the period list depends on today.
TODAY = dt.datetime(2026, 11, 20, 10, 0, tzinfo=dt.UTC)
#: The latest quarter given out on TODAY.
QUARTER = reports.calendar_quarter(dt.date(2026, 7, 1))

NAMES = {
    "A": "Amira Quince-Holloway",
    "B": "Bethany Marlowe-Pike",
    "C": "Cerys Oyelaran-Tate",
    "D": "Delphine Abernathy-Rusk",
    "E": "Esme Kowalczyk-Brand",
    "F": "Farah Lindqvist-Moor",
    "G": "Gwen Okonkwo-Vale",
}
DOB = dt.date(1987, 3, 14)


@pytest.fixture(autouse=True)
def pinned():
    with time_machine.travel(TODAY, tick=False) as traveller:
        yield traveller


def _at(day: str) -> dt.datetime:
    return dt.datetime.fromisoformat(f"{day}T12:00:00+00:00")


def _exit(case: Case, actor, *, opened: str, closed: str, **outcomes) -> None:
    """An episode of support opened and closed on those days, with its closure's outcomes."""
    outcomes.setdefault("risk_at_exit", "medium")
    f.close_episode(case, actor, opened=_at(opened), closed=_at(closed), **outcomes)


def _survivor(team, letter: str, assignee, **answers) -> Case:
    case = f.open_case(team, [assignee], reference=f"INS-{letter}", opened_at=_at("2025-01-10"))
    party = f.add_party(case, PartyRole.SURVIVOR, full_name=NAMES[letter], date_of_birth=DOB)
    if answers:
        Demographics(case=case, party=party, **answers).save()
    return case


@pytest.fixture
def seeded(cast):
    """Seven survivors: A and B agreed and left in the quarter; C was never asked, D did not
    agree, E agreed then withdrew (all three left in the quarter); F agreed and left in June;
    G agreed and left in the quarter, at another agency."""
    FieldSetting.objects.create(
        agency=cast.agency, field=IntakeField.DEMOGRAPHIC_ETHNIC_GROUP, hidden=False
    )
    actor = cast.assigned
    a = _survivor(
        cast.team1,
        "A",
        actor,
        age_band="25_34",
        gender_identity="woman",
        disability="yes",
        ethnic_group="asian_pakistani",
    )
    _exit(
        a,
        actor,
        opened="2026-05-01",
        closed="2026-08-14",
        reason="goals_met",
        abuse_change="stopped",
        feels_safer="yes",
        risk_at_intake="high",
        risk_at_exit="standard",
        quality_of_life_start=2,
        quality_of_life_exit=4,
    )
    # Housing met and money in progress by her exit (recorded before needs kept a history);
    # legal identified after it (not part of it).
    for kind, status, day in (
        ("housing", NeedStatus.MET, "2026-05-02"),
        ("money", NeedStatus.IN_PROGRESS, "2026-05-02"),
        ("legal", NeedStatus.IDENTIFIED, "2026-10-01"),
        ("children", NeedStatus.MET, "2026-05-02"),
    ):
        need = Need.objects.create(
            case=a,
            kind=kind,
            status=status,
            identified_on=dt.date.fromisoformat(day),
            recorded_by=actor,
        )
    # Children: identified before her exit and met after it, so not met at her exit.
    for status, day in ((NeedStatus.IDENTIFIED, "2026-05-02"), (NeedStatus.MET, "2026-10-02")):
        NeedStatusChange.objects.create(
            case=a,
            need=need,
            to_status=status,
            changed_on=dt.date.fromisoformat(day),
            changed_by=actor,
        )
    MeetingReferral.objects.create(
        case=a,
        route="assessment",
        basis="lawful_basis",
        meeting_name="Riverside MARAC",
        referred_on=dt.date(2026, 5, 10),
        referred_by=actor,
    )
    b = _survivor(cast.team1, "B", actor, age_band="45_54", gender_identity="woman")
    _exit(
        b,
        actor,
        opened="2026-09-20",
        closed="2026-09-29",
        start=EpisodeStart.RETURN,
        reason="moved_away",
        abuse_change="reduced",
        feels_safer="a_little",
        risk_at_intake="medium",
        risk_at_exit="medium",
    )
    c = _survivor(cast.team1, "C", actor, age_band="18_24")
    _exit(c, actor, opened="2026-06-01", closed="2026-07-03")
    d = _survivor(cast.team1, "D", actor)
    _exit(d, actor, opened="2026-06-01", closed="2026-07-04")
    e = _survivor(cast.team1, "E", actor)
    _exit(e, actor, opened="2026-06-01", closed="2026-07-05")
    fcase = _survivor(cast.team1, "F", actor, age_band="35_44")
    _exit(fcase, actor, opened="2026-02-01", closed="2026-06-30")
    g = _survivor(cast.other_agency_team, "G", cast.other_agency, age_band="25_34")
    _exit(g, cast.other_agency, opened="2026-06-01", closed="2026-08-01")
    for case in (a, b, e, fcase):
        confidentiality.research_consent_save(actor=actor, case=case, agrees=True)
    confidentiality.research_consent_save(actor=actor, case=d, agrees=False)
    confidentiality.research_consent_save(actor=actor, case=e, agrees=False)
    confidentiality.research_consent_save(actor=cast.other_agency, case=g, agrees=True)
    return {"A": a, "B": b, "C": c, "D": d, "E": e, "F": fcase, "G": g}


def _table(data: bytes) -> tuple[list[list[str]], list[dict[str, str]]]:
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    head, blank, columns, *body = rows[:3], rows[3], rows[4], *rows[5:]
    assert blank == []
    return head, [dict(zip(columns, row, strict=True)) for row in body]


def test_the_return_cell_by_cell(cast, seeded):
    built = returns.build(cast.agency.pk, QUARTER)
    head, rows = _table(built.csv_bytes())
    assert head == [
        ["SafeLives Insights return", "July to September 2026"],
        ["Exits in this file", "2"],
        ["Exits left out: no agreement to share with SafeLives Insights", "3"],
    ]
    assert built.left_out == 3  # C (never asked), D (did not agree), E (withdrew)
    assert sorted(built.case_ids) == sorted([seeded["A"].pk, seeded["B"].pk])
    assert rows == [
        {
            "reference": returns.pseudonym(cast.agency.pk, seeded["A"].pk),
            "exit_month": "2026-08",
            "referral_type": "referral",
            "age_band": "25_34",
            "gender": "woman",
            "ethnic_group": "asian",
            "disability": "yes",
            "risk_at_intake": "high",
            "risk_at_exit": "standard",
            "referred_to_marac": "yes",
            "need_housing": "met",
            "need_money": "not_met",
            "need_children": "not_met",
            "need_immigration": "none",
            "need_health": "none",
            "need_legal": "none",
            "need_technology": "none",
            "need_emotional": "none",
            "need_substance": "none",
            "need_other": "none",
            "length_of_support": "3_to_6_months",
            "exit_reason": "goals_met",
            "abuse_change": "stopped",
            "feels_safer": "yes",
            "quality_of_life_start": "2",
            "quality_of_life_exit": "4",
        },
        {
            "reference": returns.pseudonym(cast.agency.pk, seeded["B"].pk),
            "exit_month": "2026-09",
            "referral_type": "return",
            "age_band": "45_54",
            "gender": "woman",
            "ethnic_group": "not_asked",
            "disability": "not_asked",
            "risk_at_intake": "medium",
            "risk_at_exit": "medium",
            "referred_to_marac": "no",
            **{f"need_{kind}": "none" for kind in returns.NeedKind.values},
            "length_of_support": "under_1_month",
            "exit_reason": "moved_away",
            "abuse_change": "reduced",
            "feels_safer": "a_little",
            "quality_of_life_start": "not_recorded",
            "quality_of_life_exit": "not_recorded",
        },
    ]


def test_an_agency_that_does_not_ask_the_census_groups_sends_not_asked(cast, seeded):
    FieldSetting.objects.filter(agency=cast.agency).update(hidden=True)
    _head, rows = _table(returns.build(cast.agency.pk, QUARTER).csv_bytes())
    assert [row["ethnic_group"] for row in rows] == ["not_asked", "not_asked"]


def test_nothing_identifying_is_in_the_bytes(cast, seeded):
    data = returns.build(cast.agency.pk, QUARTER).csv_bytes()
    text = data.decode("utf-8")
    assert text.count("\n") == 7  # the file is not empty: the checks below could fail
    for case in seeded.values():
        assert case.public_id not in text
        assert case.reference not in text
        assert str(case.pk) not in text.split(",")
    for name in NAMES.values():
        for part in name.replace("-", " ").split():
            assert part not in text
    # Dates are looked for outside the pseudonymous reference: a keyed hash in hexadecimal may
    # hold "1987" by chance (it is checked to be that hash in the next test).
    lines = list(csv.reader(io.StringIO(text)))
    body = lines[5:]
    assert len(body) == 2 and all(len(row[0]) == 32 for row in body)
    fields = "\n".join(",".join(row) for row in lines[:5]) + "\n".join(
        ",".join(row[1:]) for row in body
    )
    for shown in (DOB.isoformat(), "1987", "14/03", "03/14", "2026-08-14", "2026-05-01"):
        assert shown not in fields


def test_the_reference_is_stable_and_differs_between_agencies(cast, seeded):
    a = seeded["A"].pk
    first = returns.build(cast.agency.pk, QUARTER)
    again = returns.build(cast.agency.pk, QUARTER)
    assert first.rows[0][0] == again.rows[0][0] == returns.pseudonym(cast.agency.pk, a)
    assert returns.pseudonym(cast.agency.pk, a) != returns.pseudonym(cast.foreign_case.agency_id, a)
    assert len(returns.pseudonym(cast.agency.pk, a)) == 32


def test_the_reference_depends_on_the_server_key(cast, seeded, settings):
    before = returns.pseudonym(cast.agency.pk, seeded["A"].pk)
    settings.BLIND_INDEX_KEY = "another deployment's key"
    assert returns.pseudonym(cast.agency.pk, seeded["A"].pk) != before


def test_the_other_agency_has_its_own_return(cast, seeded):
    theirs = returns.build(cast.foreign_case.agency_id, QUARTER)
    assert theirs.case_ids == [seeded["G"].pk]
    assert theirs.left_out == 0


# --- Her answer ----------------------------------------------------------------------------------


def test_her_answer_is_recorded_changed_and_audited_by_code(cast, login):
    case = cast.case
    f.add_party(case, PartyRole.SURVIVOR, full_name="Someone")
    client = login(cast.assigned)
    url = reverse("confidentiality:research_consent", args=[case.public_id])
    page = client.get(url)
    assert page.status_code == 200
    assert "Not asked" in page.content.decode()
    refused = client.post(url, {"agrees": "maybe"})
    assert refused.status_code == 200
    assert "Select a valid choice" in refused.content.decode()
    assert not ResearchConsent.objects.exists()
    response = client.post(url, {"agrees": "yes"})
    assert response.status_code == 302
    consent = ResearchConsent.objects.get(case=case)
    assert (consent.answer, consent.recorded_by) == (ResearchAnswer.AGREED, cast.assigned)
    client.post(url, {"agrees": "no"})
    consent.refresh_from_db()
    assert consent.answer == ResearchAnswer.WITHDRAWN
    events = list(
        AuditEvent.objects.filter(action="research_consent.save", case_id=case.pk).order_by("pk")
    )
    assert [e.detail for e in events] == [{"answer": "agreed"}, {"answer": "withdrawn"}]
    detail = client.get(reverse("cases:detail", args=[case.public_id])).content.decode()
    assert "Agreed, then withdrew" in detail


def test_no_after_never_agreeing_is_did_not_agree(cast):
    consent = confidentiality.research_consent_save(
        actor=cast.assigned, case=cast.case, agrees=False
    )
    assert consent.answer == ResearchAnswer.DECLINED


def test_her_answer_is_casework(cast, login):
    url = reverse("confidentiality:research_consent", args=[cast.case.public_id])
    assert login(cast.other_team).post(url, {"agrees": "yes"}).status_code == 404
    assert login(cast.auditor).post(url, {"agrees": "yes"}).status_code == 404
    assert login(cast.assigned).put(url).status_code == 405
    assert not ResearchConsent.objects.exists()


# --- Prepared in the background, for its asker only ----------------------------------------------


def _start(client, django_capture_on_commit_callbacks) -> PreparedReport:
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(
            reverse("reporting:insights_return"), {"period": QUARTER.start.isoformat()}
        )
    prepared = PreparedReport.objects.get()
    assert response["Location"] == reverse("reporting:prepared", args=[prepared.public_id])
    assert len(callbacks) == 1
    return prepared


def _run() -> None:
    intent = Intent.objects.filter(completed_at__isnull=True).latest("pk")
    prepare_report(**intent.kwargs, intent_id=intent.pk)


def test_a_supervisor_prepares_and_downloads_it_and_the_cases_are_told(
    cast, seeded, login, django_capture_on_commit_callbacks
):
    client = login(cast.supervisor)
    assert client.get(reverse("reporting:insights_return")).status_code == 200
    prepared = _start(client, django_capture_on_commit_callbacks)
    assert (prepared.slug, prepared.period_start) == (returns.SLUG, QUARTER.start)
    intent = Intent.objects.get(completed_at__isnull=True)
    assert set(intent.kwargs) == {"report_id"}  # ids only
    _run()
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.READY
    assert prepared.counts == {"rows": 2, "left_out": 3}
    assert bytes(prepared.result) != prepared.opened()  # sealed
    told = AuditEvent.objects.filter(action="report.insights_return")
    assert sorted(told.values_list("case_id", flat=True)) == sorted(
        [seeded["A"].pk, seeded["B"].pk]
    )
    assert {tuple(sorted(e.detail)) for e in told} == {("from", "to")}
    page = client.get(reverse("reporting:prepared", args=[prepared.public_id])).content.decode()
    assert "Left out: no agreement to share" in page
    response = client.get(reverse("reporting:prepared_download", args=[prepared.public_id]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="caseflow-insights_return.csv"'
    assert response.content == returns.build(cast.agency.pk, QUARTER).csv_bytes()
    download = AuditEvent.objects.get(action="report.prepared_download")
    assert download.detail == {
        "report": returns.SLUG,
        "from": "2026-07-01",
        "to": "2026-09-30",
        "format": "csv",
        "rows": 2,
        "left_out": 3,
    }
    # The case's audit, as a supervisor reads it, says so.
    audit = client.get(reverse("audit:case", args=[seeded["A"].public_id]))
    assert "Put into a SafeLives Insights return" in audit.content.decode()


def test_only_its_asker_sees_it_and_advocates_cannot_ask(
    cast, seeded, login, django_capture_on_commit_callbacks
):
    prepared = _start(login(cast.supervisor), django_capture_on_commit_callbacks)
    _run()
    for url in (
        reverse("reporting:prepared", args=[prepared.public_id]),
        reverse("reporting:prepared_download", args=[prepared.public_id]),
    ):
        assert login(cast.other_supervisor).get(url).status_code == 404
        assert login(cast.assigned).get(url).status_code == 404
    advocate = login(cast.assigned)
    assert advocate.get(reverse("reporting:insights_return")).status_code == 403
    refused = advocate.post(
        reverse("reporting:insights_return"), {"period": QUARTER.start.isoformat()}
    )
    assert refused.status_code == 403
    assert login(cast.coalition).get(reverse("reporting:insights_return")).status_code == 403
    assert not AuditEvent.objects.filter(action="report.prepared_download").exists()


def test_a_period_not_given_out_is_refused(cast, seeded, login):
    client = login(cast.supervisor)
    response = client.post(reverse("reporting:insights_return"), {"period": "2026-08-01"})
    assert response.status_code == 200
    assert "Choose one of the periods in the list." in response.content.decode()
    assert not PreparedReport.objects.exists()
    with pytest.raises(ValueError):
        services.prepared_start(
            actor=cast.supervisor,
            slug=returns.SLUG,
            period=reports.Period(dt.date(2026, 7, 1), dt.date(2026, 8, 31), ""),
        )


def test_a_worker_killed_half_way_leaves_nothing(
    cast, seeded, login, django_capture_on_commit_callbacks, monkeypatch
):
    prepared = _start(login(cast.supervisor), django_capture_on_commit_callbacks)
    services.prepared_claim(report_id=prepared.pk)

    def killed(*args, **kwargs):
        raise SystemExit("the worker was killed")

    monkeypatch.setattr(returns.PersonReturn, "csv_bytes", killed)
    with pytest.raises(SystemExit):
        services.prepared_compute(report_id=prepared.pk)
    prepared.refresh_from_db()
    assert prepared.result is None
    assert prepared.state == PreparedState.RUNNING
    assert not AuditEvent.objects.filter(action="report.insights_return").exists()


def test_an_asker_who_no_longer_runs_reports_gets_nothing(
    cast, seeded, login, django_capture_on_commit_callbacks
):
    prepared = _start(login(cast.supervisor), django_capture_on_commit_callbacks)
    membership = cast.supervisor.membership
    membership.role = "advocate"
    membership.save()
    _run()
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.FAILED
    assert prepared.result is None
    assert not AuditEvent.objects.filter(action="report.insights_return").exists()


@time_machine.travel(TODAY, tick=False)
def test_a_quarter_with_no_exits_is_an_empty_file(cast):
    built = returns.build(cast.agency.pk, QUARTER)
    assert (built.rows, built.left_out) == ([], 0)
    _head, rows = _table(built.csv_bytes())
    assert rows == []


@pytest.mark.demo
def test_the_demo_return_has_rows_and_leaves_some_out():
    """The UK demo agency (Riverside, which asks the census's ethnic groups) recorded most of
    its leavers' answers: its latest quarter's return has rows, coded, and leaves some out."""
    from caseflow.accounts.models import User
    from caseflow.demo import seed

    seed.seed()
    agency = User.objects.get(username="ada.admin").membership.agency.pk
    quarter = reports.periods("quarter", timezone.localdate())[0]
    built = returns.build(agency, quarter)
    assert len(built.rows) >= 10
    assert 0 < built.left_out < len(built.rows)
    _head, rows = _table(built.csv_bytes())
    assert {row["ethnic_group"] for row in rows} - {"not_asked", "declined"}
    assert {row["age_band"] for row in rows} - {"not_asked", "declined"}
