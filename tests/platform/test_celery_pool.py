"""Celery's pool processes run their loops with room on CPython's frame stack, as gunicorn's
workers do (``caseflow.platform.pool``): the tasks they run fault in no chunk of it."""

from __future__ import annotations

import sys
from types import FrameType, SimpleNamespace

from billiard.pool import Pool as BilliardPool
from celery.bin.worker import WorkersPool
from celery.concurrency.asynpool import Worker as AsynWorker
from django.conf import settings

from caseflow.celery import app
from caseflow.platform import pool, stack_room
from tests.platform.test_stack_room import _faults, _up_and_down


def _a_task() -> tuple[bool, int]:
    """What a task sees in its pool process: whether a frame under it is the roomy one, and the
    page faults of 1,000 trips 400 calls deep and back."""
    frame: FrameType | None = sys._getframe(1)
    roomy = False
    while frame is not None:
        roomy = roomy or frame.f_code is stack_room._WITH_ROOM.__code__
        frame = frame.f_back
    _up_and_down(1)  # the pages the trips use touched once
    return roomy, _faults(lambda: _up_and_down(1000))


def test_a_task_in_a_pool_process_runs_in_the_room():
    with_room = pool.RoomyBlockingPool(processes=1)
    try:
        roomy, faults = with_room.apply(_a_task)
    finally:
        with_room.terminate()
    assert roomy
    assert faults < 20
    if sys.version_info < (3, 13):
        # Billiard's own pool, on an interpreter that unmaps a chunk when the call that opened
        # it returns: a chunk mapped and faulted in at every crossing.
        plain = BilliardPool(processes=1)
        try:
            roomy, faults = plain.apply(_a_task)
        finally:
            plain.terminate()
        assert not roomy
        assert faults > 2000


def test_the_event_loop_pools_children_run_their_loop_under_it(monkeypatch):
    seen = []

    def workloop(self, *args, **kwargs):
        seen.append((sys._getframe(2).f_code, args, kwargs))  # the lambda's caller
        return 3

    monkeypatch.setattr(AsynWorker, "workloop", workloop)
    child = pool.ChildProcess.__new__(pool.ChildProcess)  # no queues: only its loop is called
    assert child.workloop(pid=7) == 3
    assert seen == [(stack_room._WITH_ROOM.__code__, (), {"pid": 7})]


def test_celery_worker_uses_it_where_it_would_use_prefork():
    assert settings.CELERY_WORKER_POOL == "caseflow.platform.pool:TaskPool"
    context = SimpleNamespace(obj=SimpleNamespace(app=app), token_normalize_func=None)
    assert WorkersPool().convert("prefork", None, context) is pool.TaskPool
    assert pool.TaskPool.Pool is pool.RoomyAsynPool
    assert pool.TaskPool.BlockingPool is pool.RoomyBlockingPool
    # Asked for by name, the others are Celery's own.
    assert WorkersPool().convert("solo", None, context).__module__ == "celery.concurrency.solo"
