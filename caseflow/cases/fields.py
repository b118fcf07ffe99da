"""An agency's settings for its optional fields (hide or relabel: NNEDV's "collect the minimum"),
read wherever those fields are collected or shown: intake, the person and case forms, the case
page, and anything that leaves the agency."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest

from caseflow import policy
from caseflow.cases.models import (
    FIELD_PLACES,
    HIDDEN_UNTIL_SHOWN,
    Case,
    FieldSetting,
    IntakeField,
)
from caseflow.lib.compiled import CompiledQuery


def intake_field_config(user: Any) -> dict[str, dict[str, Any]]:
    """The user's agency's settings for optional intake fields: {name: {hidden, label}}."""
    return agency_field_config(policy.agency_id_of(user))


def _settings_of(*, agency: int) -> QuerySet[FieldSetting]:
    return FieldSetting.objects.filter(agency_id=agency, field__in=IntakeField.values)


#: Every case page reads them: their SQL is built once per process.
_SETTINGS = CompiledQuery(FieldSetting, _settings_of, agency="int")


def agency_field_config(agency_id: int | None) -> dict[str, dict[str, Any]]:
    """An agency's settings for its optional fields: {IntakeField name: {hidden, label}}; a
    field of :data:`HIDDEN_UNTIL_SHOWN` the agency never set is hidden."""
    if agency_id is None:
        return {}
    config: dict[str, dict[str, Any]] = {
        str(name): {"hidden": True, "label": ""} for name in HIDDEN_UNTIL_SHOWN
    }
    config.update(
        {s.field: {"hidden": s.hidden, "label": s.label} for s in _SETTINGS.rows(agency=agency_id)}
    )
    return config


_REQUEST_CACHE = "_caseflow_field_config"


@dataclass(frozen=True)
class FieldConfig:
    """One agency's optional-field settings, read where those fields are collected or shown.

    ``settings`` is keyed by ``IntakeField`` name (what ``intake_field_config`` returns); the
    other views key them by the attribute that stores the field (``FIELD_PLACES``).
    """

    settings: dict[str, dict[str, Any]]

    def for_case(self) -> dict[str, dict[str, Any]]:
        """{case attribute: {hidden, label}} for the configured case fields."""
        return self._place("case", None)

    def for_kind(self, kind: str) -> dict[str, dict[str, Any]]:
        """{attribute: {hidden, label}} for the configured fields of a case's records of
        ``kind`` ("note", "incident")."""
        return self._place(kind, None)

    def for_role(self, role: str) -> dict[str, dict[str, Any]]:
        """{party attribute: {hidden, label}} for the configured fields of a party in ``role``."""
        return self._place("party", role)

    def _place(self, kind: str, role: str | None) -> dict[str, dict[str, Any]]:
        return {
            attribute: self.settings[name]
            for name, (place, place_role, attribute) in FIELD_PLACES.items()
            if place == kind and place_role == role and name in self.settings
        }


def field_config(request: HttpRequest, case: Case | None = None) -> FieldConfig:
    """The field settings of ``case``'s agency (by default, of the user's own agency).

    Read once per request and agency, however many times a request asks.
    """
    agency_id = case.agency_id if case is not None else policy.agency_id_of(request.user)
    cache = getattr(request, _REQUEST_CACHE, None)
    if cache is None:
        cache = {}
        setattr(request, _REQUEST_CACHE, cache)
    if agency_id not in cache:
        cache[agency_id] = FieldConfig(agency_field_config(agency_id))
    return cache[agency_id]
