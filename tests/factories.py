"""factory_boy factories for caseflow's models."""

from __future__ import annotations

import factory

from caseflow.accounts.models import Agency, Membership, Role, Team, User
from caseflow.cases.models import Case, CaseAssignment, Party, PartyRole, SafeContactProfile

PASSWORD = "a-long-test-password-1"


class AgencyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Agency

    name = factory.Sequence(lambda n: f"Agency {n}")
    slug = factory.Sequence(lambda n: f"agency-{n}")


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    agency = factory.SubFactory(AgencyFactory)
    name = factory.Sequence(lambda n: f"Team {n}")


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.Sequence(lambda n: f"First{n}")
    last_name = "Tester"
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.invalid")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


def staff(agency: Agency, role: str = Role.ADVOCATE, teams=(), active: bool = True, **kw) -> User:
    user = UserFactory(**kw)
    Membership.objects.create(user=user, agency=agency, role=role, is_active=active)
    for team in teams:
        team.members.add(user)
    return user


def coalition_person(agencies, name: str = "State coalition", **kw) -> User:
    """Someone with a seat in a coalition of ``agencies`` (made if needed), and no membership."""
    from caseflow.accounts.models import Coalition, CoalitionSeat

    coalition, _made = Coalition.objects.get_or_create(name=name)
    coalition.members.add(*agencies)
    user = UserFactory(**kw)
    CoalitionSeat.objects.create(user=user, coalition=coalition)
    return user


class CaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Case

    team = factory.SubFactory(TeamFactory)
    agency = factory.LazyAttribute(lambda c: c.team.agency)
    reference = factory.Sequence(lambda n: f"REF-{n:05d}")
    summary = ""


def open_case(team: Team, assignees=(), restricted_users=(), **kw) -> Case:
    case = CaseFactory(team=team, **kw)
    assignees = list(assignees)
    for user in assignees:
        CaseAssignment.objects.create(case=case, user=user)
    if assignees:
        case.primary_advocate = assignees[0]
        case.save(update_fields=["primary_advocate"])
    if restricted_users:
        case.restricted = True
        case.save(update_fields=["restricted"])
        case.restricted_users.set(restricted_users)
    return case


def add_party(case: Case, role: str = PartyRole.SURVIVOR, **fields) -> Party:
    from caseflow.cases.services import identity_index_for

    party = Party(case=case, role=role, full_name=fields.pop("full_name", "Test Person"), **fields)
    party.identity_index = identity_index_for(party.full_name, party.date_of_birth)
    party.save()
    return party


def add_profile(case: Case, **fields) -> SafeContactProfile:
    profile = SafeContactProfile(
        case=case,
        timezone=fields.pop("timezone", "Europe/London"),
        rules=fields.pop(
            "rules",
            {
                "channels": ["phone"],
                "windows": [{"days": [0, 1, 2, 3, 4], "start": "10:00", "end": "12:00"}],
                "voicemail_safe": False,
            },
        ),
        **fields,
    )
    profile.save()
    return profile


def close_episode(case: Case, actor: User, *, opened, closed, **outcomes):
    """An episode of support from ``opened`` to ``closed`` (datetimes) and its closure, with
    outcomes (defaults: goals met, abuse stopped, feels safer, high risk at intake and standard
    at exit; ``start`` how the episode began); the case is closed on that day."""
    from caseflow.cases.models import (
        CaseStatus,
        Closure,
        ClosureReason,
        ClosureState,
        Episode,
        EpisodeStart,
        EpisodeStatus,
    )

    standard = outcomes.pop("reason", "goals_met")
    reason, _created = ClosureReason.objects.get_or_create(
        agency_id=case.agency_id, standard=standard, defaults={"label": standard}
    )
    episode = Episode.objects.create(
        case=case,
        number=case.episodes.count() + 1,
        start=outcomes.pop("start", EpisodeStart.REFERRAL),
        opened_at=opened,
        status=EpisodeStatus.CLOSED,
        closed_at=closed,
    )
    closure = Closure.objects.create(
        case=case,
        episode=episode,
        state=ClosureState.CLOSED,
        reason=reason,
        plan_check="reviewed",
        abuse_change=outcomes.pop("abuse_change", "stopped"),
        feels_safer=outcomes.pop("feels_safer", "yes"),
        risk_at_intake=outcomes.pop("risk_at_intake", "high"),
        risk_at_exit=outcomes.pop("risk_at_exit", "standard"),
        requested_by=actor,
        requested_at=closed,
        closed_at=closed,
        **outcomes,
    )
    Case.objects.filter(pk=case.pk).update(status=CaseStatus.CLOSED, closed_at=closed)
    return closure
