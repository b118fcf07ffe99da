"""Health checks for caseflow's containers (``docker-compose.yml`` runs them).

    python docker/healthcheck.py [PATH]       web: PATH (default /health/) answers 200
    python docker/healthcheck.py --beat FILE  beat: its schedule FILE was written lately

Docker runs these every few seconds, so they load neither Django nor caseflow. Exit status 0
means healthy; otherwise one line says why.

The web check asks gunicorn on this container's own port (from ``GUNICORN_BIND``, as
``gunicorn.conf.py`` reads it) and sends the site's Host header, the first name in
``ALLOWED_HOSTS``: Django answers 400 to any other. The health paths are exempt from the HTTPS
redirect (``SECURE_REDIRECT_EXEMPT`` in settings); a redirect is not followed and counts as a
failure.

Beat writes its schedule file when it starts and again, at least every few minutes, while it
sends tasks (caseflow's beat sends one every few seconds): a file older than
``BEAT_HEALTH_SECONDS`` (default 600) means beat has stopped sending.
"""

from __future__ import annotations

import glob
import http.client
import os
import sys
import time


def host_header() -> str:
    """The first usable name in ALLOWED_HOSTS (".example.org" allows example.org itself)."""
    for name in os.environ.get("ALLOWED_HOSTS", "").split(","):
        name = name.strip().lstrip(".")
        if name and "*" not in name:
            return name
    return "localhost"


def web_port() -> int:
    bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
    _, _, port = bind.rpartition(":")
    return int(port) if port.isdigit() else 8000


def check_web(path: str) -> str:
    """ "" when ``path`` answers 200, else what went wrong."""
    connection = http.client.HTTPConnection("127.0.0.1", web_port(), timeout=5)
    try:
        connection.request("GET", path, headers={"Host": host_header()})
        status = connection.getresponse().status
    except OSError as exc:
        return f"{path}: no answer ({exc.__class__.__name__})"
    finally:
        connection.close()
    return "" if status == 200 else f"{path} answered {status}"


def check_beat(schedule: str) -> str:
    """ "" when beat's schedule file (a shelve: the database module may add a suffix) was
    written within BEAT_HEALTH_SECONDS, else what went wrong."""
    written = [os.path.getmtime(p) for p in glob.glob(glob.escape(schedule) + "*")]
    if not written:
        return f"beat has not written {schedule}"
    age = time.time() - max(written)
    limit = int(os.environ.get("BEAT_HEALTH_SECONDS", "600"))
    return "" if age <= limit else f"beat last wrote its schedule {int(age)} s ago"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--beat"] and len(argv) == 2:
        problem = check_beat(argv[1])
    elif len(argv) <= 1 and all(a.startswith("/") for a in argv):
        problem = check_web(argv[0] if argv else "/health/")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
