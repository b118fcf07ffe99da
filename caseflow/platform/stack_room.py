"""Room on CPython's frame stack for everything a long-running loop calls.

CPython 3.11 and 3.12 keep the interpreter's frames in chunks of 16 KiB (more for a frame that
needs more). A call that does not fit in the current chunk maps a new one (``mmap``), and when
the call that opened it returns the chunk is unmapped again, so calls that go up and down across
a chunk's edge, as the template engine's nodes within nodes do, map, fault in and unmap a chunk
each time: 2 to 10 ms of CPU a request on some of caseflow's pages, depending on nothing but how
deep the server happens to call them (CPython issue gh-142183, fixed in 3.13 by keeping one
chunk; BENCHMARKS.md, "Web CPU per page, tenth pass").

:func:`with_room` calls a function from a frame that takes a chunk of its own, 1 MiB, half of it
left for the calls under it. A gunicorn worker's loop run this way
(:class:`caseflow.platform.workers.SyncWorker`) serves every request inside that chunk, which is
never unmapped while the worker runs: no page faults from the frame stack, whatever the depth.
On an interpreter that keeps its chunks the frame costs a megabyte a worker and nothing a request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: The frame's local variables (8 bytes each): a 512 KiB frame, for which CPython maps a chunk of
#: 1 MiB (chunks are 16 KiB doubled until the frame fits), so 512 KiB are left for the calls
#: under it, room for a thousand frames of a few hundred bytes.
SLOTS = 1 << 16


def _roomy() -> Any:
    # The names are locals of the function (so its frame has a slot for each) though the
    # assignment never runs: the compiler drops the dead branch but keeps its names.
    names = " = ".join(f"_{n}" for n in range(SLOTS))
    source = f"def with_room(call):\n    if False:\n        {names} = None\n    return call()\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, __name__, "exec"), namespace)  # noqa: S102 - the source is the above
    return namespace["with_room"]


#: The function of the large frame, compiled when this module is imported (some 0.2 s: only
#: gunicorn's worker imports it).
_WITH_ROOM = _roomy()


def with_room(call: Callable[[], T]) -> T:
    """``call()``, from a frame whose chunk of the frame stack has room for the calls under
    it."""
    return _WITH_ROOM(call)
