"""The test provider started beside the tests, once per test process, and what the tests ask of
it: register caseflow as a client, add people, switch them off, sign in there as a browser
would."""

from __future__ import annotations

import atexit
import html
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

import requests

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Provider:
    url: str
    control_token: str
    process: subprocess.Popen

    @property
    def issuer(self) -> str:
        return self.url + "/o"

    def _control(self, what: str, data: dict) -> str:
        response = requests.post(
            f"{self.url}/control/{what}/",
            json=data,
            headers={"X-Control-Token": self.control_token},
            timeout=10,
        )
        response.raise_for_status()
        return response.text

    def client(self, client_id: str, client_secret: str, redirect_uris: list[str]) -> None:
        self._control(
            "client",
            {
                "client_id": client_id,
                "client_secret": client_secret,
                "redirect_uris": redirect_uris,
            },
        )

    def person(
        self,
        username: str,
        *,
        groups: list[str],
        mfa: bool = False,
        active: bool = True,
        password: str = "provider-pass",
    ) -> str:
        """Add or change a person; returns their subject."""
        return self._control(
            "user",
            {
                "username": username,
                "password": password,
                "groups": groups + (["provider-mfa"] if mfa else []),
                "active": active,
                "first_name": username.title(),
                "email": f"{username}@example.org",
            },
        )

    def sign_in(self, authorize_url: str, username: str, password: str = "provider-pass") -> str:
        """Follow the provider as a browser would, signing in where it asks, and return where
        it sends the browser back (caseflow's callback, with the code and state), or ``""``
        when it refuses the person."""
        browser = requests.Session()
        url, signed_in = authorize_url, False
        for _step in range(10):
            answer = browser.get(url, allow_redirects=False, timeout=10)
            if answer.status_code == 302:
                url = urljoin(url, answer.headers["Location"])
                if not url.startswith(self.url):
                    return url
                continue
            csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', answer.text)
            next_field = re.search(r'name="next" value="([^"]*)"', answer.text)
            assert csrf is not None and not signed_in, answer.text[:500]
            posted = browser.post(
                url,
                data={
                    "csrfmiddlewaretoken": csrf.group(1),
                    "username": username,
                    "password": password,
                    "next": html.unescape(next_field.group(1)) if next_field else "",
                },
                headers={"Referer": url},
                allow_redirects=False,
                timeout=10,
            )
            if posted.status_code != 302:
                return ""
            signed_in = True
            url = urljoin(url, posted.headers["Location"])
        raise AssertionError("the provider kept redirecting")


_provider: Provider | None = None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def provider() -> Provider:
    """The running test provider (started on first use, stopped when the process ends)."""
    global _provider
    if _provider is not None and _provider.process.poll() is None:
        return _provider
    port = _free_port()
    token = secrets.token_urlsafe(16)
    folder = tempfile.mkdtemp(prefix="oidc-provider-")
    env = {
        **os.environ,
        "PROVIDER_CONTROL_TOKEN": token,
        "PROVIDER_DB": os.path.join(folder, "db.sqlite3"),
    }
    log = open(os.path.join(folder, "server.log"), "w+b")  # noqa: SIM115 - kept while it runs
    env.pop("DJANGO_SETTINGS_MODULE", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.oidc_provider.server", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    atexit.register(process.terminate)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            requests.get(f"{url}/o/.well-known/openid-configuration", timeout=2)
            break
        except requests.ConnectionError:
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                err = log.read().decode(errors="replace")
                raise RuntimeError(f"the test provider did not start: {err[-2000:]}") from None
            time.sleep(0.05)  # the provider's start-up (migrate) is what is waited for
    _provider = Provider(url=url, control_token=token, process=process)
    return _provider
