"""The servers caseflow runs on, as real processes on free ports: gunicorn as the Dockerfile starts
it (``gunicorn.conf.py``), and the development server ``manage.py demo`` runs.

On both, the access log keeps a request's path and none of the personal data a GET form's fields
carried in its query string, and a body over ``REQUEST_MAX_BYTES`` gets caseflow's 413 page.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from caseflow.agency.forms import StaffForm
from caseflow.cases.forms import IntakeForm

ROOT = Path(__file__).resolve().parents[2]
#: Every wait below is bounded by this (seconds).
DEADLINE = 60

#: A survivor's name and date of birth (the intake form), a member of staff's name and e-mail
#: address (the agency admin's staff form): what a form sent by GET, or a crafted link, carries.
SURVIVOR = {"survivor_full_name": "Philippa Quennell", "survivor_date_of_birth": "1987-04-19"}
STAFF = {"first_name": "Ottoline", "last_name": "Brackenbury", "email": "o.brackenbury@example.org"}
PERSONAL = (
    "Philippa",
    "Quennell",
    "1987-04-19",
    "Ottoline",
    "Brackenbury",
    "o.brackenbury",
    "example.org",
)


@dataclass
class Server:
    """A server process whose standard output and error are collected line by line."""

    process: subprocess.Popen
    port: int
    lines: list[str] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def collect(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def wait_for(self, pattern: str) -> str:
        """The first output line matching ``pattern``, waiting for it (bounded)."""
        regex = re.compile(pattern)

        def found() -> str | None:
            return next((line for line in self.lines if regex.search(line)), None)

        with self.changed:
            self.changed.wait_for(
                lambda: found() is not None or self.process.poll() is not None, timeout=DEADLINE
            )
            line = found()
        assert line is not None, f"no {pattern!r} in the server's output:\n{self.log}"
        return line

    @property
    def log(self) -> str:
        with self.changed:
            return "".join(self.lines)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _embedded_env(var_dir: Path) -> dict[str, str]:
    """The embedded default (SQLite and keys under a scratch folder), whatever this test run
    is configured with."""
    drop = {
        "DATABASE_URL",
        "REDIS_URL",
        "SECRET_KEY",
        "FIELD_ENCRYPTION_KEYS",
        "BLIND_INDEX_KEY",
        "AUDIT_SIGNING_KEY",
        "AUDIT_HEAD_SINK",
        "ALLOWED_HOSTS",
        "STATIC_ROOT",
        "CASEFLOW_REQUIRE_SERVICES",
        "CASEFLOW_TEST_CLOCK",
        "DJANGO_SETTINGS_MODULE",
        "PYTEST_VERSION",
        "PYTEST_XDIST_WORKER",
    }
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        CASEFLOW_VAR_DIR=str(var_dir),
        DJANGO_SETTINGS_MODULE="caseflow.settings",
        PYTHONUNBUFFERED="1",
        DEBUG="0",
    )
    return env


@pytest.fixture(params=["gunicorn", "development server"], scope="module")
def server(request, tmp_path_factory) -> Iterator[Server]:
    port = _free_port()
    env = _embedded_env(tmp_path_factory.mktemp("var"))
    if request.param == "gunicorn":
        # Every atom that can hold a URL, besides gunicorn's default format.
        logformat = (
            '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" '
            "%(U)s %(q)s %({query_string}e)s %({raw_uri}e)s %({location}o)s"
        )
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            str(ROOT / "gunicorn.conf.py"),
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--access-logformat",
            logformat,
            "caseflow.wsgi:application",
        ]
        ready = r"Booting worker"
    else:
        command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
        ready = r"Starting development server"
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
    )
    running = Server(process=process, port=port)
    reader = threading.Thread(target=running.collect, daemon=True)
    reader.start()
    try:
        running.wait_for(ready)
        yield running
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(timeout=5)


def _connect(port: int) -> socket.socket:
    """A connection to the server, once it listens: the development server says it starts
    just before it binds, so a refusal is tried again (bounded; a refused connection returns at
    once)."""
    until = time.monotonic() + DEADLINE
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=DEADLINE)
        except ConnectionRefusedError:
            if time.monotonic() > until:
                raise


def _exchange(port: int, head: bytes, body_size: int = 0) -> tuple[int, bytes]:
    """Send a request (its body, if any, from another thread: the server may answer and
    close before reading it) and read the whole answer: (status, body)."""
    sock = _connect(port)
    sent = threading.Event()

    def send_body() -> None:
        chunk = b"x" * (1024 * 1024)
        left = body_size
        try:
            while left > 0:
                sock.sendall(chunk[: min(left, len(chunk))])
                left -= len(chunk)
        except OSError:
            pass  # the server stopped reading: what it answered is what counts
        finally:
            sent.set()

    with sock:
        sock.sendall(head)
        sender = threading.Thread(target=send_body, daemon=True)
        sender.start()
        answer = b""
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
                status_and_headers, _, body = answer.partition(b"\r\n\r\n")
                length = re.search(rb"(?im)^content-length:\s*(\d+)", status_and_headers)
                if length and len(body) >= int(length.group(1)):
                    break
        except ConnectionResetError:
            pass
        sender.join(timeout=DEADLINE)
    assert answer, "the server answered nothing"
    status_and_headers, _, body = answer.partition(b"\r\n\r\n")
    status = int(status_and_headers.split(b" ", 2)[1])
    return status, body


def test_the_access_log_keeps_the_path_and_no_personal_data(server):
    requests = [
        (reverse("cases:new"), {**SURVIVOR}),
        (reverse("agency:staff_new"), {**STAFF}),
    ]
    # The values sent are the forms' own fields.
    assert set(SURVIVOR) <= set(IntakeForm.base_fields)
    assert set(STAFF) <= set(StaffForm.base_fields)
    for path, fields in requests:
        query = urlencode(fields)
        head = (
            f"GET {path}?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Referer: http://127.0.0.1/{path.strip('/')}/?{query}\r\n"
            "Connection: close\r\n\r\n"
        ).encode()
        status, _ = _exchange(server.port, head)
        assert status in (200, 302)
        # The access line is written once the answer is sent.
        line = server.wait_for(rf"GET {re.escape(path)}\?")
        assert "[redacted]" in line
        for name in fields:
            assert f"{name}=[redacted]" in line, line
    log = server.log
    assert len(requests) == 2
    for value in PERSONAL:
        assert value not in log, f"{value!r} is in the access log:\n{log}"


def test_a_body_over_the_limit_gets_the_413_page(server, settings):
    size = 40 * 1024 * 1024
    assert size > settings.REQUEST_MAX_BYTES
    path = reverse("accounts:login")
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {size}\r\nConnection: close\r\n\r\n"
    ).encode()
    status, body = _exchange(server.port, head, body_size=size)
    page = body.decode("utf-8", "replace")
    assert status == 413, page
    assert "Too large" in page and "larger than caseflow accepts" in page
    assert "A server error occurred" not in page
