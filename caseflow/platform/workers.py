"""caseflow's gunicorn worker: gunicorn's own synchronous worker, its loop run with room on the
frame stack (:mod:`caseflow.platform.stack_room`), so that no request maps and unmaps a chunk
of CPython's frame stack. ``gunicorn.conf.py`` names it."""

from __future__ import annotations

from gunicorn.workers.sync import SyncWorker as GunicornSyncWorker

from caseflow.platform.stack_room import with_room


class SyncWorker(GunicornSyncWorker):
    """gunicorn's ``sync`` worker; its loop (every request it serves) runs under
    :func:`with_room`."""

    def run(self) -> None:
        with_room(super().run)
