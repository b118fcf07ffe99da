"""Start-up checks of the narrative classification (see :mod:`caseflow.confidentiality.narratives`).

A declared name that is not an encrypted field of its model (a typo, a renamed field) would
otherwise be skipped without a word, and a partial purge would leave that narrative behind.
"""

from __future__ import annotations

from django.apps import apps
from django.core import checks

from caseflow.confidentiality import narratives

DECLARATIONS = ("narrative_fields", "kept_encrypted_fields")


def check_narrative_declarations(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    errors: list[checks.CheckMessage] = []
    if app_configs is None:
        models = apps.get_models()
    else:
        models = [m for config in app_configs for m in config.get_models()]
    for model in models:
        encrypted = set(narratives.encrypted_field_names(model))
        for attribute in DECLARATIONS:
            declared = getattr(model, attribute, ())
            if isinstance(declared, str):
                errors.append(
                    checks.Error(
                        f"{model._meta.label}.{attribute} must be a tuple of field names, "
                        "not a string.",
                        obj=model,
                        id="confidentiality.E002",
                    )
                )
                continue
            for name in declared:
                if name not in encrypted:
                    errors.append(
                        checks.Error(
                            f"{model._meta.label}.{attribute} names {name!r}, which is not an "
                            "encrypted field of the model.",
                            hint="Declare only EncryptedTextField or EncryptedJSONField fields.",
                            obj=model,
                            id="confidentiality.E001",
                        )
                    )
    return errors


def check_pack_rows(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """A feature's pack rows name a category of ours: rows under another name would never
    leave in a pack (nor be asked for in a release)."""
    from caseflow.cases import features
    from caseflow.confidentiality.models import Category

    return [
        checks.Error(
            f"The case feature {feature.name!r} adds pack rows to {rows.category!r}, which is not "
            "a category of information.",
            hint=f"Use one of {', '.join(Category.values)}.",
            obj=feature.name,
            id="confidentiality.E003",
        )
        for feature in features.registered()
        for rows in feature.pack_rows
        if rows.category not in Category.values
    ]
