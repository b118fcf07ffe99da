import pytest


@pytest.fixture
def evidence_root(settings):
    """The folder this test's evidence files go to (a fresh temporary one, set for every test in
    tests/conftest.py)."""
    return settings.EVIDENCE_ROOT
