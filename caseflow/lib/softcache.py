"""The cache as an optimisation, never the truth: every use of Django's cache in caseflow goes
through here (a test checks that nothing else imports ``django.core.cache``).

When the cache fails (Redis stopped, unreachable, out of memory, timing out), :func:`remember`
computes the value from the database, :func:`forget` and writes are skipped, and :func:`count`
counts in this process instead. The failure is logged once per outage and process, by its
exception's class only (never a key or a value); for ``RETRY_SECONDS`` after it this process
does not try the cache again, so a Redis that hangs costs one timeout (``CACHES`` sets a short
socket timeout), not one on every request. A key :func:`forget` could not delete is deleted
when the cache answers again, so a change made during the outage is not hidden afterwards by
the value cached before it (a process that ends first leaves it to the key's expiry).

Why not make the cache backend itself ignore errors: Django's own ``RedisCache`` has no such
option, and subclassing it means overriding its private client; django-redis has
``IGNORE_EXCEPTIONS``, but it would be another dependency, it logs every failed call rather
than the outage, and it tries Redis again on every call, so a hanging Redis would slow every
page by its timeout. The few cached things caseflow has read better through three functions.

A request reads the settings every page may need (the reader's language, the agency's word for
its advocates, whether its lists show initials) in one round trip: :func:`read_ahead` fetches
their keys together, and until :func:`read_ahead_end` :func:`remember` answers those keys from
what it found (a key it did not find is computed and cached as before, once) and
:func:`forget` drops them from it too. Nothing else about those values changes: the same keys,
the same timeouts, the same deletes when one changes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar, Token
from typing import Any, TypeVar

from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

log = logging.getLogger(__name__)

T = TypeVar("T")

#: After a failure, how long this process reads from the database without trying the cache.
RETRY_SECONDS = 30.0

_MISSING = object()
_lock = threading.Lock()
_down = False
_retry_at = 0.0
_unforgotten: set[str] = set()
#: Counters kept in this process while the shared cache is away.
_local = LocMemCache("caseflow-softcache", {"MAX_ENTRIES": 10_000})
#: The keys :func:`read_ahead` fetched for the request being served, and what it found for each
#: (``_MISSING``: not in the cache).
_read: ContextVar[dict[str, Any] | None] = ContextVar("caseflow_softcache_read", default=None)


def reset() -> None:
    """Forget any outage seen (for tests, and for a process that knows the cache is back)."""
    global _down, _retry_at
    with _lock:
        _down = False
        _retry_at = 0.0
        _unforgotten.clear()
    _local.clear()


def build_client() -> bool:
    """Build the cache's client now, sending nothing: Django's Redis cache builds it (importing
    redis-py, some 60 modules) at its first use, which would otherwise be a web worker's first
    request (:mod:`caseflow.platform.warm`). False for a cache with no client to build."""
    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, DjangoRedisCache):
        return False
    backend._cache  # noqa: B018 - built on first use, kept by the backend
    return True


def available() -> bool:
    """False while this process is waiting to try the cache again after a failure."""
    return not _down or time.monotonic() >= _retry_at


def _failed(exc: BaseException) -> None:
    global _down, _retry_at
    with _lock:
        first = not _down
        _down = True
        _retry_at = time.monotonic() + RETRY_SECONDS
    if first:
        log.warning(
            "cache unavailable (%s): reading from the database until it answers again",
            type(exc).__name__,
        )


def _recovered() -> bool:
    """True when the cache may be used: it never failed, or, retried after an outage, it answers
    (the deletes missed meanwhile are made first, so no stale value is read)."""
    global _down
    if not _down:
        return True
    with _lock:
        pending = list(_unforgotten)
    try:
        if pending:
            cache.delete_many(pending)
        else:
            cache.get("caseflow:ping")
    except Exception as exc:  # noqa: BLE001
        _failed(exc)
        return False
    with _lock:
        _down = False
        _unforgotten.difference_update(pending)
    log.warning("cache answering again")
    return True


def read_ahead(keys: Iterable[str]) -> Token[dict[str, Any] | None]:
    """Fetch ``keys`` in one round trip for :func:`remember` to answer from, until
    :func:`read_ahead_end` with the token returned (the request's middleware calls both). While
    the cache is away nothing is fetched: :func:`remember` computes, as without it."""
    found: dict[str, Any] | None = None
    if available() and _recovered():
        wanted = list(keys)
        try:
            got = cache.get_many(wanted)
        except Exception as exc:  # noqa: BLE001 - any cache failure: the database answers
            _failed(exc)
        else:
            found = {key: got.get(key, _MISSING) for key in wanted}
    return _read.set(found)


def read_ahead_end(token: Token[dict[str, Any] | None]) -> None:
    _read.reset(token)


def remember(key: str, compute: Callable[[], T], timeout: int) -> T:
    """The cached value of ``key``, or ``compute()`` (cached for ``timeout`` seconds). ``compute``
    must not return None (store a marker instead)."""
    read = _read.get()
    if read is not None and key in read:
        found = read[key]
        if found is not _MISSING:
            return found  # type: ignore[no-any-return]
        value = read[key] = compute()
        _store(key, value, timeout)
        return value
    if not available() or not _recovered():
        return compute()
    try:
        found = cache.get(key, _MISSING)
    except Exception as exc:  # noqa: BLE001 - any cache failure: the database answers
        _failed(exc)
        return compute()
    if found is not _MISSING:
        return found  # type: ignore[return-value]
    value = compute()
    _store(key, value, timeout)
    return value


def _store(key: str, value: Any, timeout: int) -> None:
    if _down:  # failed since it was read: the value is not kept
        return
    try:
        cache.set(key, value, timeout)
    except Exception as exc:  # noqa: BLE001
        _failed(exc)


def forget(key: str) -> None:
    """Drop ``key`` (its value changed). Tried again when the cache answers if it fails now."""
    read = _read.get()
    if read is not None:
        read.pop(key, None)
    if not available() or not _recovered():
        with _lock:
            _unforgotten.add(key)
        return
    try:
        cache.delete(key)
    except Exception as exc:  # noqa: BLE001
        with _lock:
            _unforgotten.add(key)
        _failed(exc)


def count(key: str, timeout: int) -> int:
    """Add one to the counter ``key`` (created for ``timeout`` seconds) and return it. While the
    cache is away the count is this process's own: a limit is then kept per process."""
    if available() and _recovered():
        try:
            cache.add(key, 0, timeout=timeout)
            try:
                found = cache.incr(key)
            except ValueError:  # expired between add and incr
                found = 1
        except Exception as exc:  # noqa: BLE001
            _failed(exc)
        else:
            return found
    _local.add(key, 0, timeout=timeout)
    try:
        return _local.incr(key)
    except ValueError:
        return 1


def ping() -> bool:
    """One round trip to the cache (for ``/status/``), tried even while this process waits to
    retry; records an outage like any other use."""
    was_down = _down
    if not _recovered():
        return False
    if not was_down:
        try:
            cache.get("caseflow:ping")
        except Exception as exc:  # noqa: BLE001
            _failed(exc)
            return False
    return True


class _ClientPerPool(RedisCacheClient):
    """Django's client of Redis, keeping one redis-py client per connection pool for the
    process. Django makes a new one for every call, and redis-py builds its table of reply
    parsers with each: some 60 µs of CPU a call, several calls a page. A redis-py client over a
    pool may be shared between threads; the pool makes, checks and replaces the connections (in
    a forked process too), so a Redis that stops and comes back is met as before."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own pool for the call (kept for the process) and its redis-py class, which
        # the type stubs do not declare.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            made = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            client = self._clients.setdefault(id(pool), made)
        return client


class RedisCache(DjangoRedisCache):
    """Django's ``RedisCache`` with :class:`_ClientPerPool`: what ``CACHES`` names when Redis is
    configured, and a :meth:`clear` that deletes the cache's keys only."""

    #: How many keys :meth:`clear` asks for and deletes at a time.
    CLEAR_BATCH = 500

    def __init__(self, server: Any, params: Any) -> None:
        super().__init__(server, params)
        self._class = _ClientPerPool

    def clear(self) -> None:
        """Delete every key of this cache (its prefix's, of every version), and nothing else.
        Django's own ``clear`` empties the whole Redis database (``FLUSHDB``), and the Celery
        broker may keep its queues in the same one (one ``REDIS_URL`` serves both): clearing
        the cache would lose every task waiting there, and the queues' bindings, so that the
        tasks sent next would be dropped too."""
        client = self._cache.get_client(None, write=True)
        # Django's keys are "<prefix>:<version>:<key>"; the prefix's glob characters escaped.
        prefix = "".join(f"\\{c}" if c in "*?[]\\" else c for c in self.key_prefix)
        batch: list[bytes] = []
        for key in client.scan_iter(match=f"{prefix}:*", count=self.CLEAR_BATCH):
            batch.append(key)
            if len(batch) == self.CLEAR_BATCH:
                client.unlink(*batch)
                batch.clear()
        if batch:
            client.unlink(*batch)
