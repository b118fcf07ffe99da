"""CPU of one page by how deep in the Python stack it is served: CPython 3.11 and 3.12 keep the
interpreter's frames in 16 KiB chunks, each mapped (``mmap``) when a call needs it and unmapped
when the call that opened it returns, so a page whose calls go up and down across a chunk's
edge maps and unmaps a chunk each time (CPython issue gh-142183, fixed in 3.13 and later by
keeping one chunk). Where that edge falls depends on how deep the server calls the application:
the same page costs more or less in gunicorn than through the test client for no reason of its
own.

    uv run python bench/stack_depth.py [--db sqlite|postgres] [--scale 0.01] [--page case]
        [--depths 0 160 8]

Serves the page through Django's WSGI handler (as gunicorn does, the signed-in person's session
cookie and all) twenty times at each extra depth (calls that do nothing but call the next) and
prints the CPU time per request, user and system apart, and the page faults; the same page, the
same rows, only the depth differs. Uses ``bench/run.py``'s scratch database.
"""

from __future__ import annotations

import argparse
import io
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.page_cpu import _pages  # noqa: E402
from bench.run import _database_url, _seed_if_needed, _setup_django  # noqa: E402


def _nest(depth: int, call):
    return call() if depth == 0 else _nest(depth - 1, call)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="postgres")
    parser.add_argument("--scale", type=float, default=0.01)
    parser.add_argument("--tier", default="base")
    parser.add_argument("--page", default="case")
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--depths", type=int, nargs=3, default=[0, 160, 8])
    parser.add_argument("--reseed", action="store_true")
    args = parser.parse_args(argv)
    _setup_django(_database_url(args))
    _seed_if_needed(args)

    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler

    from bench.harness import client_for, scale_cast

    user, url = _pages(scale_cast())[args.page]
    cookies = client_for(user).cookies
    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in cookies.items())
    handler = WSGIHandler()
    host = settings.ALLOWED_HOSTS[0] if settings.ALLOWED_HOSTS else "testserver"

    def serve() -> None:
        environ = {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": url,
            "QUERY_STRING": "",
            "SERVER_NAME": host,
            "SERVER_PORT": "80",
            "HTTP_HOST": host,
            "HTTP_COOKIE": cookie,
            "REMOTE_ADDR": "127.0.0.1",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "wsgi.input": io.BytesIO(b""),
            "wsgi.errors": sys.stderr,
            "wsgi.url_scheme": "http",
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        answered: list[str] = []
        body = handler(environ, lambda status, headers, exc_info=None: answered.append(status))
        b"".join(body)
        if not answered[0].startswith("200"):
            raise AssertionError(f"GET {args.page} answered {answered[0]}")

    def batch() -> None:
        for _ in range(args.requests):
            serve()

    batch()  # warm: the first requests compile what later ones reuse
    print(f"{args.page} page, Python {sys.version.split()[0]}, {args.requests} requests a depth")
    print("| extra depth | CPU per request | user | system | page faults per request |")
    print("|---|---|---|---|---|")
    start, stop, step = args.depths
    for depth in range(start, stop, step):
        _nest(depth, batch)  # this depth's first: nothing of it is left to build
        before = resource.getrusage(resource.RUSAGE_SELF)
        _nest(depth, batch)
        after = resource.getrusage(resource.RUSAGE_SELF)
        user_ms = (after.ru_utime - before.ru_utime) / args.requests * 1000
        system_ms = (after.ru_stime - before.ru_stime) / args.requests * 1000
        faults = (after.ru_minflt - before.ru_minflt) / args.requests
        print(
            f"| +{depth} | {user_ms + system_ms:.1f} ms | {user_ms:.1f} ms | {system_ms:.1f} ms"
            f" | {faults:.0f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
