"""HUD's entry and exit answers of an episode of support: hidden until the agency shows the
section (a hidden section refuses what is posted), saved encrypted with the case key in one
token, audited, shown in words, and refused with a form error for bad input."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from caseflow.audit.models import AuditEvent
from caseflow.cases.fields import agency_field_config
from caseflow.cases.models import Episode, IntakeField
from caseflow.confidentiality import narratives
from caseflow.confidentiality import services as purges
from caseflow.confidentiality.models import PurgeProposal, PurgeScope
from caseflow.confidentiality.services import field_settings_save
from caseflow.partners import hud, services
from caseflow.partners.models import HudAnswers
from tests.confidentiality.helpers import close, fresh

pytestmark = pytest.mark.django_db

HUD = IntakeField.HUD_ANSWERS
DNC = hud.NOT_COLLECTED


@pytest.fixture
def episode(cast):
    return Episode.objects.create(case=cast.case, number=1, opened_at=cast.case.opened_at)


@pytest.fixture
def shown(cast):
    field_settings_save(actor=cast.agency_admin, values={HUD: (False, "")})


def _url(cast):
    return reverse("partners:hud_answers", args=[cast.case.public_id])


def _data(**answers):
    """A complete post: every question "data not collected" unless given."""
    data = {"version": 0, **{k: v for k, v in hud.blank().items() if v}}
    data.update(answers)
    return data


def test_every_question_offers_hud_unknown_answers():
    choices = [e for e in hud.ELEMENTS if e.kind == "choice"]
    assert len(choices) == 24
    for element in choices:
        codes = [code for code, _label in element.answers()]
        assert codes[-3:] == [hud.DONT_KNOW, hud.PREFERS_NOT, hud.NOT_COLLECTED]
    assert [e.after for e in hud.ELEMENTS if e.kind == "many"] == [
        "income_any",
        "benefits_any",
        "insurance_any",
        "conditions_any",
        "exit_income_any",
        "exit_benefits_any",
        "exit_insurance_any",
        "exit_conditions_any",
        "annual_income_any",
        "annual_benefits_any",
        "annual_insurance_any",
        "annual_conditions_any",
    ]


def test_each_earned_part_names_the_sources_and_the_total_of_its_own_stage():
    elements = {e.name: e for e in hud.ELEMENTS}
    earned = [e for e in hud.ELEMENTS if e.total]
    assert [e.name for e in earned] == [
        "income_earned_amount",
        "exit_income_earned_amount",
        "annual_income_earned_amount",
    ]
    for element in earned:
        prefix = element.name.removesuffix("income_earned_amount")
        assert element.kind == "amount"
        assert element.after == f"{prefix}income_sources"
        assert element.total == f"{prefix}income_amount"
        assert elements[element.total].kind == "amount"
        assert elements[element.total].stage == element.stage == elements[element.after].stage


def test_the_section_is_hidden_until_the_agency_shows_it(cast, login, episode):
    assert agency_field_config(cast.agency.pk)[HUD]["hidden"] is True
    client = login(cast.assigned)
    assert client.get(_url(cast)).status_code == 404
    case_page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert _url(cast) not in case_page
    # Posted values are refused, by the page and by the service.
    assert client.post(_url(cast), _data(prior_living="safe_haven")).status_code == 404
    with pytest.raises(PermissionDenied):
        services.hud_answers_save(
            actor=cast.assigned, case=cast.case, values={"dv_history": "yes"}, expected_version=0
        )
    assert not HudAnswers.objects.exists()
    # Shown: the case page links to it.
    field_settings_save(actor=cast.agency_admin, values={HUD: (False, "")})
    case_page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert _url(cast) in case_page
    assert client.get(_url(cast)).status_code == 200
    # Another agency's setting is its own.
    assert agency_field_config(cast.other_agency_team.agency_id)[HUD]["hidden"] is True


def test_an_advocate_records_the_answers_sealed_and_audited(cast, login, episode, shown):
    client = login(cast.assigned)
    page = client.get(_url(cast))
    assert page.status_code == 200
    assert AuditEvent.objects.filter(action="hud_answers.view", case_id=cast.case.pk).count() == 1
    response = client.post(
        _url(cast),
        _data(
            prior_living="family_temporary",
            prior_length="week_to_month",
            dv_history="yes",
            dv_when="within_3_months",
            dv_fleeing="yes",
            income_any="yes",
            income_amount="1250.5",
            income_sources=["earned", "child_support"],
            insurance_any="yes",
            insurance_sources=["medicaid"],
            exit_insurance_any="yes",
            exit_insurance_sources=["medicaid", "employer"],
            exit_conditions_any="yes",
            exit_conditions=["mental_health"],
        ),
    )
    assert response.status_code == 302
    row = HudAnswers.objects.get(episode=episode)
    row.case = cast.case
    assert row.answers["prior_living"] == "family_temporary"
    assert row.answers["income_amount"] == "1250.50"
    assert row.answers["income_sources"] == ["earned", "child_support"]
    assert row.answers["destination"] == hud.NOT_COLLECTED
    assert row.answers["exit_insurance_sources"] == ["medicaid", "employer"]
    assert row.answers["exit_conditions"] == ["mental_health"]
    assert row.answers["exit_benefits_any"] == hud.NOT_COLLECTED
    assert row.version == 1
    # One token, and no answer in the clear.
    with connection.cursor() as cursor:
        cursor.execute("SELECT answers FROM partners_hudanswers WHERE id = %s", [row.pk])
        stored = cursor.fetchone()[0]
    assert "family_temporary" not in stored and "1250" not in stored
    event = AuditEvent.objects.get(action="hud_answers.save", case_id=cast.case.pk)
    assert "family_temporary" not in str(event.detail)
    assert "prior_living" in event.detail["changed"]
    # Shown in words to a colleague who may only read it... and in the form to its advocate.
    body = client.get(_url(cast)).content.decode()
    assert "Staying with family, for a while" in body


def test_a_supervisor_without_edit_reads_the_answers_in_words(cast, login, episode, shown):
    services.hud_answers_save(
        actor=cast.assigned,
        case=cast.case,
        values={"income_any": "yes", "income_amount": "900.00", "income_sources": ["ssi"]},
        expected_version=0,
    )
    row = services.hud_answers_of(cast.case)
    assert row is not None
    words = dict(hud.shown(row.answers))
    assert words["Total monthly income (dollars)"] == "$900.00"
    assert words["Sources of income"] == "Supplemental Security Income (SSI)"
    assert words["Where they went (destination)"] == "Data not collected"
    assert words["Has a disabling condition at exit"] == "Data not collected"
    assert words["Health insurance at exit"] == "—"


@pytest.mark.parametrize(
    ("answers", "field"),
    [
        ({"income_any": "yes", "income_amount": "-20"}, "income_amount"),
        ({"income_any": "yes", "income_amount": "12O0"}, "income_amount"),
        ({"income_any": "yes", "income_amount": "twelve"}, "income_amount"),
        ({"exit_income_any": "yes", "exit_income_amount": "1e400"}, "exit_income_amount"),
        ({"income_any": "no", "income_sources": ["earned"]}, "income_sources"),
        ({"prior_living": "castle"}, "prior_living"),
        ({"benefits_any": "yes", "benefits_sources": ["gold"]}, "benefits_sources"),
        ({"exit_benefits_any": "no", "exit_benefits_sources": ["snap"]}, "exit_benefits_sources"),
        ({"exit_insurance_any": "maybe"}, "exit_insurance_any"),
        ({"exit_insurance_any": "yes", "exit_insurance_sources": ["x"]}, "exit_insurance_sources"),
        ({"exit_conditions_any": DNC, "exit_conditions": ["drug"]}, "exit_conditions"),
        ({"homeless_since": "1926-05-01"}, "homeless_since"),
        ({"homeless_since": "2099-01-01"}, "homeless_since"),
        ({"homeless_since": "31/02/2024"}, "homeless_since"),
        ({"months_homeless": "13"}, "months_homeless"),
        ({"veteran": "sometimes"}, "veteran"),
        # A subsidy only for a rental with an ongoing subsidy.
        ({"destination": "rental_no_subsidy", "destination_subsidy": "hcv"}, "destination_subsidy"),
        # The earned part of the income: only with earned income among the sources, and no
        # more than the total.
        (
            {
                "income_any": "yes",
                "income_amount": "900",
                "income_sources": ["ssi"],
                "income_earned_amount": "400",
            },
            "income_earned_amount",
        ),
        (
            {
                "exit_income_any": "yes",
                "exit_income_amount": "900",
                "exit_income_sources": ["earned", "tanf"],
                "exit_income_earned_amount": "950",
            },
            "exit_income_earned_amount",
        ),
        ({"annual_income_earned_amount": "-3"}, "annual_income_earned_amount"),
    ],
)
def test_bad_input_is_a_form_error(cast, login, episode, shown, answers, field):
    client = login(cast.assigned)
    response = client.post(_url(cast), _data(**answers))
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not HudAnswers.objects.exists()


def test_the_earned_part_of_an_income_is_kept_beside_its_total(cast, login, episode, shown):
    client = login(cast.assigned)
    page = client.get(_url(cast)).content.decode()
    assert "Of that, monthly earned income from work (dollars)" in page
    response = client.post(
        _url(cast),
        _data(
            income_any="yes",
            income_amount="1200",
            income_sources=["earned", "child_support"],
            income_earned_amount="850",
        ),
    )
    assert response.status_code == 302
    row = services.hud_answers_of(cast.case)
    assert row is not None
    assert row.answers["income_earned_amount"] == "850.00"
    assert hud.income_amounts(row.answers, "") == (850, 350, 1200)
    words = dict(hud.shown(row.answers))
    assert words["Of that, monthly earned income from work (dollars)"] == "$850.00"
    # The message says what is wrong, on the field, and nothing saved is lost.
    response = client.post(
        _url(cast),
        _data(
            version=1,
            income_any="yes",
            income_amount="1200",
            income_sources=["child_support"],
            income_earned_amount="850",
        ),
    )
    assert response.status_code == 200
    assert response.context["form"].errors["income_earned_amount"] == [
        "Give the earned income only when earned income is among the sources ticked."
    ]
    assert services.hud_answers_of(cast.case).answers["income_earned_amount"] == "850.00"
    # The service refuses the same (an import, a script).
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.hud_answers_save(
            actor=cast.assigned,
            case=cast.case,
            values={
                **row.answers,
                "income_amount": "800.00",
                "income_earned_amount": "850.00",
            },
            expected_version=1,
        )


def test_the_service_refuses_codes_outside_the_lists(cast, episode, shown):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.hud_answers_save(
            actor=cast.assigned,
            case=cast.case,
            values={"income_amount": "-5"},
            expected_version=0,
        )
    with pytest.raises(ValidationError):
        services.hud_answers_save(
            actor=cast.assigned, case=cast.case, values={"dv_when": "never"}, expected_version=0
        )
    # A stale save is refused.
    services.hud_answers_save(
        actor=cast.assigned, case=cast.case, values={"dv_history": "no"}, expected_version=0
    )
    with pytest.raises(ValidationError):
        services.hud_answers_save(
            actor=cast.assigned, case=cast.case, values={"dv_history": "yes"}, expected_version=0
        )


def test_homelessness_cannot_begin_after_support_began(cast, login, episode, shown):
    """The day homelessness began is at most the day support began: a later one is refused on
    the form, with the day support began, and nothing is saved."""
    now = timezone.now()
    Episode.objects.filter(pk=episode.pk).update(opened_at=now - dt.timedelta(days=30))
    later = timezone.localdate(now - dt.timedelta(days=10))
    response = login(cast.assigned).post(_url(cast), _data(homeless_since=later.isoformat()))
    assert response.status_code == 200
    assert "cannot be after support began" in str(response.context["form"].non_field_errors())
    assert not HudAnswers.objects.exists()


def test_a_date_and_a_subsidy_are_kept_and_shown(cast, login, episode, shown):
    began = (episode.opened_at - dt.timedelta(days=400)).date()
    data = _data(
        veteran="yes",
        prior_living="emergency_shelter",
        homeless_since=began.isoformat(),
        times_homeless="four_plus",
        months_homeless="more_than_12",
        destination="rental_subsidy",
        destination_subsidy="hcv",
    )
    response = login(cast.assigned).post(_url(cast), data)
    assert response.status_code == 302
    answers = HudAnswers.objects.get().answers
    assert answers["homeless_since"] == began.isoformat()
    assert (answers["veteran"], answers["destination_subsidy"]) == ("yes", "hcv")
    words = dict(hud.shown(answers))
    assert words["Approximate date this time of homelessness began"] == date_format(
        began, "DATE_FORMAT"
    )
    assert words["The housing subsidy (renting with an ongoing subsidy)"] == (
        "Housing Choice Voucher (tenant or project based), not dedicated"
    )


START = dt.date(2026, 4, 1)


def _chronic(**given) -> str:
    answers = hud.blank()
    answers.update(conditions_any="yes", prior_living="emergency_shelter")
    answers.update(given)
    return hud.chronically_homeless(answers, START)


@pytest.mark.parametrize(
    ("given", "status"),
    [
        # A disabling condition is needed: without one, not chronic whatever else.
        ({"conditions_any": "no", "homeless_since": "2020-01-01"}, "no"),
        ({"conditions_any": hud.PREFERS_NOT}, "dk"),
        ({"conditions_any": DNC}, "dnc"),
        # A year on the street or in a shelter, to the day: chronic.
        ({"homeless_since": "2025-04-01"}, "yes"),
        ({"homeless_since": "2025-04-02", "times_homeless": "one"}, "no"),
        # Four times or more in three years adding up to twelve months.
        ({"times_homeless": "four_plus", "months_homeless": "12"}, "yes"),
        ({"times_homeless": "four_plus", "months_homeless": "more_than_12"}, "yes"),
        ({"times_homeless": "four_plus", "months_homeless": "11"}, "no"),
        ({"times_homeless": "three", "months_homeless": "more_than_12"}, "no"),
        ({"times_homeless": hud.DONT_KNOW}, "dk"),
        ({"times_homeless": "four_plus", "months_homeless": DNC}, "dnc"),
        ({}, "dnc"),
        # A short stay in an institution (under 90 days) keeps the street night before it.
        (
            {
                "prior_living": "hospital",
                "prior_length": "month_to_90_days",
                "prior_night_street": "yes",
                "homeless_since": "2024-01-01",
            },
            "yes",
        ),
        (
            {
                "prior_living": "hospital",
                "prior_length": "90_days_to_year",
                "prior_night_street": "yes",
                "homeless_since": "2024-01-01",
            },
            "no",
        ),
        (
            {"prior_living": "jail", "prior_length": "one_night", "prior_night_street": "no"},
            "no",
        ),
        # Anywhere else only under a week does.
        (
            {
                "prior_living": "family_temporary",
                "prior_length": "two_to_six_nights",
                "prior_night_street": "yes",
                "homeless_since": "2024-01-01",
            },
            "yes",
        ),
        (
            {
                "prior_living": "family_temporary",
                "prior_length": "week_to_month",
                "prior_night_street": "yes",
                "homeless_since": "2024-01-01",
            },
            "no",
        ),
        ({"prior_living": "rental_no_subsidy", "prior_length": DNC}, "dnc"),
        ({"prior_living": hud.PREFERS_NOT}, "dk"),
    ],
)
def test_chronic_homelessness_as_hud_works_it_out(given, status):
    assert _chronic(**given) == status


def _saved(cast, years: int) -> HudAnswers:
    """Answers of a case closed ``years`` ago (past its narratives' or its record's time)."""
    field_settings_save(actor=cast.agency_admin, values={HUD: (False, "")})
    case = close(cast.case, years)
    Episode.objects.get_or_create(case=case, number=1, defaults={"opened_at": case.opened_at})
    return services.hud_answers_save(
        actor=cast.assigned,
        case=case,
        values={"prior_living": "safe_haven", "dv_history": "yes"},
        expected_version=0,
    )


def _purge(cast, scope: str) -> None:
    purges.purge_propose_due()
    proposal = PurgeProposal.objects.get(case=cast.case, scope=scope, status="pending")
    purges.purge_approve(actor=cast.supervisor, proposal_id=proposal.pk)
    if scope == PurgeScope.WHOLE:
        purges.purge_approve(actor=cast.agency_admin, proposal_id=proposal.pk)
    purges.purge_execute(actor=cast.agency_admin, proposal_id=proposal.pk)


def test_a_partial_purge_keeps_the_answers_the_reports_count(cast):
    assert "answers" in HudAnswers.kept_encrypted_fields
    assert HudAnswers not in narratives.narrative_fields()
    assert HudAnswers in narratives.case_owned_models()
    row = _saved(cast, 4)
    _purge(cast, PurgeScope.NARRATIVES)
    kept = HudAnswers.objects.get(pk=row.pk)
    kept.case = fresh(cast.case)
    assert kept.answers["prior_living"] == "safe_haven"


def test_a_whole_record_purge_deletes_the_answers(cast):
    _saved(cast, 8)
    _purge(cast, PurgeScope.WHOLE)
    assert not HudAnswers.objects.filter(case=cast.case).exists()


def _annual(on: str, income: str = "no") -> dict:
    return {"annual_on": on, "annual_income_any": income, "annual_benefits_any": "no"}


def test_an_annual_assessment_is_corrected_or_followed_never_overwritten(
    cast, login, episode, shown
):
    """The annual assessment on the page is the last one: saved as it is, it corrects it; saved
    as a new one (a later day), the last one is kept among the earlier ones, shown and audited.
    An assessment once recorded cannot be taken away, nor a new one put before the last."""
    now = timezone.now()
    Episode.objects.filter(pk=episode.pk).update(opened_at=now - dt.timedelta(days=800))
    first = timezone.localdate(now - dt.timedelta(days=430))
    second = timezone.localdate(now - dt.timedelta(days=60))
    client = login(cast.assigned)
    assert client.post(_url(cast), _data(**_annual(first.isoformat()))).status_code == 302
    # Corrected: the same assessment, its answer changed.
    data = _data(version=1, **_annual(first.isoformat(), income="yes"))
    assert client.post(_url(cast), data).status_code == 302
    answers = HudAnswers.objects.get().answers
    assert (answers["annual_income_any"], answers[hud.EARLIER]) == ("yes", [])
    # A new one on a day not after the last is refused; so is taking the last one away.
    for refused, why in (
        ({**_annual(first.isoformat()), "new_assessment": "on"}, "later day than the last"),
        ({"annual_on": "", "annual_income_any": DNC}, "keep its day"),
        ({"annual_on": "", "annual_income_any": "yes"}, "Give the day of the annual"),
    ):
        response = client.post(_url(cast), _data(version=2, **refused))
        assert response.status_code == 200
        assert why in str(response.context["form"].non_field_errors()), why
    # A new one: the last is kept, in words, under "Earlier annual assessments".
    data = _data(version=2, new_assessment="on", **_annual(second.isoformat()))
    assert client.post(_url(cast), data).status_code == 302
    row = HudAnswers.objects.get()
    row.case = cast.case
    assert row.answers["annual_on"] == second.isoformat()
    assert [a["annual_on"] for a in row.answers[hud.EARLIER]] == [first.isoformat()]
    assert row.answers[hud.EARLIER][0]["annual_income_any"] == "yes"
    event = AuditEvent.objects.filter(action="hud_answers.save").latest("pk")
    assert hud.EARLIER in event.detail["changed"]
    page = client.get(_url(cast))
    earlier = page.context["earlier"]
    assert [day for day, _words in earlier] == [date_format(first, "DATE_FORMAT")]
    assert ("Income from any source at the annual assessment", "Yes") in earlier[0][1]
    assert "Earlier annual assessments" in page.content.decode()


def test_an_annual_assessment_cannot_be_before_support_began(cast, login, episode, shown):
    now = timezone.now()
    Episode.objects.filter(pk=episode.pk).update(opened_at=now - dt.timedelta(days=30))
    before = timezone.localdate(now - dt.timedelta(days=40)).isoformat()
    response = login(cast.assigned).post(_url(cast), _data(**_annual(before)))
    assert response.status_code == 200
    assert "cannot be before support began" in str(response.context["form"].non_field_errors())
    assert not HudAnswers.objects.exists()


def test_the_day_they_moved_in_is_kept_and_cannot_be_before_support_began(
    cast, login, episode, shown
):
    """A permanent housing project records the day the household moved into housing (3.20): on
    or after the day support began, never before (a form error naming that day, nothing saved)."""
    now = timezone.now()
    Episode.objects.filter(pk=episode.pk).update(opened_at=now - dt.timedelta(days=30))
    client = login(cast.assigned)
    before = timezone.localdate(now - dt.timedelta(days=31))
    response = client.post(_url(cast), _data(move_in_on=before.isoformat()))
    assert response.status_code == 200
    assert "cannot be before support began" in str(response.context["form"].non_field_errors())
    assert not HudAnswers.objects.exists()
    moved = timezone.localdate(now - dt.timedelta(days=9))
    assert client.post(_url(cast), _data(move_in_on=moved.isoformat())).status_code == 302
    answers = HudAnswers.objects.get().answers
    assert answers["move_in_on"] == moved.isoformat()
    assert dict(hud.shown(answers))["Day they moved into housing"] == date_format(
        moved, "DATE_FORMAT"
    )


def test_the_days_the_answers_were_first_recorded_are_kept(cast, episode, shown):
    """When the answers were first saved and when an answer at exit was first given (HUD's
    timeliness, Q6e): later saves change neither; answers saved before caseflow kept the day
    keep none, and get the exit's only when their answers at exit are first given."""
    first = timezone.now().replace(microsecond=0) + dt.timedelta(days=1)
    with time_machine.travel(first, tick=False):
        row = services.hud_answers_save(
            actor=cast.assigned, case=cast.case, values={"veteran": "no"}, expected_version=0
        )
    assert (row.recorded_at, row.exit_recorded_at) == (first, None)
    later = first + dt.timedelta(days=9)
    with time_machine.travel(later, tick=False):
        row = services.hud_answers_save(
            actor=cast.assigned,
            case=cast.case,
            values={"destination": "deceased"},
            expected_version=1,
        )
    assert (row.recorded_at, row.exit_recorded_at) == (first, later)
    with time_machine.travel(later + dt.timedelta(days=3), tick=False):
        row = services.hud_answers_save(
            actor=cast.assigned, case=cast.case, values={"destination": "other"}, expected_version=2
        )
    assert (row.recorded_at, row.exit_recorded_at) == (first, later)
    # Saved before caseflow kept the days, with answers at exit already: both stay unknown.
    HudAnswers.objects.filter(pk=row.pk).update(recorded_at=None, exit_recorded_at=None)
    row = services.hud_answers_save(
        actor=cast.assigned, case=cast.case, values={"veteran": "yes"}, expected_version=3
    )
    assert (row.recorded_at, row.exit_recorded_at) == (None, None)
