"""caseflow's gunicorn configuration (``gunicorn.conf.py``, its warm-up and all) with each
request's CPU time taken by page, for ``bench/load/run.py``.

Each worker adds up the CPU time (``time.process_time``) of the requests it serves, by URL
pattern (the route, so that every case page is one page), and writes them to
``$LOAD_PAGES.<pid>`` (JSON) when it exits; ``run.py`` prints them beside the load test's
figures. Taking the time costs a few microseconds a request. With ``$LOAD_PROFILE`` set
(``run.py --profile``), each page is also profiled (cProfile on CPU time, much slower: its
figures are shares, not the run's CPU) into ``$LOAD_PROFILE.<page>.<pid>``.

Only requests served after ``$LOAD_MEASURE_FROM`` (a file ``run.py`` creates when its warm-up
period ends) are counted, so that a long-running worker is what is measured.
"""

from __future__ import annotations

import cProfile
import json
import os
import runpy
import time
from pathlib import Path

_CONF = runpy.run_path(str(Path(__file__).resolve().parent.parent.parent / "gunicorn.conf.py"))
globals().update({k: v for k, v in _CONF.items() if not k.startswith("_") and k != "os"})

#: Per page: [requests, CPU seconds].
_PAGES: dict[str, list[float]] = {}
_PROFILES: dict[str, cProfile.Profile] = {}
_NOW: dict[str, object] = {}


def _measuring() -> bool:
    if _NOW.get("measuring"):
        return True
    started = os.path.exists(os.environ.get("LOAD_MEASURE_FROM", ""))
    _NOW["measuring"] = started
    return started


def _page(path: str) -> str:
    from django.urls import Resolver404, resolve

    try:
        return "/" + str(resolve(path).route)
    except Resolver404:
        return "(no page)"


def pre_request(worker, req) -> None:
    _NOW["page"] = None
    if not _measuring():
        return
    page = _page(req.path)
    _NOW["page"] = page
    if os.environ.get("LOAD_PROFILE"):
        profile = _PROFILES.setdefault(page, cProfile.Profile(time.process_time))
        _NOW["profile"] = profile
        profile.enable()
    _NOW["started"] = time.process_time()


def post_request(worker, req, environ, resp) -> None:
    page = _NOW.get("page")
    if page is None:
        return
    spent = time.process_time() - _NOW["started"]  # type: ignore[operator]
    if os.environ.get("LOAD_PROFILE"):
        _NOW["profile"].disable()  # type: ignore[attr-defined]
    counted = _PAGES.setdefault(page, [0, 0.0])  # type: ignore[arg-type]
    counted[0] += 1
    counted[1] += spent


def worker_exit(server, worker) -> None:
    pid = os.getpid()
    if os.environ.get("LOAD_PAGES"):
        with open(f"{os.environ['LOAD_PAGES']}.{pid}", "w") as fh:
            json.dump(_PAGES, fh)
    for page, profile in _PROFILES.items():
        name = page.strip("/").replace("/", "_").replace("<", "").replace(">", "").replace(":", "-")
        profile.dump_stats(f"{os.environ['LOAD_PROFILE']}.{name or 'home'}.{pid}")
