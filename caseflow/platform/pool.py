"""caseflow's Celery pool: Celery's own prefork pool, each child process's loop run with room on
the frame stack (:mod:`caseflow.platform.stack_room`), as gunicorn's workers are
(:mod:`caseflow.platform.workers`), so that no task maps and unmaps a chunk of CPython's frame
stack. ``CELERY_WORKER_POOL`` names it; ``celery worker`` uses it wherever it would use
``prefork`` (the default), and ``--pool=solo`` and the others are unchanged.

Kept apart from :mod:`caseflow.platform.workers` so that the web process does not import Celery's
pool.
"""

from __future__ import annotations

from typing import Any

from billiard.pool import Pool as BilliardPool
from billiard.pool import Worker as BilliardWorker
from celery.concurrency.asynpool import AsynPool
from celery.concurrency.asynpool import Worker as AsynWorker
from celery.concurrency.prefork import TaskPool as PreforkTaskPool

from caseflow.platform.stack_room import with_room


class _RoomyLoop:
    """A pool process whose loop (every task it runs) is called under :func:`with_room`."""

    def workloop(self, *args: Any, **kwargs: Any) -> Any:
        loop = super().workloop  # type: ignore[misc]
        return with_room(lambda: loop(*args, **kwargs))


class ChildProcess(_RoomyLoop, AsynWorker):
    """A child of the pool the worker runs with its event loop (the usual one)."""


class BlockingChildProcess(_RoomyLoop, BilliardWorker):
    """A child of the pool the worker runs without an event loop."""


class RoomyAsynPool(AsynPool):
    Worker = ChildProcess


class RoomyBlockingPool(BilliardPool):
    Worker = BlockingChildProcess


class TaskPool(PreforkTaskPool):
    """Celery's ``prefork`` pool, its children's loops run with room on the frame stack."""

    Pool = RoomyAsynPool
    BlockingPool = RoomyBlockingPool
