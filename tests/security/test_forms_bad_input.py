"""Bad input against every form in caseflow/**/forms.py: whatever is posted, a form answers
with errors or clean data, never an exception, and what it echoes back is escaped."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest
from django import forms
from django.conf import settings as django_settings
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory
from django.utils import timezone
from django.utils.datastructures import MultiValueDict
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from caseflow.accounts.models import Agency, Team, User
from caseflow.cases.models import PartyRole
from caseflow.confidentiality import selectors as conf_selectors
from caseflow.partners.models import ReferralState

pytestmark = pytest.mark.django_db

EXAMPLES = 200
SCRIPT = "<script>alert(1)</script>"


def form_classes() -> list[type[forms.BaseForm]]:
    root = Path(django_settings.BASE_DIR)
    found = []
    for path in sorted((root / "caseflow").rglob("forms.py")):
        module = importlib.import_module(".".join(path.relative_to(root).with_suffix("").parts))
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, forms.BaseForm) and cls.__module__ == module.__name__:
                found.append(cls)
    return found


FORMS = form_classes()


def _sample_instrument():
    from caseflow.safety.instruments import SHIPPED_DIR, load_instrument

    return load_instrument(SHIPPED_DIR / "caseflow-sample.yaml")


def context_value(name: str, cast):
    """A value for a constructor argument, by its name: the form's usual context."""
    agency = cast.agency
    table = {
        "teams": lambda: Team.objects.filter(agency=agency),
        "agencies": lambda: Agency.objects.exclude(pk=agency.pk),
        "users": lambda: User.objects.filter(membership__agency=agency),
        "members": lambda: User.objects.filter(membership__agency=agency),
        "advocates": lambda: User.objects.filter(membership__agency=agency),
        "agency_id": lambda: agency.pk,
        "agency": lambda: agency,
        "roles": lambda: list(PartyRole.choices),
        "choices": lambda: [("active", "Make active"), ("closed", "Close")],
        "user": lambda: cast.assigned,
        "actor": lambda: cast.assigned,
        "case": lambda: cast.case,
        "team": lambda: cast.team1,
        "timezone_name": lambda: "Europe/London",
        "tz": lambda: "Europe/London",
        "channels": lambda: ["phone", "text"],
        "first_version": lambda: True,
        "current": lambda: "draft",
        "people": lambda: User.objects.filter(membership__agency=agency),
        "assignees": lambda: User.objects.filter(membership__agency=agency),
        "parties": lambda: list(cast.case.parties.all()),
        "instrument": _sample_instrument,
        "releases": lambda: conf_selectors.case_releases(cast.case),
        "evidence": lambda: conf_selectors.case_evidence(cast.case),
        "orders": lambda: conf_selectors.case_orders(cast.case),
        "incidents": lambda: [("incident-id", "2 Mar 2025: Threats")],
        "contacts": lambda: [("event-id", "3 Mar 2025 21:10 · Message · Text message")],
        "amend": lambda: True,
        "reasons": lambda: _closure_reasons(agency),
        "submit_label": lambda: "Close the case",
        "needs": lambda: [("need-id", "Housing")],
        "goals": lambda: [("goal-id", "Find a safe place to live")],
        "notes": lambda: [("note-id", "2 Mar 2025: Phone call")],
        "owners": lambda: [(str(cast.assigned.pk), cast.assigned.get_full_name())],
        "fields": lambda: {},
        "allowed": lambda: {value for value, _ in ReferralState.choices},
        "kind": lambda: "quarter",
        "agency_language_name": lambda: "English",
        "today": lambda: timezone.localdate(),
        "headings": lambda: ["Reference", "Survivor", "Opened on", "Team"],
        "sites": lambda: [("site-id", "Riverside refuge")],
        "rooms": lambda: [("room-id", "Riverside refuge · Room 1")],
        "beds": lambda: [("bed-id", "Riverside refuge · Room 1 · Bed A")],
        "sources": lambda: __import__(
            "caseflow.cases.timeline"
        ).cases.timeline.registered_sources(),
    }
    if name in table:
        return table[name]()
    if "case" in name:
        return cast.case
    if "user" in name or "actor" in name:
        return cast.assigned
    raise LookupError(name)


def _closure_reasons(agency):
    from caseflow.cases import journey

    journey.ensure_standard_reasons(agency.pk)
    return journey.closure_reasons(agency.pk)


#: Where one form names a value differently from the rest (choices, not rows).
PER_FORM = {
    ("ServiceForm", "releases"): lambda cast: [("release-id", "Consent to share: housing")],
    ("ServiceCountForm", "choices"): lambda cast: __import__(
        "caseflow.servicelog.selectors"
    ).servicelog.selectors.category_choices(cast.agency.pk),
    ("OutcomeForm", "plan_orders"): lambda cast: [_plan_order()],
    ("StepsForm", "choices"): lambda cast: [("plan_review", "Review the safety plan")],
    ("ProposalsForm", "choices"): lambda cast: [("hard_date-1-2027-03-14", "A birthday")],
    ("PaymentForm", "sources"): lambda cast: _funding_sources(cast.agency),
    ("StayForm", "cases"): lambda cast: [(cast.case.public_id, "CASE-1")],
    ("ReassignForm", "cases"): lambda cast: [cast.case],
    ("MarkForm", "kinds"): lambda cast: __import__(
        "caseflow.cycle.catalogue"
    ).cycle.catalogue.offered(cast.agency.pk),
    ("RatingForm", "questions"): lambda cast: _rating_questions(),
}


