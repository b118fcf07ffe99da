"""caseflow's compose stack, run without Docker: every app service of ``docker-compose.yml``
with its own command and health check, as the image would run them.

No Docker engine runs on the CI machine (and no image registry is reachable), so this takes the
other way: it reads ``Dockerfile``, ``.dockerignore`` and ``docker-compose.yml`` (parsed, never
restated here) and

1. checks them: the image runs as a user that is not root, declares the volumes, bakes no secret
   into its environment; ``.dockerignore`` keeps out local state (``var/``, keys, databases,
   ``.env``), ``.venv``, ``.git`` and caches; evidence and the audit head sink lie on named
   volumes that the README's backup names; web, worker and beat each have a health check;
2. lays out a scratch root like the image: the tree copied as ``COPY . .`` copies it (through
   ``.dockerignore``) to the Dockerfile's WORKDIR, owned by root and not writable by the app
   user; the image's virtual environment built as the Dockerfile builds it; the volumes owned
   by the app user (created with ``useradd --system`` as in the Dockerfile when missing);
3. runs the ``migrate`` service, then web, worker and beat, as the app user, with the compose
   environment (interpolated as compose does, with throwaway secrets) mapped to this machine:
   the ``postgres`` service's URL to a scratch PostgreSQL database, the ``redis`` service's to
   Redis database 13, absolute paths into the scratch root, ``HOSTNAME`` as Docker sets it, and
   gunicorn bound to a free port (``GUNICORN_BIND``: this machine's 8000 may be taken);
4. asserts each service's health check, run as the file gives it, fails before the service
   starts and passes once it runs, and that the app user can write an evidence file through
   caseflow's evidence storage and the audit head sink, and cannot write the code.

Every process it starts is stopped, the scratch database dropped, the scratch root removed.

    uv run python .ci/compose_check.py [--database-url URL] [--redis-url URL]
                                       [--static-from DIR | --no-static] [--python PATH]

``--database-url`` names an existing, migrated database to use instead of a scratch one (the
test suite passes its own); ``--static-from`` copies static files collected elsewhere instead
of collecting them again (CI collects them for the deploy check).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import fnmatch
import json
import os
import pwd
import re
import secrets
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

import yaml

ROOT = Path(__file__).resolve().parent.parent
#: The app services: built from the Dockerfile. postgres and redis are the machine's own.
RUNNING_SERVICES = ("web", "worker", "beat")
#: Variables whose values must never be baked into the image.
SECRET_NAMES = ("SECRET_KEY", "FIELD_ENCRYPTION_KEYS", "BLIND_INDEX_KEY", "AUDIT_SIGNING_KEY")
#: Paths (relative to the tree) the image must leave out, and some it must keep.
MUST_EXCLUDE = (
    ".git/HEAD",
    ".git",
    ".venv/bin/python",
    "var/keys.env",
    "var/caseflow.sqlite3",
    "var/evidence/ab/cd",
    "var/demo-users.json",
    ".env",
    "caseflow/__pycache__/settings.cpython-312.pyc",
    "staticfiles/staticfiles.json",
    "caseflow.sqlite3",
    "celerybeat-schedule",
)
MUST_INCLUDE = (
    "manage.py",
    "gunicorn.conf.py",
    "docker/healthcheck.py",
    "caseflow/settings.py",
    "caseflow/wsgi.py",
    "templates/base.html",
    "locale/es/LC_MESSAGES/django.mo",
    "pyproject.toml",
    "uv.lock",
)
#: Docker's default PATH, where the Dockerfile's ENV PATH says "$PATH".
DOCKER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
HEALTH_DEADLINE = 90
STOP_SECONDS = 15


class CheckFailed(Exception):
    pass


def say(text: str) -> None:
    print(f"compose check: {text}", flush=True)


# --- Reading the files -------------------------------------------------------------------------


@dataclass
class Dockerfile:
    workdir: str = "/"
    user: str = "root"
    created_users: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    volumes: list[str] = field(default_factory=list)
    cmd: list[str] = field(default_factory=list)


def read_dockerfile(text: str) -> Dockerfile:
    """The instructions that shape the running container (final stage only)."""
    image = Dockerfile()
    logical = re.sub(r"\\\n", " ", text)
    for raw in logical.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        instruction, _, rest = line.partition(" ")
        instruction, rest = instruction.upper(), rest.strip()
        if instruction == "FROM":
            image = Dockerfile()
        elif instruction == "WORKDIR":
            image.workdir = str(PurePosixPath(image.workdir) / rest)
        elif instruction == "USER":
            image.user = rest.split(":")[0]
        elif instruction == "ENV":
            for pair in shlex.split(rest):
                name, _, value = pair.partition("=")
                image.env[name] = value.replace("$PATH", image.env.get("PATH", DOCKER_PATH))
        elif instruction == "VOLUME":
            image.volumes += json.loads(rest) if rest.startswith("[") else rest.split()
        elif instruction == "CMD":
            image.cmd = json.loads(rest)
        elif instruction == "RUN":
            image.created_users += re.findall(
                r"useradd\b[^&;|]*?\s([a-z_][a-z0-9_-]*)\s*(?:$|&&|;)", rest
            )
    return image


def read_dockerignore(text: str) -> list[tuple[bool, str]]:
    """(excludes, pattern) rules in order; a later rule wins, as Docker applies them."""
    rules = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = line.lstrip("!").strip().strip("/")
        rules.append((not negate, str(PurePosixPath(pattern))))
    return rules


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    parts = []
    for i, part in enumerate(pattern.split("/")):
        if part == "**":
            parts.append("(?:.*/)?" if i == 0 else "(?:/.*)?")
            continue
        piece = fnmatch.translate(part).removeprefix("(?s:").removesuffix(")\\Z")
        piece = piece.replace(".*", "[^/]*")
        parts.append(("/" if i and parts[-1] != "(?:.*/)?" else "") + piece)
    return re.compile("".join(parts) + r"(?:/.*)?\Z", re.DOTALL)


def ignored(path: str, rules: list[tuple[bool, str]]) -> bool:
    """Whether ``COPY . .`` leaves ``path`` (relative, with /) out: a rule matching the path
    or one of its parent folders excludes it, a later ``!`` rule brings it back."""
    verdict = False
    for excludes, pattern in rules:
        if _pattern_regex(pattern).match(path):
            verdict = excludes
    return verdict


def interpolate(value, variables: dict[str, str]):
    """Compose's variable interpolation (``${A}``, ``${A:-default}``, ``${A:?error}``, ``$$``)
    over strings, lists and mappings."""
    if isinstance(value, list):
        return [interpolate(v, variables) for v in value]
    if isinstance(value, dict):
        return {k: interpolate(v, variables) for k, v in value.items()}
    if not isinstance(value, str):
        return value

    def one(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, op, arg = match.group(1), match.group(2), match.group(3) or ""
        current = variables.get(name, "")
        if op == ":-":
            return current or arg
        if op == ":?" and not current:
            raise CheckFailed(f"compose refuses to start without {name}: {arg}")
        return current

    return re.sub(r"\$\$|\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, value)


def compose_services() -> dict[str, dict]:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return compose["services"]


def named_volumes(service: dict) -> dict[str, str]:
    """Mount target → named volume, for the service's named (not host-path) volumes."""
    found = {}
    for entry in service.get("volumes", []):
        source, _, target = entry.partition(":")
        if source and not source.startswith((".", "/", "~")):
            found[target.split(":")[0]] = source
    return found


