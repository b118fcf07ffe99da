"""Fixtures for safety tests: the shipped instruments, loaded as shared instruments."""

from __future__ import annotations

import pytest

from caseflow.safety import instruments as engine
from caseflow.safety import services


def import_shipped(name: str, **kwargs):
    definition = engine.load_instrument(engine.SHIPPED_DIR / name).to_dict()
    row, _ = services.instrument_import(definition=definition, **kwargs)
    return row


@pytest.fixture
def sample(db):
    return import_shipped("caseflow-sample.yaml")


@pytest.fixture
def dash_style(db):
    return import_shipped("example-dash-style.yaml")