def _rating_questions():
    from caseflow.wellbeing.questions import QUESTIONS

    return list(QUESTIONS.values())


def _funding_sources(agency):
    from caseflow.assistance import services as assistance

    return assistance.funding_sources(agency.pk)


def _plan_order():
    from caseflow.court.orders import PlanOrder

    return PlanOrder("order-key", "Exampletown Family Court · FL-1")


def build_kwargs(cls, cast) -> dict:
    kwargs = {}
    for name, param in inspect.signature(cls.__init__).parameters.items():
        if name in ("self", "data", "files") or param.kind in (
            param.VAR_POSITIONAL,
            param.VAR_KEYWORD,
        ):
            continue
        if param.default is param.empty:
            special = PER_FORM.get((cls.__name__, name))
            kwargs[name] = special(cast) if special else context_value(name, cast)
    if issubclass(cls, AuthenticationForm):
        request = RequestFactory().post("/", REMOTE_ADDR="192.0.2.10")
        request.session = SessionStore()
        kwargs["request"] = request
    return kwargs


def valid_values(field: forms.Field, cast) -> list[str]:
    if isinstance(field, forms.ModelChoiceField | forms.ModelMultipleChoiceField):
        own = [str(pk) for pk in field.queryset.values_list("pk", flat=True)[:5]]
        # Ids of other agencies' rows, and nonsense.
        foreign = [str(cast.other_agency_team.pk), str(cast.other_agency.pk), "0", "-1", "x"]
        return own + foreign
    if isinstance(field, forms.ChoiceField):
        return [str(k) for k, _ in field.choices if not isinstance(_, list | tuple)][:20] or ["x"]
    if isinstance(field, forms.BooleanField):
        return ["on", "", "True", "False"]
    if isinstance(field, forms.DateField):
        return ["1990-01-01", "2999-12-31", "1800-01-01", "31/12/2020", "2020-02-30"]
    if isinstance(field, forms.IntegerField):
        return ["1", "0", "-1", "99999999999999999999", "1.5"]
    if isinstance(field, forms.EmailField):
        return ["a@example.invalid", "not-an-email", f"{SCRIPT}@example.invalid"]
    return ["Mon-Fri 10:00-12:00", "Europe/London", "x"]


def field_strategy(field: forms.Field, cast):
    limit = getattr(field, "max_length", None) or 300
    text = st.one_of(
        st.text(max_size=60),
        st.just(SCRIPT),
        st.text(min_size=limit + 1, max_size=limit + 5),
        st.sampled_from(["\x00", " ", "", "' OR 1=1 --", "%00", "../../etc/passwd"]),
    )
    one = st.one_of(st.sampled_from(valid_values(field, cast)), text)
    return st.lists(one, min_size=0, max_size=3)


def check(cls, kwargs, data: dict[str, list[str]]) -> None:
    form = cls(data=MultiValueDict(data), **kwargs)
    valid = form.is_valid()  # anything but a ValidationError escaping here is a bug
    if valid:
        assert set(form.cleaned_data) <= set(form.fields)
    else:
        assert form.errors
    if any(SCRIPT in v for values in data.values() for v in values):
        html = form.as_div() + str(form.errors)
        assert SCRIPT not in html


@pytest.mark.parametrize("cls", FORMS, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_form_survives_bad_input(cls, cast):
    kwargs = build_kwargs(cls, cast)
    probe = cls(data=MultiValueDict(), **kwargs)
    strategy = st.fixed_dictionaries(
        {},
        optional={name: field_strategy(field, cast) for name, field in probe.fields.items()},
    )

    @hsettings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        database=None,
    )
    @given(data=strategy)
    def run(data):
        check(cls, kwargs, data)

    run()


def test_every_form_is_covered():
    names = {f"{c.__module__}.{c.__name__}" for c in FORMS}
    for expected in (
        "caseflow.accounts.forms.LoginForm",
        "caseflow.agency.forms.StaffForm",
        "caseflow.accounts.forms.CodeForm",
        "caseflow.cases.forms.IntakeForm",
        "caseflow.cases.forms.PartyForm",
        "caseflow.checkins.forms.SafeContactForm",
    ):
        assert expected in names


def test_an_id_beyond_any_database_column_is_a_form_error(cast):
    """Every field choosing rows by id, in every form, posted an id no database could hold (or
    its negative): a form error on that field, never the database's exception."""
    checked = set()
    for cls in FORMS:
        kwargs = build_kwargs(cls, cast)
        probe = cls(data=MultiValueDict(), **kwargs)
        for name, field in probe.fields.items():
            if not isinstance(field, forms.ModelChoiceField | forms.ModelMultipleChoiceField):
                continue
            for huge in ("9" * 30, "-" + "9" * 30, str(2**63)):
                form = cls(data=MultiValueDict({name: [huge]}), **kwargs)
                assert not form.is_valid()
                assert name in form.errors, (cls.__name__, name, huge, form.errors)
            checked.add(f"{cls.__name__}.{name}")
    # The fields that choose several rows, where the database once raised, are among them.
    assert {
        "AssignForm.primary",
        "AssignForm.others",
        "RestrictForm.users",
        "StaffForm.teams",
        "TeamForm.members",
    } <= checked
