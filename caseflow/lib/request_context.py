"""The request id and client address of the request being served."""

from __future__ import annotations

import contextvars
import ipaddress

from django.conf import settings
from django.http import HttpRequest

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")


def current_request_id(request: HttpRequest | None = None) -> str:
    rid: str = getattr(request, "request_id", "") if request is not None else ""
    if rid:
        return rid
    return request_id_var.get()


def client_ip(request: HttpRequest) -> str:
    """The client address: from the trusted proxy's header when one is configured, else the
    socket peer. A header the proxy does not set is never trusted."""
    header = settings.TRUSTED_PROXY_IP_HEADER
    candidate = ""
    if header:
        meta_key = "HTTP_" + header.upper().replace("-", "_")
        # The proxy appends the address it saw last; everything before it is client-supplied.
        candidate = request.META.get(meta_key, "").split(",")[-1].strip()
    if not candidate:
        candidate = request.META.get("REMOTE_ADDR", "")
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return ""
