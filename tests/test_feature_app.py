"""Adding a part of caseflow touches its own folder and INSTALLED_APPS (plus, when it has pages,
the URL include and the matrix): the example app in tests/feature_app registers one feature and
appears on the case page, the case timeline and the today queue."""

from __future__ import annotations

import warnings

import pytest
from django.test import modify_settings
from django.urls import reverse

from caseflow.cases import features, panels, timeline, today
from tests.feature_app.feature import FEATURE

pytestmark = pytest.mark.django_db


@pytest.fixture
def feature_app(monkeypatch):
    """The example app installed for one test, its feature forgotten after it. (Installing an
    app runs every app's ``ready()`` again: the features are the same objects, so nothing is
    registered twice; the URL converter's repeat is Django's own, and harmless.)"""
    monkeypatch.setattr(features, "_FEATURES", features.registered())
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Converter 'pid' is already registered")
        with modify_settings(INSTALLED_APPS={"append": "tests.feature_app"}):
            yield


def test_without_the_app_nothing_of_it_shows(cast, login):
    assert FEATURE not in features.registered()
    page = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    assert "Example panel" not in page.content.decode()


def test_the_app_registers_its_feature_once(feature_app):
    assert [f for f in features.registered() if f.name == "feature_app"] == [FEATURE]
    assert panels.registered_panels()[-1] is FEATURE.panels[0]
    assert timeline.registered_sources()[-1] is FEATURE.timeline[0]
    assert today.registered_sources()[-1] is FEATURE.queue[0]


def test_the_case_page_shows_its_panel_after_the_others(feature_app, cast, login):
    page = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "The example feature shows on case CASE-1." in html
    assert html.index('id="partners-h"') < html.index('id="example-h"')


def test_the_timeline_lists_its_entry(feature_app, cast, login):
    client = login(cast.assigned)
    url = reverse("cases:timeline", args=[cast.case.public_id])
    html = client.get(url).content.decode()
    assert "Example: the case opened" in html
    only = client.get(url, {"kinds": "example_opened"}).content.decode()
    assert only.count("Example: the case opened") == 1


def test_the_today_queue_lists_its_item(feature_app, cast, login):
    html = login(cast.assigned).get(reverse("dashboard")).content.decode()
    assert "Read the example panel" in html
    assert reverse("cases:detail", args=[cast.case.public_id]) in html


def test_someone_who_may_not_read_the_case_sees_none_of_it(feature_app, cast, login):
    client = login(cast.other_team)
    page = client.get(reverse("cases:detail", args=[cast.case.public_id]))
    assert page.status_code == 404
    html = client.get(reverse("dashboard")).content.decode()
    assert "Read the example panel" in html  # on their own team's case
    assert reverse("cases:detail", args=[cast.case.public_id]) not in html
