"""Every encrypted field of a case-owned model (and of Case) is a narrative or kept, never both."""

from __future__ import annotations

from django.apps import apps

from caseflow.cases.models import Case
from caseflow.lib.encryption import EncryptedTextField


def test_every_encrypted_field_is_classified_exactly_once():
    seen = 0
    unclassified, twice = [], []
    for model in apps.get_models():
        if not (model is Case or getattr(model, "case_owned", False)):
            continue
        narrative = tuple(getattr(model, "narrative_fields", ()))
        kept = tuple(getattr(model, "kept_encrypted_fields", ()))
        for field in model._meta.get_fields():
            if not isinstance(field, EncryptedTextField):  # JSON fields are a subclass
                continue
            seen += 1
            label = f"{model._meta.label}.{field.name}"
            count = narrative.count(field.name) + kept.count(field.name)
            if count == 0:
                unclassified.append(label)
            elif count > 1:
                twice.append(label)
    assert not unclassified, (
        f"declare these narrative_fields or kept_encrypted_fields: {unclassified}"
    )
    assert not twice, f"classified more than once: {twice}"
    assert seen >= 30, f"only {seen} encrypted fields found: is the model loop broken?"
