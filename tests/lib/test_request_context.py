"""The client address: the proxy's header only from a trusted proxy."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.test import RequestFactory
from django.utils.module_loading import import_string

from caseflow.lib.request_context import client_ip


def _request(peer: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


@pytest.fixture
def behind_proxy(settings):
    settings.TRUSTED_PROXY_IP_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXIES = ["10.0.0.0/24", "2001:db8::1"]


@pytest.mark.parametrize(
    ("peer", "forwarded", "expected"),
    [
        # From a trusted proxy: the last hop it appended.
        ("10.0.0.7", "198.51.100.7", "198.51.100.7"),
        ("10.0.0.7", "203.0.113.9, 198.51.100.7", "198.51.100.7"),
        ("2001:db8::1", "198.51.100.7", "198.51.100.7"),
        # A trusted proxy without the header, or with garbage: its own address, or nothing.
        ("10.0.0.7", None, "10.0.0.7"),
        ("10.0.0.7", "not-an-address", ""),
        # Anyone else: the header is ignored, whatever it says.
        ("192.0.2.50", "198.51.100.7", "192.0.2.50"),
        ("10.0.1.7", "198.51.100.7", "10.0.1.7"),
        ("2001:db8::2", "198.51.100.7", "2001:db8::2"),
    ],
)
def test_the_header_counts_only_from_a_trusted_proxy(behind_proxy, peer, forwarded, expected):
    assert client_ip(_request(peer, forwarded)) == expected


def test_no_trusted_proxies_means_the_header_is_never_read(settings):
    settings.TRUSTED_PROXY_IP_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXIES = []
    assert client_ip(_request("10.0.0.7", "198.51.100.7")) == "10.0.0.7"


def test_axes_uses_the_same_address(behind_proxy):
    axes_ip = import_string(django_settings.AXES_CLIENT_IP_CALLABLE)
    assert axes_ip(_request("192.0.2.50", "198.51.100.7")) == "192.0.2.50"
    assert axes_ip(_request("10.0.0.7", "198.51.100.7")) == "198.51.100.7"
