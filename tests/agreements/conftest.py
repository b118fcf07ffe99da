import pytest


@pytest.fixture(autouse=True)
def evidence_root(settings, tmp_path):
    """Evidence files of each test go to a folder of their own."""
    settings.EVIDENCE_ROOT = tmp_path / "evidence"
    return settings.EVIDENCE_ROOT
