"""A web process made ready before its first request: views imported, each language's catalogs
and reverse table built, caseflow's templates compiled and kept."""

from __future__ import annotations

from django.conf import settings
from django.template import engines

from caseflow.platform.warm import _template_names, warm_up


def _kept() -> dict:
    loader = engines["django"].engine.template_loaders[0]
    return loader.get_template_cache


def test_warm_up_compiles_every_template_of_caseflow_and_keeps_it():
    folder = settings.TEMPLATES[0]["DIRS"][0]
    names = _template_names(folder)
    assert "cases/case_detail.html" in names and "base.html" in names
    _kept().clear()
    done = warm_up()
    assert done["languages"] == len(settings.LANGUAGES) == 3
    assert done["templates"] == len(names) > 150
    kept = _kept()
    for name in ("cases/case_detail.html", "base.html", "checkins/panel.html"):
        assert name in kept, name


def test_warm_up_builds_the_cache_client_without_connecting(settings):
    """With Redis as the cache, its client (and redis-py) is built before the first request;
    nothing is sent, so a Redis that is not there does not stop the worker from warming up."""
    from django.core.cache import caches

    settings.CACHES = {
        "default": {
            "BACKEND": "caseflow.lib.softcache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        }
    }
    cache = caches["default"]
    assert "_cache" not in vars(cache)
    done = warm_up()
    assert done["cache_clients"] == 1
    assert "_cache" in vars(cache) and cache is caches["default"]


def test_warm_up_leaves_a_local_memory_cache_alone(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert warm_up()["cache_clients"] == 0
