"""The error pages cannot fail: no database, no static manifest, no template context beyond the
request id; and with their templates gone, the same words inline."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory

from caseflow import errors

HANDLERS = [
    (errors.bad_request, 400, "Bad request"),
    (errors.permission_denied, 403, "Not allowed"),
    (errors.page_not_found, 404, "Not found"),
    (errors.server_error, 500, "Something went wrong"),
]


def _request():
    request = RequestFactory().get("/somewhere/")
    request.request_id = "rid-4f2a<b>"
    return request


def _call(handler, request):
    if handler is errors.server_error:
        return handler(request)
    return handler(request, Exception("about someone"))


# No ``db`` fixture: any query these handlers made would fail the test.
@pytest.mark.parametrize("handler, status, title", HANDLERS)
def test_no_database_and_no_static_manifest(handler, status, title, settings, tmp_path, caplog):
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path / "static"  # empty: no manifest
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    response = _call(handler, _request())
    assert response.status_code == status
    body = response.content.decode()
    assert f"<h1>{title}</h1>" in body
    assert "give them this reference: <code>rid-4f2a&lt;b&gt;</code>" in body  # escaped
    assert errors.PAGES[status][1] in body and f"<title>{title} · caseflow</title>" in body
    assert "Request id" not in body
    assert "/static/" not in body and "about someone" not in body
    assert not [r for r in caplog.records if r.name == "caseflow.errors"]  # the template served


@pytest.mark.parametrize("handler, status, title", HANDLERS)
def test_missing_templates_fall_back_to_inline_text(handler, status, title, settings, tmp_path):
    settings.TEMPLATES = [
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [tmp_path],  # empty
            "APP_DIRS": False,
            "OPTIONS": {},
        }
    ]
    response = _call(handler, _request())
    assert response.status_code == status
    body = response.content.decode()
    assert f"<h1>{title}</h1>" in body and errors.PAGES[status][1] in body
    assert "give them this reference: <code>rid-4f2a&lt;b&gt;</code>" in body


@pytest.mark.parametrize("handler, status, title", HANDLERS)
def test_a_broken_template_falls_back_too(handler, status, title, settings, tmp_path):
    (tmp_path / "error.html").write_text("{% url 'no-such-view' %}")
    settings.TEMPLATES = [
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [tmp_path],
            "APP_DIRS": False,
        }
    ]
    body = _call(handler, _request()).content.decode()
    assert f"<h1>{title}</h1>" in body


def test_an_unknown_url_is_served_the_404_page(db, settings):
    settings.DEBUG = False
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "There is nothing here, or nothing you can open." in body
    assert response["X-Request-ID"] in body


# --------------------------------------------------------------------------------------------------
# A form whose security token no longer matches (signed in again in another tab).


def _refused(cast, *, referer: str | None, language: str | None = None):
    from django.urls import reverse

    from caseflow.accounts.language import set_agency_language
    from tests.conftest import verified_session

    if language:
        set_agency_language(cast.agency.pk, language)
    client = Client(enforce_csrf_checks=True)
    verified_session(client, cast.assigned)
    form = reverse("casework:note_new", args=[cast.case.public_id])
    headers = {"HTTP_REFERER": referer} if referer else {}
    response = client.post(
        form, {"body": "Sam Sample, born 4 May 1990", "_draft": "note-new"}, **headers
    )
    return form, response


def test_a_refused_form_gets_caseflows_page_with_the_way_back(cast):
    form, response = _refused(cast, referer=f"http://testserver{'/'}cases/?q=secret")
    body = response.content.decode()
    assert response.status_code == 403
    assert "This form was not sent" in body and 'class="navbar' in body
    assert "Put it back" in body
    # The way back is the page the form was on, without its query string.
    assert 'href="/cases/"' in body and "secret" not in body
    # Nothing that was sent is shown, and Django's own page is not.
    assert "Sam Sample" not in body and "1990" not in body
    assert "CSRF verification failed" not in body and "DEBUG" not in body


def test_a_refused_form_without_a_referer_goes_back_to_itself_and_never_elsewhere(cast):
    form, response = _refused(cast, referer=None)
    assert f'href="{form}"' in response.content.decode()
    form, response = _refused(cast, referer="https://elsewhere.example/phish")
    body = response.content.decode()
    assert "elsewhere.example" not in body and f'href="{form}"' in body


def test_a_refused_form_is_told_in_the_readers_language(cast):
    _, response = _refused(cast, referer=None, language="es")
    body = response.content.decode()
    assert response.status_code == 403 and 'lang="es"' in body
    assert "This form was not sent" not in body


# --------------------------------------------------------------------------------------------------
# Every error page in the reader's language, and no blank page.


def _spanish(cast, login):
    from caseflow.accounts.language import set_agency_language

    set_agency_language(cast.agency.pk, "es")
    return login(cast.assigned)


def test_not_found_and_not_allowed_are_in_the_readers_language(cast, login, settings):
    from django.urls import reverse

    settings.DEBUG = False
    client = _spanish(cast, login)
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404
    body = missing.content.decode()
    assert 'lang="es"' in body and "There is nothing here" not in body
    # A case of another agency answers as if it did not exist, in Spanish too.
    other = client.get(reverse("cases:detail", args=[cast.foreign_case.public_id]))
    assert other.status_code == 404 and 'lang="es"' in other.content.decode()
    # A GET-only page posted to: caseflow's page in Spanish, not a blank one; Allow is kept.
    posted = client.post(reverse("dashboard"))
    assert posted.status_code == 405
    body = posted.content.decode()
    assert 'lang="es"' in body and "<h1>" in body and "Not available here" not in body
    assert posted["Allow"] == "GET"


def test_an_empty_refusal_gets_the_page_of_its_class_and_the_api_is_left_alone(rf, db):
    from django.http import HttpResponse

    from caseflow.middleware import ErrorPageMiddleware

    def answer(status, path="/somewhere/"):
        request = rf.get(path)
        request.request_id = "rid-1"
        return ErrorPageMiddleware(lambda r: HttpResponse(status=status))(request)

    assert "Bad request" in answer(400).content.decode()
    assert "No longer here" in answer(410).content.decode()
    # A 4xx without its own words gets the 400 page's; a 5xx the 500 page's.
    assert "Bad request" in answer(418).content.decode()
    assert "Something went wrong" in answer(503).content.decode()
    assert answer(405, "/api/v1/cases/").content == b""
    assert answer(200).content == b""


def test_a_body_too_large_is_refused_in_the_readers_language(cast, login, settings):
    from django.urls import reverse

    settings.REQUEST_MAX_BYTES = 1000
    client = _spanish(cast, login)
    response = client.post(
        reverse("cases:new"), data=b"x" * 1001, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413
    body = response.content.decode()
    assert 'lang="es"' in body and "Too large" not in body
