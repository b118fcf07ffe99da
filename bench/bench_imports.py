"""Importing a caseload (every row checked with the forms, each case opened through the normal
case-open path with its own key, its parties, safe-contact profile, risk, follow-up, check-in,
protective order and two history notes written through their services, audited) against a
plain ``bulk_create`` of the same cases and parties (one shared key, no checks, no audit).

N is ``BENCH_IMPORT_N`` (10,000 by default; the ratio is per batch). Each run is rolled back,
so the scratch database does not grow. The peak memory of the check step is noted for N and 2N
rows, beyond the file's own bytes: the file is read a row at a time (decoded as it is read) and
the rows are checked one at a time, so it stays flat as the file grows.
"""

from __future__ import annotations

import os

from cryptography.fernet import Fernet
from django.db import transaction
from django.utils import timezone

from bench.harness import BenchContext, Peer, Row, compare, peak_memory, scale_cast
from caseflow.cases.models import Case, Party, PartyRole
from caseflow.imports import reader, rows, sample, services


class _RolledBack(Exception):
    pass


def _n() -> int:
    return int(os.environ.get("BENCH_IMPORT_N", "10000"))


def caseload_import(ctx: BenchContext) -> list[Row]:
    cast = scale_cast()
    advocate = cast.typical
    team = advocate.teams.order_by("name").first()
    admin = (
        type(advocate)
        .objects.filter(membership__agency=cast.agency, membership__role="agency_admin")
        .first()
    )
    n = _n()
    today = timezone.localdate()
    state = {"run": 0}

    def data(count: int, prefix: str) -> bytes:
        return sample.sample_csv(
            count, team=team.name, advocate=advocate.username, today=today, prefix=prefix
        )

    def caseflow_import():
        state["run"] += 1
        try:
            with transaction.atomic():
                batch = services.batch_upload(
                    actor=admin, name="bench.csv", data=data(n, f"B{state['run']}")
                )
                services.batch_check(actor=admin, batch=batch, mapping=batch.mapping)
                services.batch_commit(actor=admin, batch_id=batch.pk)
                raise _RolledBack
        except _RolledBack:
            pass

    def plain_bulk_create():
        prepared = sample.rows(n, team=team.name, advocate=advocate.username, today=today)
        key = Fernet(Fernet.generate_key())
        try:
            with transaction.atomic():
                cases = []
                for i, row in enumerate(prepared):
                    case = Case(
                        agency_id=cast.agency.pk,
                        team=team,
                        reference=f"BULK-{state['run']}-{i}",
                        primary_advocate=advocate,
                        summary=row["summary"],
                    )
                    case.__dict__["_data_key"] = key
                    cases.append(case)
                Case.objects.bulk_create(cases)
                parties = []
                for case, row in zip(cases, prepared, strict=True):
                    for role, name in (
                        (PartyRole.SURVIVOR, row["survivor_full_name"]),
                        (PartyRole.OTHER_PARTY, row["other_full_name"]),
                    ):
                        party = Party(case=case, agency_id=cast.agency.pk, role=role)
                        party.full_name = name
                        parties.append(party)
                Party.objects.bulk_create(parties)
                raise _RolledBack
        except _RolledBack:
            pass

    result = compare(
        ctx,
        f"import of {n} cases (check + open + history + audit)",
        caseflow_import,
        [Peer("plain bulk_create of the same cases and parties", plain_bulk_create)],
        count_sql=False,
    )
    agency_id = cast.agency.pk

    def check(count: int) -> tuple[int, int]:
        raw = data(count, "M")
        peak = peak_memory(
            lambda: rows.check(reader.read(raw, "csv"), _mapping(), agency_id=agency_id)
        )
        return peak, len(raw)

    (small, small_file), (large, large_file) = check(n), check(2 * n)
    result[0].notes.append(
        f"peak memory of the check beyond the file: {small // 1024} KiB for {n} rows "
        f"(a {small_file // 1024} KiB file), {large // 1024} KiB for {2 * n} rows "
        f"(a {large_file // 1024} KiB file)"
    )
    return result


def _mapping() -> dict[str, str]:
    from caseflow.imports.template import FIELD_KEYS

    return {k: k for k in FIELD_KEYS}


BENCHMARKS = [caseload_import]
