"""The people the HUD tests seed: a survivor's case with its first episode and HUD answers, and
how a case is closed with its episode."""

from __future__ import annotations

import datetime as dt
from typing import Any

from caseflow.cases.models import Case, CaseStatus, Episode, EpisodeStatus, IntakeField, PartyRole
from caseflow.confidentiality.services import field_settings_save
from caseflow.partners import hud
from caseflow.partners.models import (
    Demographics,
    HudAnswers,
    HudProject,
    HudProjectType,
    HudRrhSubtype,
)
from tests import factories as f


def at(day: str) -> dt.datetime:
    """10 in the morning (UTC) of ``day`` (ISO)."""
    return dt.datetime.fromisoformat(day).replace(hour=10, tzinfo=dt.UTC)


def rapid_rehousing(cast, **fields: Any) -> HudProject:
    """The cast's agency asks HUD's questions, for a rapid re-housing project (housing)."""
    field_settings_save(actor=cast.agency_admin, values={IntakeField.HUD_ANSWERS: (False, "")})
    return HudProject.objects.create(
        agency=cast.agency,
        organization_name="Harbor Light Services",
        project_name="Harbor Light Rapid Re-Housing",
        project_type=HudProjectType.RAPID_REHOUSING,
        rrh_subtype=HudRrhSubtype.HOUSING,
        **fields,
    )


def close(case: Case, episode: Episode, at: dt.datetime) -> None:
    """Close ``case`` and its ``episode`` at ``at``, as if support had ended then."""
    Episode.objects.filter(pk=episode.pk).update(status=EpisodeStatus.CLOSED, closed_at=at)
    Case.objects.filter(pk=case.pk).update(status=CaseStatus.CLOSED, closed_at=at)


def hud_person(
    cast,
    n: int,
    opened: dt.datetime,
    answers: dict[str, Any] | None,
    *,
    closed: dt.datetime | None = None,
    race: str | None = None,
    age: str | None = None,
    gender: str | None = None,
) -> tuple[Case, Episode]:
    """Survivor ``n`` of the cast's first team, supported from ``opened``: her first episode,
    her HUD answers over the blank ones (none with ``None``), her answers to the race, age and
    gender questions when given, and closed at ``closed`` when given."""
    case = f.open_case(cast.team1, assignees=[cast.assigned], opened_at=opened)
    party = f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {n}")
    given = {"race_ethnicity": race, "age_band": age, "gender_identity": gender}
    if any(given.values()):
        Demographics(case=case, party=party, **{k: v for k, v in given.items() if v}).save()
    episode = Episode.objects.create(case=case, number=1, opened_at=opened)
    if answers is not None:
        HudAnswers(case=case, episode=episode, answers={**hud.blank(), **answers}).save()
    if closed is not None:
        close(case, episode, closed)
    return case, episode