def under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


# --- 1. The files themselves ---------------------------------------------------------------


def static_problems() -> list[str]:
    problems = []
    image = read_dockerfile((ROOT / "Dockerfile").read_text())
    rules = read_dockerignore((ROOT / ".dockerignore").read_text())
    services = compose_services()
    if image.user in ("root", "0", ""):
        problems.append("the Dockerfile's final USER is root")
    if image.user not in image.created_users:
        problems.append(f"the Dockerfile runs as {image.user!r} but creates {image.created_users}")
    for name in SECRET_NAMES:
        if name in image.env:
            problems.append(f"the Dockerfile bakes {name} into the image's environment")
    if not image.volumes:
        problems.append("the Dockerfile declares no VOLUME")
    for path in MUST_EXCLUDE:
        if not ignored(path, rules):
            problems.append(f".dockerignore lets {path} into the image")
    for path in MUST_INCLUDE:
        if ignored(path, rules) or not (ROOT / path).exists():
            problems.append(f"the image would miss {path}")
    readme = (ROOT / "README.md").read_text()
    backup = readme.partition("### Backup and restore")[2].partition("\n## ")[0]
    for name in RUNNING_SERVICES:
        service = services.get(name)
        if service is None:
            problems.append(f"docker-compose.yml has no {name} service")
            continue
        if not service.get("healthcheck", {}).get("test"):
            problems.append(f"the {name} service has no health check")
        env = {**image.env, **{k: str(v) for k, v in service.get("environment", {}).items()}}
        volumes = named_volumes(service)
        for target in volumes:
            if target not in image.volumes:
                problems.append(f"{name} mounts {target}, which the Dockerfile does not declare")
        evidence = interpolate(env.get("EVIDENCE_ROOT", ""), {})
        sink = interpolate(env.get("AUDIT_HEAD_SINK", "/"), {})
        for setting, path in (
            ("EVIDENCE_ROOT", evidence),
            ("AUDIT_HEAD_SINK", str(PurePosixPath(sink).parent)),
        ):
            mounted = [v for t, v in volumes.items() if under(path, t)]
            if not mounted:
                problems.append(f"{name}: {setting} ({path}) is on no named volume")
            elif f"`{mounted[0]}`" not in backup:
                problems.append(f"the README's backup does not name the {mounted[0]} volume")
        # Web writes nothing there and the worker reads nothing: the one who asked downloads from
        # web what a worker wrote, so both mount the same volume (not backed up: short-lived).
        media = interpolate(env.get("MEDIA_ROOT", ""), {})
        if not any(under(media, t) for t in volumes):
            problems.append(f"{name}: MEDIA_ROOT ({media or 'unset'}) is on no named volume")
    return problems


