"""Each funder report against a plain ORM aggregation of the same rows.

The first seeded agency's survivors are given demographic answers first (encrypted with their
cases' keys, as the demographics form stores them; removed afterwards, ``RUN_LAST``), and HUD's
entry, annual and exit answers with the agency set to ask them, so the HUD report counts its
whole question set. Measured,
for each report over its period: building the report (the rows counted, the demographic answers
decrypted and counted, the grid of cells and sums protected by complementary suppression)
against the same tables grouped and counted by the database alone (``GROUP BY`` on the columns
kept in clear; the peer cannot count the encrypted answers, it counts their rows).
"""

from __future__ import annotations

import datetime as dt

from django.db import connection
from django.db.models import Count, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from bench.harness import BenchContext, Peer, Row, compare, peak_memory, scale_cast
from caseflow.cases.models import (
    Case,
    CaseKey,
    CaseStatus,
    Closure,
    Episode,
    FieldSetting,
    IntakeField,
    Party,
    PartyRole,
)
from caseflow.casework.models import CaseNote, Incident, Need
from caseflow.lib.encryption import unwrap_data_key
from caseflow.lib.shard import carry_agencies
from caseflow.partners.demo import demo_hud_answers
from caseflow.partners.models import (
    QUESTIONS,
    Demographics,
    HudAnswers,
    ServiceReferral,
    answers,
)
from caseflow.reporting import reports
from caseflow.reporting.reports import Period, served_cases

RUN_LAST = True

#: Issue #32's target for the reports that count demographic answers: at most five times the
#: plain aggregation of the same rows (the Insights report reads no answers and has none).
TARGET = {"voca": 5.0, "fvpsa": 5.0, "hud": 5.0}
#: Each report's floor: its decryptions per person alone (HUD's with the whole question set
#: opens each person's HUD answers too, under the same case key).
FLOORS = {
    "voca": "its two decryptions per person alone (the floor)",
    "fvpsa": "its two decryptions per person alone (the floor)",
    "hud": "its three decryptions per person alone (the floor)",
}
#: The questions each of those reports counts.
COUNTS = {
    "voca": reports.VOCA_QUESTIONS,
    "fvpsa": reports.FVPSA_QUESTIONS,
    "hud": reports.HUD_QUESTIONS,
}


