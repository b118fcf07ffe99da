"""Which stored values are narratives or evidence: what a partial (narratives-only) purge clears.

A model declares its narrative fields either here, in :data:`NARRATIVE_FIELDS`, or on itself with
a class attribute ``narrative_fields = ("field", ...)``. Only encrypted text fields can be
narratives; a partial purge overwrites each with an empty value and keeps the row (so the case's
counts stay). A model whose rows are evidence in their own right declares
``narrative_evidence = True`` and a partial purge deletes its rows of the case.
"""

from __future__ import annotations

from django.apps import apps
from django.db import models

#: "app_label.Model" → names of its narrative fields.
NARRATIVE_FIELDS: dict[str, tuple[str, ...]] = {
    "cases.Case": ("summary",),
    "cases.Party": ("notes",),
    "inbox.FollowUp": ("details",),
}


def register_narrative(label: str, *fields: str) -> None:
    NARRATIVE_FIELDS[label] = tuple(dict.fromkeys((*NARRATIVE_FIELDS.get(label, ()), *fields)))


def narrative_fields() -> dict[type[models.Model], tuple[str, ...]]:
    """Every model with narrative fields, as model class → field names."""
    found: dict[type[models.Model], tuple[str, ...]] = {}
    for label, fields in NARRATIVE_FIELDS.items():
        try:
            found[apps.get_model(label)] = fields
        except LookupError:
            continue  # that part of caseflow is not installed
    for model in apps.get_models():
        declared = getattr(model, "narrative_fields", None)
        if declared:
            found[model] = tuple(dict.fromkeys((*found.get(model, ()), *declared)))
    return found


def evidence_models() -> list[type[models.Model]]:
    """Case-owned models whose rows are evidence and go in a partial purge."""
    return [
        m
        for m in apps.get_models()
        if getattr(m, "case_owned", False) and getattr(m, "narrative_evidence", False)
    ]


def case_owned_models() -> list[type[models.Model]]:
    """Every concrete model that belongs to a case (and is encrypted with its key)."""
    return [m for m in apps.get_models() if getattr(m, "case_owned", False)]