# --- 2. A root laid out like the image -----------------------------------------------------


def app_user(name: str) -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--system", "--create-home", name], check=True)
        say(f"created the system user {name} (as the Dockerfile does)")
        return pwd.getpwnam(name)


def copy_tree(target: Path, rules: list[tuple[bool, str]]) -> int:
    """``COPY . .``: the tree through .dockerignore, owned by root, writable by root only."""
    copied = 0
    for folder, dirs, files in os.walk(ROOT):
        rel_folder = Path(folder).relative_to(ROOT).as_posix()
        rel_folder = "" if rel_folder == "." else rel_folder
        dirs[:] = [d for d in dirs if not ignored(f"{rel_folder}/{d}".lstrip("/"), rules)]
        for name in files:
            rel = f"{rel_folder}/{name}".lstrip("/")
            if ignored(rel, rules):
                continue
            source, dest = ROOT / rel, target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if source.is_symlink():
                continue
            shutil.copy2(source, dest)
            os.chmod(dest, stat.S_IMODE(source.stat().st_mode) & 0o755)
            copied += 1
    for folder, dirs, _ in os.walk(target):
        for d in dirs:
            os.chmod(Path(folder) / d, 0o755)
    os.chmod(target, 0o755)
    return copied


def build_root(scratch: Path, image: Dockerfile, user: pwd.struct_passwd, args) -> Path:
    rules = read_dockerignore((ROOT / ".dockerignore").read_text())
    app = scratch / image.workdir.lstrip("/")
    count = copy_tree(app, rules)
    leaked = [
        p.relative_to(app).as_posix()
        for p in app.rglob("*")
        if p.name in (".git", ".venv", "var", "keys.env", "__pycache__", ".env")
        or p.suffix in (".sqlite3", ".pyc")
    ]
    if leaked:
        raise CheckFailed(f"the image's tree would hold local state: {leaked[:5]}")
    say(f"copied {count} files to {image.workdir} as COPY . . would")
    venv = scratch / image.env["UV_PROJECT_ENVIRONMENT"].lstrip("/")
    uv = shutil.which("uv") or "uv"
    subprocess.run([uv, "venv", "-q", "--python", args.python, str(venv)], check=True)
    subprocess.run(
        [uv, "sync", "-q", "--locked", "--no-dev", "--no-install-project"],
        cwd=app,
        env={**os.environ, "UV_PROJECT_ENVIRONMENT": str(venv)},
        check=True,
    )
    static = app / "staticfiles"
    if args.static_from:
        shutil.copytree(args.static_from, static)
    elif not args.no_static:
        say("collecting static files as the image's build does")
        subprocess.run(
            [str(venv / "bin" / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=app,
            env={
                **os.environ,
                **throwaway_keys(),
                "STATIC_ROOT": str(static),
                "DATABASE_URL": f"sqlite:///{scratch}/build.sqlite3",
            },
            check=True,
        )
    for folder, _, files in os.walk(static):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(Path(folder) / name, 0o644)
    for volume in image.volumes:
        path = scratch / volume.lstrip("/")
        path.mkdir(parents=True)
        os.chown(path, user.pw_uid, user.pw_gid)
        os.chmod(path, 0o750)
    tmp = scratch / "tmp"
    tmp.mkdir()
    os.chmod(tmp, 0o1777)
    return app


def throwaway_keys() -> dict[str, str]:
    from cryptography.fernet import Fernet

    return {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "FIELD_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
        "BLIND_INDEX_KEY": secrets.token_urlsafe(32),
        "AUDIT_SIGNING_KEY": base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
    }


# --- 3. The services, as the app user ------------------------------------------------------


@dataclass
class Stack:
    scratch: Path
    app: Path
    image: Dockerfile
    user: pwd.struct_passwd
    database_url: str
    redis_url: str
    port: int
    variables: dict[str, str]
    running: dict[str, subprocess.Popen] = field(default_factory=dict)

    def path(self, value: str) -> str:
        """An absolute path of the container, in the scratch root."""
        return str(self.scratch / value.lstrip("/")) if value.startswith("/") else value

    def arg(self, value: str) -> str:
        if value.startswith("/"):
            return self.path(value)
        match = re.fullmatch(r"(--?[\w-]+=)(/.*)", value)
        return match.group(1) + self.path(match.group(2)) if match else value

    def env(self, service: dict) -> dict[str, str]:
        given = interpolate(service.get("environment", {}), self.variables)
        env = {**self.image.env, **{k: str(v) for k, v in given.items()}}
        for name, host, local in (
            ("DATABASE_URL", "postgres", self.database_url),
            ("REDIS_URL", "redis", self.redis_url),
        ):
            if urlsplit(env[name]).hostname != host:
                raise CheckFailed(f"{name} does not point at the {host} service: {env[name]}")
            env[name] = local
        env = {k: v if k == "PATH" else self.path(v) for k, v in env.items()}
        env["PATH"] = ":".join(
            self.path(p) if (self.scratch / p.lstrip("/")).exists() else p
            for p in env.get("PATH", DOCKER_PATH).split(":")
        )
        env.update(
            HOME=self.user.pw_dir,
            USER=self.user.pw_name,
            LANG="C.UTF-8",
            HOSTNAME=socket.gethostname(),
            GUNICORN_BIND=f"127.0.0.1:{self.port}",
        )
        return env

    def command(self, name: str) -> list[str]:
        service = compose_services()[name]
        given = interpolate(service.get("command") or self.image.cmd, self.variables)
        return [self.arg(a) for a in (shlex.split(given) if isinstance(given, str) else given)]

    def healthcheck(self, name: str) -> list[str]:
        test = interpolate(compose_services()[name]["healthcheck"]["test"], self.variables)
        if isinstance(test, str):
            return ["/bin/sh", "-c", test]
        if test[0] == "CMD-SHELL":
            return ["/bin/sh", "-c", test[1]]
        assert test[0] == "CMD", test
        return [self.arg(a) for a in test[1:]]

    def run(self, name: str, argv: list[str], timeout: float) -> subprocess.CompletedProcess:
        return subprocess.run(
            argv,
            cwd=self.app,
            env=self.env(compose_services()[name]),
            user=self.user.pw_uid,
            group=self.user.pw_gid,
            extra_groups=[],
            capture_output=True,
            text=True,
            timeout=timeout,
            start_new_session=True,
        )

    def start(self, name: str) -> None:
        log = (self.scratch / f"{name}.log").open("w")
        self.running[name] = subprocess.Popen(
            self.command(name),
            cwd=self.app,
            env=self.env(compose_services()[name]),
            user=self.user.pw_uid,
            group=self.user.pw_gid,
            extra_groups=[],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def healthy(self, name: str) -> bool:
        try:
            return self.run(name, self.healthcheck(name), timeout=30).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def wait_healthy(self, name: str, deadline: float) -> float:
        started = time.monotonic()
        while not self.healthy(name):
            process = self.running[name]
            if process.poll() is not None:
                raise CheckFailed(f"{name} stopped ({process.returncode}):\n{self.log(name)}")
            if time.monotonic() > deadline:
                last = self.run(name, self.healthcheck(name), timeout=30)
                raise CheckFailed(
                    f"{name}'s health check does not pass: {last.stdout}{last.stderr}\n"
                    f"{self.log(name)}"
                )
            time.sleep(0.5)
        return time.monotonic() - started

    def log(self, name: str) -> str:
        path = self.scratch / f"{name}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def stop(self) -> None:
        for process in self.running.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        until = time.monotonic() + STOP_SECONDS
        for process in self.running.values():
            try:
                process.wait(timeout=max(0.1, until - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            # A child left behind in the service's group (gunicorn's, celery's workers).
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)


PROBE = """
import os, sys
from django.conf import settings
from django.core.files.base import ContentFile
from caseflow.cases.evidence import evidence_storage
storage = evidence_storage()
name = storage.save("compose-check/probe.bin", ContentFile(b"probe"))
assert storage.open(name).read() == b"probe"
storage.delete(name)
from caseflow.lib import sealedfiles
name = sealedfiles.write("compose-check", b"probe")
assert sealedfiles.read(name) == b"probe"
sealedfiles.delete(name)
with open(settings.AUDIT_HEAD_SINK, "a"):
    pass
for path in (settings.BASE_DIR / "probe", settings.BASE_DIR / "caseflow" / "settings.py"):
    try:
        open(path, "a").close()
    except PermissionError:
        continue
    sys.exit(f"the app user can write {path}")
print("ok", settings.EVIDENCE_ROOT, settings.AUDIT_HEAD_SINK, settings.MEDIA_ROOT)
"""


# --- The run -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def scratch_database(base: str, name: str, drop: bool = False) -> str:
    import psycopg

    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop:
            conn.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}"


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def check(args) -> None:
    started = time.monotonic()
    problems = static_problems()
    if problems:
        raise CheckFailed("\n".join(problems))
    say("Dockerfile, .dockerignore and docker-compose.yml: as they should be")
    if args.static_only:
        return
    image = read_dockerfile((ROOT / "Dockerfile").read_text())
    user = app_user(image.user)
    scratch = Path(tempfile.mkdtemp(prefix="caseflow-compose-"))
    os.chmod(scratch, 0o755)
    database = args.database_url
    pg_base = "postgres://postgres@127.0.0.1:5432"
    stack = None
    try:
        if database is None:
            database = scratch_database(pg_base, "caseflow_compose_check")
        flush_redis(args.redis_url)
        app = build_root(scratch, image, user, args)
        variables = {
            **throwaway_keys(),
            "POSTGRES_PASSWORD": secrets.token_urlsafe(16),
            "ALLOWED_HOSTS": "caseflow.example.org",
            # A reverse proxy that is not this machine: the health check must not need one.
            "TRUSTED_PROXIES": "10.9.8.7",
        }
        stack = Stack(scratch, app, image, user, database, args.redis_url, free_port(), variables)
        say(f"laid out like the image in {time.monotonic() - started:.0f} s")
        migrate = stack.run("migrate", stack.command("migrate"), timeout=args.timeout)
        if migrate.returncode:
            raise CheckFailed(f"migrate failed:\n{migrate.stdout}{migrate.stderr}")
        say(f"migrate ran as {user.pw_name} ({time.monotonic() - started:.0f} s)")
        # Not vacuous: web's and beat's checks fail before they run (the worker's ping would
        # only wait out its own timeout).
        for name in ("web", "beat"):
            if stack.healthy(name):
                raise CheckFailed(f"{name}'s health check passes with no {name} running")
        deadline = time.monotonic() + HEALTH_DEADLINE
        for name in RUNNING_SERVICES:
            stack.start(name)
        for name in RUNNING_SERVICES:
            waited = stack.wait_healthy(name, deadline)
            say(f"{name} is healthy ({' '.join(stack.healthcheck(name))}; {waited:.1f} s)")
        probe = stack.run(
            "web", ["python", "manage.py", "shell", "--no-imports", "-c", PROBE], timeout=60
        )
        if probe.returncode or "ok" not in probe.stdout:
            raise CheckFailed(f"writing as {user.pw_name}:\n{probe.stdout}{probe.stderr}")
        say(
            f"{user.pw_name} writes evidence and audit heads, not the code ({probe.stdout.strip()})"
        )
        for name, process in stack.running.items():
            if process.poll() is not None:
                raise CheckFailed(f"{name} stopped:\n{stack.log(name)}")
    finally:
        if stack is not None:
            stack.stop()
        if args.database_url is None:
            scratch_database(pg_base, "caseflow_compose_check", drop=True)
        flush_redis(args.redis_url)
        shutil.rmtree(scratch, ignore_errors=True)
    say(f"passed in {time.monotonic() - started:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help="an existing, migrated database to use")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--static-from", help="static files collected elsewhere")
    parser.add_argument("--no-static", action="store_true", help="no static files at all")
    parser.add_argument("--static-only", action="store_true", help="check the files only")
    parser.add_argument(
        "--python",
        default=next(
            (
                p
                for p in ("/usr/bin/python3.12", "/usr/bin/python3.11", "/usr/bin/python3")
                if os.path.exists(p)
            ),
            sys.executable,
        ),
        help="an interpreter the app user may run, for the image's virtual environment",
    )
    parser.add_argument("--timeout", type=float, default=240)
    args = parser.parse_args(argv)
    try:
        check(args)
    except CheckFailed as exc:
        print(f"compose check failed: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
