"""Which stored values are narratives or evidence: what a partial (narratives-only) purge clears.

Every encrypted field (``EncryptedTextField``, ``EncryptedJSONField`` or a subclass) of a
case-owned model (``case_owned = True``) and of ``Case`` itself is classified on the model, by
the app that owns it, with two class attributes:

``narrative_fields = ("field", ...)``
    Free text a person wrote about what happened (notes, descriptions, reasons, comments, plan
    sections). A partial purge overwrites each with an empty value of its type (``""``, ``{}``,
    ``[]``) and keeps the row, so the case's counts stay.

``kept_encrypted_fields = ("field", ...)``
    Values a partial purge keeps: what identifies or finds the record (names, dates of birth,
    contact details, references) and structured machine data. The model says why in a comment.

Each such field is in exactly one of the two; ``tests/confidentiality/test_narratives.py`` fails
on a field in neither, and the system check in :mod:`caseflow.confidentiality.checks` fails at
start-up on a declared name that is not an encrypted field of the model.

A model whose rows are evidence in their own right declares ``narrative_evidence = True``: a
partial purge deletes its rows of the case (its encrypted fields are declared narratives).
"""

from __future__ import annotations

from django.apps import apps
from django.db import models

from caseflow.lib.encryption import EncryptedTextField


def is_encrypted(field: object) -> bool:
    # EncryptedJSONField is a subclass of EncryptedTextField.
    return isinstance(field, EncryptedTextField)


def classified_models() -> list[type[models.Model]]:
    """``Case`` and every concrete case-owned model: the models whose encrypted fields are
    classified."""
    case = apps.get_model("cases", "Case")
    return [m for m in apps.get_models() if m is case or getattr(m, "case_owned", False)]


def encrypted_field_names(model: type[models.Model]) -> list[str]:
    return [f.name for f in model._meta.get_fields() if is_encrypted(f)]


def declared_narratives(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(getattr(model, "narrative_fields", ()))


def narrative_fields() -> dict[type[models.Model], tuple[str, ...]]:
    """Every model with narrative fields, as model class → field names."""
    return {m: declared_narratives(m) for m in classified_models() if declared_narratives(m)}


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
