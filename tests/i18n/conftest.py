import pytest
from django.core.cache import cache
from django.utils import translation


@pytest.fixture(autouse=True)
def fresh_language_cache():
    """Language choices are cached by agency and user id; ids come back in the next test's
    database, so each test starts and ends with an empty cache."""
    cache.clear()
    yield
    cache.clear()
    translation.deactivate()
