"""A long-running loop run with room on CPython's frame stack: calls going up and down under it
never map and unmap a chunk of the stack (page faults), whatever the depth; and caseflow's
gunicorn worker runs its loop that way."""

from __future__ import annotations

import resource
import sys
from pathlib import Path

import pytest
from gunicorn.workers.sync import SyncWorker as GunicornSyncWorker

from caseflow.platform import stack_room, workers
from caseflow.platform.stack_room import SLOTS, with_room

ROOT = Path(__file__).resolve().parents[2]


def _down(depth: int) -> int:
    return 0 if depth == 0 else _down(depth - 1)


def _up_and_down(times: int) -> None:
    """Four hundred calls deep and back, ``times`` times: some 45 KiB of small frames, across
    at least two edges of 16 KiB chunks wherever it starts."""
    for _ in range(times):
        _down(400)


def _faults(call) -> int:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    call()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def test_calls_under_it_fault_in_no_chunk_of_the_frame_stack():
    def in_the_room() -> int:
        _up_and_down(1)  # the room's first pages touched once
        return _faults(lambda: _up_and_down(1000))

    assert with_room(in_the_room) < 20
    if sys.version_info < (3, 13):
        # Without it, on an interpreter that unmaps a chunk when the call that opened it
        # returns: a chunk (4 pages) mapped and faulted in at every crossing.
        assert _faults(lambda: _up_and_down(1000)) > 2000


def test_it_answers_what_the_call_answers_and_raises_what_it_raises():
    assert with_room(lambda: 42) == 42
    with pytest.raises(KeyError, match="missing"):
        with_room(lambda: {}["missing"])
    # Its frame is the size that takes a chunk of 1 MiB.
    assert stack_room._WITH_ROOM.__code__.co_nlocals >= SLOTS == 1 << 16


def test_the_worker_runs_its_loop_under_it(monkeypatch):
    seen = []

    def run(self) -> None:
        seen.append(sys._getframe(1).f_code.co_nlocals)  # the frame that called the loop

    monkeypatch.setattr(GunicornSyncWorker, "run", run)
    worker = workers.SyncWorker.__new__(workers.SyncWorker)  # no arbiter, socket or config
    worker.run()
    assert seen == [stack_room._WITH_ROOM.__code__.co_nlocals]


def test_gunicorn_conf_names_the_worker():
    from gunicorn.app.wsgiapp import WSGIApplication
    from gunicorn.config import Config

    app = WSGIApplication.__new__(WSGIApplication)
    app.cfg = Config()
    app.load_config_from_file(str(ROOT / "gunicorn.conf.py"))
    assert app.cfg.worker_class is workers.SyncWorker
