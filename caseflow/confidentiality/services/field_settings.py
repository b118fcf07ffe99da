"""Field settings: hiding or relabelling an agency's optional intake fields."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import FieldSetting, IntakeField
from caseflow.confidentiality.services.configure import may_configure


@transaction.atomic
def field_settings_save(*, actor: User, values: dict[str, tuple[bool, str]]) -> None:
    """Hide or relabel optional intake fields for the actor's agency."""
    if not may_configure(actor):
        raise PermissionDenied
    agency_id = policy.agency_id_of(actor)
    if agency_id is None:
        raise PermissionDenied
    changed = []
    for name, (hidden, label) in values.items():
        if name not in IntakeField.values:
            raise ValueError(f"unknown field {name}")
        setting, _ = FieldSetting.objects.get_or_create(agency_id=agency_id, field=name)
        if (setting.hidden, setting.label) != (hidden, label):
            setting.hidden, setting.label = hidden, label
            setting.save()
            changed.append(name)
    record("fields.save", actor=actor, detail={"fields": changed})
