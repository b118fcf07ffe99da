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


def _is_trusted_proxy(address: str) -> bool:
    try:
        peer = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(peer in ipaddress.ip_network(net, strict=False) for net in settings.TRUSTED_PROXIES)


def client_ip(request: HttpRequest) -> str:
    """The client address: the socket peer, or, when the peer is one of ``TRUSTED_PROXIES``,
    the last address the proxy appended to ``TRUSTED_PROXY_IP_HEADER``. Anyone else reaching
    the app server directly cannot choose their address by sending the header."""
    header = settings.TRUSTED_PROXY_IP_HEADER
    peer = request.META.get("REMOTE_ADDR", "")
    candidate = ""
    if header and _is_trusted_proxy(peer):
        meta_key = "HTTP_" + header.upper().replace("-", "_")
        # The proxy appends the address it saw last; everything before it is client-supplied.
        candidate = request.META.get(meta_key, "").split(",")[-1].strip()
    if not candidate:
        candidate = peer
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return ""
