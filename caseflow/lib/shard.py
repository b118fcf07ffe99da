"""Rows that belong to a case carry its agency, the key a sharded database distributes by.

SCALING.md ("Sharding by agency") keeps the schema ready to be split across database nodes by
agency. A row that reaches its agency only through its case would need the case's node to be
found first; carrying the agency on the row itself lets every table be distributed on the same
column and every query for one agency's rows stay on one node. The agency is copied from the
case when a row is first saved and never changes (a case never moves agency).
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import models


class CarriesAgency(models.Model):
    """Abstract base: an ``agency`` copied from the row's ``case`` on its first save.

    Rows written with ``bulk_create`` skip ``save()``: those call sites set ``agency_id``
    themselves (the column is not null, so a forgotten one fails loudly)."""

    agency = models.ForeignKey(
        "accounts.Agency",
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
        # Deliberately unindexed, and read by no query yet. Every case-owned table carries
        # the column (each app's ``*_agency_carried`` and ``*_agency_required`` migrations added
        # it, and every new case-owned model's first migration has it), but queries reach these
        # rows through their case, whose index serves them; an index here would cost every
        # insert and serve nothing. It is written now so that no data has to be rewritten
        # later. The plan (SCALING.md, "Sharding by agency with Citus"): it becomes the
        # distribution column and the first column of each primary key and unique constraint,
        # which index it then; the agency's queries start to filter on it at that point, not
        # before.
        db_index=False,
    )

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.carry_agency()
        super().save(*args, **kwargs)

    def clean_fields(self, exclude: Any = None) -> None:
        self.carry_agency()
        super().clean_fields(exclude=exclude)

    def carry_agency(self) -> None:
        if self.agency_id is not None or getattr(self, "case_id", None) is None:
            return
        case = self._state.fields_cache.get("case")
        if case is None or case.agency_id is None:
            case_model = self._meta.get_field("case").related_model
            case = case_model._default_manager.only("agency_id").get(pk=self.case_id)  # type: ignore[union-attr]
        self.agency_id = case.agency_id


Row = TypeVar("Row", bound=CarriesAgency)


def carry_agencies(rows: list[Row]) -> list[Row]:
    """Fill ``agency_id`` on rows about to be written with ``bulk_create`` (which skips
    ``save()``): from each row's cached case, else with one query for the rest."""
    missing: dict[int, list[Row]] = {}
    for row in rows:
        if row.agency_id is not None:
            continue
        case = row._state.fields_cache.get("case")
        if case is not None and case.agency_id is not None:
            row.agency_id = case.agency_id
        else:
            missing.setdefault(row.case_id, []).append(row)  # type: ignore[attr-defined]
    if missing:
        case_model = rows[0]._meta.get_field("case").related_model
        found = case_model._default_manager.filter(pk__in=missing).values_list("pk", "agency_id")  # type: ignore[union-attr]
        for case_id, agency_id in found:
            for row in missing[case_id]:
                row.agency_id = agency_id
    return rows