def _vacuum(*models) -> None:
    """Clear the rows an earlier run removed from ``models``' tables, as autovacuum would on a
    database in use (PostgreSQL only): each run adds and removes its answers, and the dead rows
    of the runs before it would otherwise be read again by every scan of the table (the HUD
    answers' table grew to twenty times its rows' size in ten runs)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"VACUUM {model._meta.db_table}")


def _seed_demographics(agency_id: int) -> list[int]:
    """Answers for every survivor of the agency who has none (some declined, some not asked)."""
    _vacuum(Demographics)
    parties = list(
        Party.objects.filter(case__agency_id=agency_id, role=PartyRole.SURVIVOR)
        .exclude(demographics__isnull=False)
        .select_related("case")
        .order_by("pk")
    )
    keys = dict(CaseKey.objects.filter(case__agency_id=agency_id).values_list("case_id", "wrapped"))
    for party in parties:
        party.case.__dict__["_data_key"] = unwrap_data_key(keys[party.case_id])
    rows = []
    for n, party in enumerate(parties):
        values = {
            q: answers(q)[(n * (i + 3)) % len(answers(q))][0] for i, q in enumerate(QUESTIONS)
        }
        row = Demographics(case=party.case, party=party, **values)
        row.seal_answers()  # what save() does, and bulk_create does not
        rows.append(row)
    created = Demographics.objects.bulk_create(carry_agencies(rows), batch_size=1000)
    # The planner's statistics, as autovacuum (or seed_scale's ANALYZE) would leave them on a
    # table that grew by this much: a report run on a table it believes empty is not measured.
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {Demographics._meta.db_table}")
    return [row.pk for row in created]


def _seed_hud(agency_id: int) -> tuple[list[int], list[int], int | None]:
    """HUD's entry, annual and exit answers for the latest episode of every case of the agency
    (as the demo draws them; a case with no episode is given its first, from the day it
    opened), and the agency set to ask them, so the HUD report counts its whole question set.
    Returns the rows, the episodes and the field setting made (removed afterwards)."""
    _vacuum(HudAnswers, Episode)
    bare = Case.objects.filter(agency_id=agency_id, episodes__isnull=True)
    made_episodes = Episode.objects.bulk_create(
        carry_agencies(
            [
                Episode(case_id=pk, number=1, opened_at=opened_at)
                for pk, opened_at in bare.values_list("pk", "opened_at")
            ]
        ),
        batch_size=1000,
    )
    episodes = list(
        Episode.objects.filter(case__agency_id=agency_id)
        .exclude(hud_answers__isnull=False)
        .select_related("case")
        .order_by("case_id", "-number")
    )
    keys = dict(CaseKey.objects.filter(case__agency_id=agency_id).values_list("case_id", "wrapped"))
    rows, seen = [], set()
    for n, episode in enumerate(episodes):
        if episode.case_id in seen:
            continue
        seen.add(episode.case_id)
        case = episode.case
        case.__dict__["_data_key"] = unwrap_data_key(keys[case.pk])
        values = demo_hud_answers(
            n, left=case.status == CaseStatus.CLOSED, started=episode.opened_at.date()
        )
        rows.append(HudAnswers(case=case, episode=episode, answers=values))
    created = HudAnswers.objects.bulk_create(carry_agencies(rows), batch_size=1000)
    setting, made = FieldSetting.objects.get_or_create(
        agency_id=agency_id, field=IntakeField.HUD_ANSWERS, defaults={"hidden": False}
    )
    if not made and setting.hidden:
        raise RuntimeError("the bench agency hides HUD's questions: leave its setting alone")
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {HudAnswers._meta.db_table}")
        cursor.execute(f"ANALYZE {Episode._meta.db_table}")
    return (
        [row.pk for row in created],
        [episode.pk for episode in made_episodes],
        setting.pk if made else None,
    )


def _periods() -> dict[str, Period]:
    today = timezone.localdate()
    last = today - dt.timedelta(days=92)
    year_ago = Period(today - dt.timedelta(days=365), today, "last 12 months")
    return {
        "voca": reports.quarter(last.year, (last.month - 1) // 3 + 1),
        "fvpsa": year_ago,
        "hud": year_ago,
        "insights": year_ago,
    }


def _plain(agency_id: int, period: Period):
    """The same rows, grouped and counted by the database."""

    def run():
        served = served_cases(agency_id, period)
        ids = served.values("pk")
        out = [
            served.aggregate(n=Count("pk")),
            list(served.values("status").annotate(n=Count("pk"))),
            list(Episode.objects.filter(case__in=ids).values("start").annotate(n=Count("pk"))),
            list(
                CaseNote.objects.filter(
                    case__in=ids, occurred_at__gte=period.since, occurred_at__lt=period.until
                )
                .values("kind")
                .annotate(n=Count("pk"))
            ),
            Incident.objects.filter(case__in=ids).aggregate(n=Count("case", distinct=True)),
            list(
                ServiceReferral.objects.filter(case__in=ids)
                .values("service_type")
                .annotate(n=Count("pk"))
            ),
            Demographics.objects.filter(case__in=ids).aggregate(n=Count("pk")),
            list(
                Closure.objects.filter(case__agency_id=agency_id)
                .values("risk_at_intake", "risk_at_exit")
                .annotate(n=Count("pk"))
            ),
            list(Need.objects.filter(case__in=ids).values("kind").annotate(n=Count("pk"))),
        ]
        return out

    return run


def _decryptions_alone(
    agency_id: int, period: Period, questions: tuple[str, ...], with_hud: bool = False
):
    """The floor of a report that counts the answers: each person's decryptions (the case
    key's unwrap and the answers' token, and with ``with_hud`` her HUD answers' token) and
    nothing else, on rows already in memory (no query, no counting, no suppression)."""
    if not questions:
        return None
    ids = served_cases(agency_id, period).values("pk")
    tokens = list(
        Demographics.objects.filter(case_id__in=ids, party__role=PartyRole.SURVIVOR)
        .order_by("case_id", "pk")
        .values_list("case_id", "case__key__wrapped", Cast("all_answers", TextField()))
    )
    firsts = {case_id: (w, t) for case_id, w, t in reversed(tokens)}
    entries: dict[int, str] = {}
    if with_hud:
        rows = (
            HudAnswers.objects.filter(case_id__in=ids, episode__opened_at__lt=period.until)
            .order_by("case_id", "-episode__number")
            .values_list("case_id", Cast("answers", TextField()))
        )
        entries = {case_id: t for case_id, t in reversed(list(rows))}
    people = [(w, t, entries.get(case_id)) for case_id, (w, t) in firsts.items()]
    together = Demographics._meta.get_field("all_answers")
    hud_together = HudAnswers._meta.get_field("answers")

    def run():
        out = []
        for wrapped, token, entry in people:
            key = unwrap_data_key(wrapped)
            out.append(together.open(key, token))
            if entry is not None:
                out.append(hud_together.open(key, entry))
        return out

    return run


def funder_reports(ctx: BenchContext) -> list[Row]:
    cast = scale_cast()
    agency_id = cast.agency.pk
    seeded = _seed_demographics(agency_id)
    hud_rows: list[int] = []
    hud_episodes: list[int] = []
    hud_setting: int | None = None
    rows: list[Row] = []
    try:
        for slug, period in _periods().items():
            if slug == "hud":  # HUD's answers for its measurement only
                hud_rows, hud_episodes, hud_setting = _seed_hud(agency_id)
            elif hud_rows or hud_episodes or hud_setting:
                _unseed_hud(hud_rows, hud_episodes, hud_setting)
                hud_rows, hud_episodes, hud_setting = [], [], None
            n = served_cases(agency_id, period).count()
            built = reports.build(slug, agency_id, period)
            result = compare(
                ctx,
                f"funder report {slug} ({n} people served, {built.cells} cells)",
                lambda slug=slug, period=period: reports.build(slug, agency_id, period),
                [
                    Peer(
                        "plain ORM aggregation of the same rows",
                        _plain(agency_id, period),
                        max_ratio=TARGET.get(slug),
                    ),
                    *(
                        [Peer(FLOORS[slug], floor)]
                        if (
                            floor := _decryptions_alone(
                                agency_id, period, COUNTS.get(slug, ()), with_hud=slug == "hud"
                            )
                        )
                        else []
                    ),
                ],
            )
            peak = peak_memory(
                lambda slug=slug, period=period: reports.build(slug, agency_id, period)
            )
            result[0].notes.append(
                f"{built.suppressed} of {built.cells} cells suppressed; "
                f"{len(seeded)} survivors' answers seeded for the run"
                f"{f' and {len(hud_rows)} HUD answers' if slug == 'hud' else ''}; "
                f"peak Python memory of one build {peak / 2**20:.2f} MiB "
                f"({peak / max(n, 1):.0f} bytes a person served)"
            )
            rows.extend(result)
    finally:
        Demographics.objects.filter(pk__in=seeded).delete()
        _unseed_hud(hud_rows, hud_episodes, hud_setting)
        _vacuum(Demographics)
    return rows


def _unseed_hud(rows: list[int], episodes: list[int], setting: int | None) -> None:
    HudAnswers.objects.filter(pk__in=rows).delete()
    Episode.objects.filter(pk__in=episodes).delete()
    if setting is not None:
        FieldSetting.objects.filter(pk=setting).delete()
    _vacuum(HudAnswers, Episode)


#: Member agencies of the benchmark's coalition.
MEMBERS = 10


def coalition_rollup(ctx: BenchContext) -> list[Row]:
    """A coalition of ten agencies the size of the seeded one (the seeded agency counted ten
    times: each member's report is built and suppressed on its own, then added up), against ten
    plain ORM aggregations of the same rows."""
    from caseflow.reporting.coalition import rollup

    cast = scale_cast()
    agency_id = cast.agency.pk
    seeded = _seed_demographics(agency_id)
    period = _periods()["voca"]
    members = [agency_id] * MEMBERS
    plain = _plain(agency_id, period)
    try:
        n = served_cases(agency_id, period).count()
        built = rollup("voca", members, period)
        result = compare(
            ctx,
            f"coalition roll-up of voca, {MEMBERS} agencies of {n} people served each",
            lambda: rollup("voca", members, period),
            [
                Peer(
                    f"{MEMBERS} plain ORM aggregations of the same rows",
                    lambda: [plain() for _ in members],
                )
            ],
        )
        result[0].notes.append(
            f"{built.cells} cells, {built.partial} leaving out an agency's hidden count"
        )
        return result
    finally:
        Demographics.objects.filter(pk__in=seeded).delete()
        _vacuum(Demographics)


BENCHMARKS = [funder_reports, coalition_rollup]
