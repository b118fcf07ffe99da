"""Round trips to the cache a page makes. The settings a page may read (the reader's language,
the agency's, the agency's word for its advocates, whether its lists show initials) come in one
(an MGET on Redis: Django's ``get_many``), whatever the page; each is still forgotten when it
changes, in the request that changes it too."""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

import pytest
from django.core.cache.backends.locmem import LocMemCache
from django.urls import reverse

from caseflow.accounts import language
from caseflow.accounts.language import agency_language, set_agency_language
from caseflow.accounts.models import (
    advocate_title,
    agency_page_keys,
    set_advocate_title,
    set_lists_show_initials,
)
from caseflow.lib import softcache
from tests.conftest import canary

pytestmark = pytest.mark.django_db


class CountingCache(LocMemCache):
    """Django's local-memory cache, noting each call a Redis cache would make one round trip
    for (``get_many`` is one MGET; the local cache answers it with a ``get`` per key, not
    counted)."""

    calls: ClassVar[list[str]] = []

    def _note(self, name: str, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(name)
        self._inside = True
        try:
            return getattr(super(), name)(*args, **kwargs)
        finally:
            self._inside = False

    def get(self, *args: Any, **kwargs: Any) -> Any:
        if getattr(self, "_inside", False):
            return super().get(*args, **kwargs)
        return self._note("get", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._note("get_many", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._note("set", *args, **kwargs)

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._note("add", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._note("incr", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._note("delete", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._note("delete_many", *args, **kwargs)


@pytest.fixture
def counted(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": f"{__name__}.CountingCache",
            "LOCATION": f"counted-{uuid.uuid4().hex}",
        }
    }
    softcache.reset()
    CountingCache.calls.clear()
    return CountingCache.calls


def test_each_page_reads_the_cache_once(cast, login, counted):
    set_agency_language(cast.agency.pk, "es")
    set_advocate_title(cast.agency.pk, "idva")
    set_lists_show_initials(cast.agency.pk, True)
    pages = [
        (cast.assigned, reverse("dashboard")),
        (cast.assigned, reverse("cases:list")),
        (cast.assigned, reverse("cases:detail", args=[cast.case.public_id])),
        (cast.supervisor, reverse("dashboard")),
        (cast.agency_admin, reverse("agency:staff_list")),
    ]
    seen = 0
    for user, url in pages:
        client = login(user)
        first = client.get(url)  # the values are computed and kept, as before
        assert first.status_code == 200, url
        counted.clear()
        page = client.get(url)
        assert page.status_code == 200, url
        assert counted == ["get_many"], (user.username, url, counted)
        body = page.content.decode()
        assert 'lang="es"' in body, url  # what was read is what the page used
        seen += 1
    assert seen == len(pages)
    # And the pages that name the role and the lists said what the agency chose, from that read.
    assert "IDVA" in login(cast.agency_admin).get(reverse("agency:staff_list")).content.decode()
    listing = login(cast.assigned).get(reverse("cases:list")).content.decode()
    assert canary(cast.case) not in listing and f"S.{canary(cast.case)[0]}." in listing


def test_a_value_the_read_did_not_find_is_computed_once_and_kept(cast, login, counted):
    client = login(cast.supervisor)
    assert client.get(reverse("dashboard")).status_code == 200  # a cold cache
    assert counted[0] == "get_many"
    assert "get" not in counted  # nothing asked for again one key at a time
    assert 1 <= counted.count("set") <= 4, counted


def _keys(agency_id: int) -> list[str]:
    return [language._agency_key(agency_id), *agency_page_keys(agency_id)]


def test_a_setting_changed_during_the_request_is_read_afresh(cast, counted, settings):
    assert advocate_title(cast.agency.pk) == "advocate"  # cached
    assert agency_language(cast.agency.pk) == settings.LANGUAGE_CODE
    token = softcache.read_ahead(_keys(cast.agency.pk))
    try:
        counted.clear()
        assert advocate_title(cast.agency.pk) == "advocate"
        assert agency_language(cast.agency.pk) == settings.LANGUAGE_CODE
        assert counted == []  # both from the read
        set_advocate_title(cast.agency.pk, "idva")
        set_agency_language(cast.agency.pk, "es")
        assert advocate_title(cast.agency.pk) == "idva"
        assert agency_language(cast.agency.pk) == "es"
    finally:
        softcache.read_ahead_end(token)
    # Outside the request, each is read from the cache again, and is the new value.
    counted.clear()
    assert advocate_title(cast.agency.pk) == "idva"
    assert counted == ["get"]


def test_the_read_is_the_requests_own(cast, counted):
    assert advocate_title(cast.agency.pk) == "advocate"
    token = softcache.read_ahead(_keys(cast.agency.pk))
    softcache.read_ahead_end(token)
    set_advocate_title(cast.agency.pk, "idva")  # by another process, say
    counted.clear()
    assert advocate_title(cast.agency.pk) == "idva"
    assert counted == ["get", "set"]
