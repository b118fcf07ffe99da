"""Keeping personal data out of logs and error reports.

:class:`RedactPersonalData` is attached to every log handler. It drops the request object that
Django attaches to its records (its POST data, cookies and headers), replaces exception messages
in tracebacks (they may quote a value) by the exception's type, and masks the values of known
sensitive keys in dict arguments. :class:`NoPersonalDataReporterFilter` makes error reports
(e.g. e-mails to ``ADMINS``) carry no request data and no local variables.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Mapping
from typing import Any

from django.views.debug import SafeExceptionReporterFilter

MASK = "[redacted]"

#: URL paths that carry a secret (the calendar feed's token, an enrolment or reset link's
#: token): access-log lines keep the path's shape, never the secret.
SECRET_PATHS = (
    re.compile(r"(/checkins/calendar/)[^/\s?\"']+(\.ics)"),
    re.compile(r"(/accounts/link/[^/\s?\"']+/)[^/\s?\"']+(/)"),
)


#: A URL's query string: what follows ``?`` after a path or a host, up to a space, a quote or a
#: fragment. Its values are whatever a form or a crafted link sent (a GET form's fields, a name,
#: a date of birth), so no log keeps them.
QUERY = re.compile(r"((?:/|://)[^\s?\"'#]*)\?([^\s\"'#]*)")
#: The query of a request line (``GET /path?query HTTP/1.1``), up to the protocol: a malformed
#: request may carry spaces in it, and the servers quote the whole line when they refuse it.
REQUEST_LINE_QUERY = re.compile(r"((?:/|://)[^\s?\"'#]*)\?(.*?)(?= HTTP/\d)")


def redact_query_string(query: str) -> str:
    """A query string (without its ``?``) with every value masked and the names kept:
    ``name=Jo&dob=1990-01-02`` becomes ``name=[redacted]&dob=[redacted]``. A part without
    ``=`` is itself a value and is masked whole."""
    parts = []
    for part in re.split(r"([&;])", query):
        if part in ("&", ";", ""):
            parts.append(part)
        elif "=" in part:
            parts.append(f"{part.split('=', 1)[0]}={MASK}")
        else:
            parts.append(MASK)
    return "".join(parts)


def redact_paths(text: str) -> str:
    """``text`` with the secret part of every secret-bearing URL path masked, and every value
    of every URL's query string (see :func:`redact_query_string`)."""
    for pattern in SECRET_PATHS:
        text = pattern.sub(rf"\g<1>{MASK}\g<2>", text)
    for pattern in (REQUEST_LINE_QUERY, QUERY):
        text = pattern.sub(lambda m: f"{m.group(1)}?{redact_query_string(m.group(2))}", text)
    return text


#: Keys whose values never reach a log, whatever their nesting.
SENSITIVE_KEYS = frozenset(
    {
        "password",
        "old_password",
        "new_password",
        "password1",
        "password2",
        "token",
        "otp_token",
        "secret",
        "key",
        "csrfmiddlewaretoken",
        "sessionid",
        "cookie",
        "authorization",
        "full_name",
        "known_as",
        "aliases",
        "pronouns",
        "name",
        "first_name",
        "last_name",
        "date_of_birth",
        "address",
        "phone",
        "email",
        "safe_phone",
        "safe_email",
        "third_party",
        "code_word",
        "notes",
        "summary",
        "reason",
        "description",
        "username",
    }
)


def _is_sensitive(key: Any) -> bool:
    if not isinstance(key, str):
        return False
    k = key.lower()
    return k in SENSITIVE_KEYS or any(
        part in k for part in ("password", "secret", "token", "survivor_", "other_")
    )


def redact(value: Any, depth: int = 0) -> Any:
    """A copy of ``value`` with the values of sensitive keys masked."""
    if depth > 5:
        return MASK
    if isinstance(value, Mapping):
        return {k: MASK if _is_sensitive(k) else redact(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact(v, depth + 1) for v in value)
    return value


def _traceback_without_messages(exc_info) -> str:
    """The stack of an exception (and of its causes), with every exception message replaced
    by its type: messages may carry the values being processed."""
    te: traceback.TracebackException | None = traceback.TracebackException(
        *exc_info, capture_locals=False
    )
    chain = []
    while te is not None:
        chain.append(te)
        te = te.__cause__ or (None if te.__suppress_context__ else te.__context__)
    lines: list[str] = []
    for i, link in enumerate(reversed(chain)):
        if i:
            lines.append("\nThe above exception led to another:\n\n")
        lines.append("Traceback (most recent call last):\n")
        lines.extend(link.stack.format())
        name = getattr(link, "exc_type_str", None) or getattr(link.exc_type, "__qualname__", "")
        lines.append(f"{name}: {MASK}\n")
    return "".join(lines).rstrip("\n")


class RedactPersonalData(logging.Filter):
    """Never drops a record; strips what may identify a person from it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request", None) is not None:
            # AdminEmailHandler and others would render the whole request (POST data included).
            record.request = None
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = _traceback_without_messages(record.exc_info)
            record.exc_info = None
        if isinstance(record.msg, str):
            record.msg = redact_paths(record.msg)
        if isinstance(record.args, Mapping):
            record.args = redact(record.args)
        elif isinstance(record.args, tuple):
            record.args = tuple(
                redact_paths(a) if isinstance(a, str) else redact(a) for a in record.args
            )
        for name, value in list(vars(record).items()):
            if _is_sensitive(name) and name not in ("name",):
                setattr(record, name, MASK)
            elif isinstance(value, Mapping) and name not in ("args", "__dict__"):
                setattr(record, name, redact(value))
        return True


class NoPersonalDataReporterFilter(SafeExceptionReporterFilter):
    """Error reports show the stack only: no POST data, no local variables, no settings."""

    def is_active(self, request) -> bool:
        return True

    def get_post_parameters(self, request) -> dict:
        if request is None:
            return {}
        return {key: MASK for key in request.POST}

    def get_traceback_frame_variables(self, request, tb_frame):
        return {}.items()
