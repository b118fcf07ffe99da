"""Bodies over REQUEST_MAX_BYTES are refused with a 413 page before they are read."""

from __future__ import annotations

from django.urls import reverse


def test_a_body_over_the_limit_gets_413_without_being_read(cast, login, settings):
    settings.REQUEST_MAX_BYTES = 1000
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:new"),
        data=b"x" * 1001,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 413
    body = response.content.decode()
    assert "Too large" in body and response["X-Request-ID"] in body


def test_a_declared_length_is_enough_to_refuse(cast, client, settings):
    settings.REQUEST_MAX_BYTES = 1000
    response = client.generic("POST", reverse("accounts:login"), b"", CONTENT_LENGTH="5000000")
    assert response.status_code == 413


def test_under_the_limit_the_page_answers(cast, login, settings):
    settings.REQUEST_MAX_BYTES = 1000
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:new"), data=b"a=1", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200


def test_form_fields_are_capped_in_memory(settings):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 1024 * 1024
    assert settings.REQUEST_MAX_BYTES >= settings.EVIDENCE_MAX_BYTES
