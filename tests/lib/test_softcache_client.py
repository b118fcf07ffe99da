"""The Redis cache ``CACHES`` names: Django's, with one redis-py client per connection pool kept
for the process; it reads and writes as Django's does, and meets a Redis that is away as before."""

from __future__ import annotations

import socket

import pytest
import redis

from caseflow.lib import softcache
from tests.celery_harness import REDIS_URL


def _reachable() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def _cache(location: str) -> softcache.RedisCache:
    return softcache.RedisCache(
        location,
        {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}, "KEY_PREFIX": "t-kc"},
    )


@pytest.mark.skipif(not _reachable(), reason="needs the tests' Redis (CASEFLOW_TEST_REDIS_URL)")
def test_one_client_is_kept_and_the_cache_reads_and_writes_as_djangos():
    cache = _cache(REDIS_URL)
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=False) is client
    assert cache._cache.get_client(write=True) is client
    cache.set("a", {"x": [1, 2]}, 30)
    assert cache.get("a") == {"x": [1, 2]}
    assert cache.add("a", "other", 30) is False
    assert cache.add("n", 0, 30) is True
    assert cache.incr("n") == 1
    cache.delete_many(["a", "n"])
    assert cache.get("a", "gone") == "gone"
    assert cache._cache.get_client() is client


def test_a_redis_that_is_away_fails_each_call_and_answers_when_back():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cache = _cache(f"redis://127.0.0.1:{port}/0")
    for _ in range(2):  # the kept client does not keep the failure
        with pytest.raises(redis.ConnectionError):
            cache.get("a")
    client = cache._cache.get_client()
    with socket.socket() as listening:  # something answers there now
        listening.bind(("127.0.0.1", port))
        listening.listen(1)
        with pytest.raises(redis.RedisError):
            cache.get("a")  # it connects (and hears no reply before the timeout)
    assert cache._cache.get_client() is client
