"""Webhook bodies, their signature and one attempt to send one.

Body (JSON, UTF-8): ``{"kind": "<event kind>", "occurred_at": "<ISO 8601, UTC>", "id": "<the
case's random public id>"}``: nothing else, never a name, an address or case text.

Signature header: ``Caseflow-Signature: t=<unix seconds>,v1=<hex>`` where ``<hex>`` is
HMAC-SHA256 with the subscription's secret over ``<t>.<body bytes>``. A receiver recomputes it,
compares in constant time, and refuses a ``t`` more than five minutes away from its clock
(replay). ``Caseflow-Delivery`` holds the delivery's id: a repeated delivery has the same one.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

SIGNATURE_HEADER = "Caseflow-Signature"
DELIVERY_HEADER = "Caseflow-Delivery"
#: How far a receiver should accept a timestamp from its own clock.
TOLERANCE_SECONDS = 300


def body_for(kind: str, occurred_at_iso: str, object_id: str) -> bytes:
    return json.dumps(
        {"kind": kind, "occurred_at": occurred_at_iso, "id": object_id}, separators=(",", ":")
    ).encode()


def sign(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def verify(secret: str, header: str, body: bytes, now: float | None = None) -> bool:
    """What a receiver does (and the tests do): check the signature and the time."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs((now if now is not None else time.time()) - timestamp) > TOLERANCE_SECONDS:
        return False
    expected = sign(secret, timestamp, body)
    return hmac.compare_digest(expected, header.strip())


@dataclass(frozen=True)
class Outcome:
    status: int  # 0: not reached
    error: str = ""

    @property
    def delivered(self) -> bool:
        return 200 <= self.status < 300


#: Host names that always mean this machine or a private network, whatever DNS says.
_PRIVATE_NAMES = ("localhost", ".localhost", ".local", ".internal", ".lan", ".home.arpa")


def _loopback_allowed(url: str) -> bool:
    """Tests only (``WEBHOOK_ALLOW_LOOPBACK_HTTP``): a plain-HTTP receiver on 127.0.0.1."""
    return bool(settings.WEBHOOK_ALLOW_LOOPBACK_HTTP) and url.startswith("http://127.0.0.1:")


def _not_public(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return True
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def address_problem(url: str, *, resolve: bool) -> str:
    """Why caseflow will not send to ``url`` ("" when it will): not https, no host, or a host that
    is (or, with ``resolve``, resolves to) a loopback, private, link-local or otherwise
    non-public address. A webhook must never reach the agency's own network or the cloud's
    metadata service (server-side request forgery). A name that does not resolve is no problem
    here: the attempt then fails and is tried again later."""
    if _loopback_allowed(url):
        return ""
    parts = urlsplit(url)
    if parts.scheme != "https":
        return "SchemeRefused"
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        return "NoHost"
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if host == "localhost" or host.endswith(_PRIVATE_NAMES):
            return "AddressRefused"
    else:
        return "AddressRefused" if _not_public(host) else ""
    if not resolve:
        return ""
    try:
        port = parts.port or 443
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError):
        return ""
    if any(_not_public(str(info[4][0])) for info in found):
        return "AddressRefused"
    return ""


def send(url: str, *, secret: str, body: bytes, delivery_id: str) -> Outcome:
    """POST ``body`` once, within ``WEBHOOK_TIMEOUT_SECONDS``; never raises, never follows a
    redirect, never sends to an address that is not public (checked again here, just before
    sending, because what a name resolves to can change after it was subscribed)."""
    problem = address_problem(url, resolve=True)
    if problem:
        return Outcome(0, problem)
    timestamp = int(time.time())
    request = urllib.request.Request(  # noqa: S310 - http(s) only, checked above
        url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "caseflow-webhooks/1",
            SIGNATURE_HEADER: sign(secret, timestamp, body),
            DELIVERY_HEADER: delivery_id,
        },
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=settings.WEBHOOK_TIMEOUT_SECONDS) as response:
            return Outcome(response.status)
    except urllib.error.HTTPError as exc:
        return Outcome(exc.code, type(exc).__name__)
    except Exception as exc:  # noqa: BLE001 - unreachable, timed out, refused: try again later
        return Outcome(0, type(exc).__name__[:100])


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None
