"""Run caseflow on the embedded default: web server, Celery worker and beat, with demo data."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from caseflow.accounts.models import Agency
from caseflow.demo import seed


class Command(BaseCommand):
    help = "Migrate, seed demo data if the database is empty, and run web + worker + beat."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument(
            "--no-worker",
            action="store_true",
            help="Run the web server only (no Celery worker and beat).",
        )

    def handle(self, *args, port: int, host: str, no_worker: bool, **options):
        if not settings.EMBEDDED:
            raise CommandError("demo runs on the embedded default only: unset DATABASE_URL.")
        var = Path(settings.VAR_DIR)
        for folder in ("broker/queue", "broker/processed", "mail"):
            (var / folder).mkdir(parents=True, exist_ok=True)
        call_command("migrate", interactive=False, verbosity=0)
        users_file = var / "demo-users.json"
        if not Agency.objects.exists():
            self.stdout.write("Seeding demo data…")
            seed.write_logins(seed.seed(), users_file)
        logins = json.loads(users_file.read_text()) if users_file.exists() else []

        env = {**os.environ, "CASEFLOW_DEMO": "1", "PYTHONUNBUFFERED": "1"}
        manage = str(Path(settings.BASE_DIR) / "manage.py")
        children: list[subprocess.Popen] = [
            subprocess.Popen(
                [sys.executable, manage, "runserver", f"{host}:{port}", "--noreload"], env=env
            )
        ]
        if not no_worker:
            children.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "caseflow",
                        "worker",
                        "--beat",
                        "--pool=solo",
                        "--loglevel=INFO",
                        f"--schedule={var / 'celerybeat-schedule'}",
                    ],
                    env=env,
                    cwd=settings.BASE_DIR,
                )
            )

        url = f"http://{host}:{port}/"
        self.stdout.write(self.style.SUCCESS(f"\ncaseflow is running at {url}"))
        self.stdout.write("Demo logins (fictional data; also in var/demo-users.json):")
        for login in logins:
            self.stdout.write(
                f"  {login['role']:<13} {login['username']:<18} "
                f"{login['password']:<20} {login['agency']}"
            )
        self.stdout.write("Stop with Ctrl-C.\n")

        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        try:
            while not stopping:
                if any(child.poll() is not None for child in children):
                    self.stderr.write("A caseflow process stopped; shutting down the others.")
                    break
                time.sleep(0.5)
        finally:
            for child in children:
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 15
            for child in children:
                try:
                    child.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
