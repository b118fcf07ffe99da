"""The Redis cache ``CACHES`` names: Django's, with one redis-py client per connection pool kept
for the process; it reads and writes as Django's does, meets a Redis that is away as before, and
clears its own keys only (the broker's queues may share its database)."""

from __future__ import annotations

import socket
import uuid

import kombu
import pytest
import redis

from caseflow.lib import softcache
from tests.celery_harness import REDIS_URL


def _reachable() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def _cache(location: str, prefix: str = "t-kc") -> softcache.RedisCache:
    return softcache.RedisCache(
        location,
        {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}, "KEY_PREFIX": prefix},
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


@pytest.mark.skipif(not _reachable(), reason="needs the tests' Redis (CASEFLOW_TEST_REDIS_URL)")
def test_clearing_the_cache_deletes_its_keys_and_leaves_the_brokers_queues():
    # One REDIS_URL serves the cache and the broker: a message waits on a queue (kombu's list
    # and its exchange's bindings) in the database the cache clears.
    name = f"caseflow-test-clear-{uuid.uuid4().hex[:10]}"
    with kombu.Connection(REDIS_URL) as connection:
        queue = connection.SimpleQueue(name)
        queue.put({"task": "waiting"})
        queue.close()
    # The cache as configured (no key prefix), its keys of two versions; another cache's.
    cache, other = _cache(REDIS_URL, prefix=""), _cache(REDIS_URL, prefix="a*")
    nearby = _cache(REDIS_URL, prefix="ab")
    cache.set("a", 1, 30)
    cache.set("a", 2, 30, version=2)
    other.set("a", 3, 30)
    nearby.set("a", 4, 30)
    cache.clear()
    assert (cache.get("a"), cache.get("a", version=2)) == (None, None)
    assert (other.get("a"), nearby.get("a")) == (3, 4)
    # A prefix's glob characters are its own: "a*" clears its key, not "ab"'s.
    other.clear()
    assert (other.get("a"), nearby.get("a")) == (None, 4)
    nearby.clear()
    with kombu.Connection(REDIS_URL) as connection:
        queue = connection.SimpleQueue(name)
        message = queue.get(timeout=2)
        assert message.payload == {"task": "waiting"}
        message.ack()
        queue.queue.delete()
        queue.close()


@pytest.mark.skipif(not _reachable(), reason="needs the tests' Redis (CASEFLOW_TEST_REDIS_URL)")
def test_clearing_deletes_in_batches(monkeypatch):
    cache = _cache(REDIS_URL, prefix=f"t-batch-{uuid.uuid4().hex[:6]}")
    monkeypatch.setattr(softcache.RedisCache, "CLEAR_BATCH", 3)
    cache.set_many({f"k{n}": n for n in range(8)}, 30)
    cache.clear()
    assert cache.get_many([f"k{n}" for n in range(8)]) == {}
