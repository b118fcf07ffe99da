"""Who is being served, apart from who they are: the request id and client address of the
request (or the id of the task) being run, held in a context variable.

Services take the acting user and never the HTTP request (``case_open(*, actor, ...)``); what
an audit event needs to know about the request travels here instead. Two places set it, and
nothing else does: :class:`caseflow.middleware.RequestIdMiddleware` for every web request and
:class:`caseflow.lib.tasks.CaseflowTask` for every Celery task (the task id, no address). Each
resets it when done, so a worker never carries one request's address into the next piece of
work. Outside both (a management command, a test calling a service directly) there is none.
"""

from __future__ import annotations

import contextvars
import ipaddress
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.conf import settings
from django.http import HttpRequest


@dataclass
class RequestContext:
    """The request or task being served: its id, the client's address (a request's only) and
    the cases whose read it has already recorded (so a case page records one read, not two)."""

    request_id: str = ""
    ip: str = ""
    case_reads: set[int] = field(default_factory=set)
    #: Cases the actor reached only by covering a colleague (``policy.get_case_for``).
    cover_cases: set[int] = field(default_factory=set)


_context: contextvars.ContextVar[RequestContext | None] = contextvars.ContextVar(
    "caseflow_request_context", default=None
)


@contextmanager
def serving(*, request_id: str, ip: str = "") -> Iterator[RequestContext]:
    """Run the block as serving one request (or task) with this id and client address."""
    context = RequestContext(request_id=request_id, ip=ip)
    token = _context.set(context)
    try:
        yield context
    finally:
        _context.reset(token)


def current() -> RequestContext | None:
    """The request or task being served, or ``None`` outside both."""
    return _context.get()


def current_request_id(request: HttpRequest | None = None) -> str:
    rid: str = getattr(request, "request_id", "") if request is not None else ""
    if rid:
        return rid
    context = _context.get()
    return context.request_id if context is not None else ""


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
