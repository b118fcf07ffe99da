"""Large funder reports prepared in the background: over the threshold the CSV is prepared by a
worker (through the outbox, ids only) and offered on its own page when ready, byte for byte the
CSV a small report gives at once; only its asker, still running reports, sees or downloads it
(audited); it expires and is purged; a failure leaves no partial result and can be tried again."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import highspy
import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, Party, PartyRole
from caseflow.outbox.models import Intent
from caseflow.partners.models import Demographics
from caseflow.reporting import reports, services
from caseflow.reporting.models import PreparedReport, PreparedState
from caseflow.reporting.tasks import prepare_report, purge_prepared
from tests import factories as f

pytestmark = pytest.mark.django_db

#: Every date here is pinned: the period list depends on today.
TODAY = dt.datetime(2026, 11, 20, 10, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def pinned():
    with time_machine.travel(TODAY, tick=False) as traveller:
        yield traveller


@pytest.fixture
def served(cast):
    """Seven survivors served in the last federal quarter; the threshold is five."""
    for n in range(7):
        case = f.open_case(cast.team1, reference=f"R-{n}")
        case.opened_at = TODAY - dt.timedelta(days=400)
        case.save(update_fields=["opened_at"])
        f.add_party(case, PartyRole.SURVIVOR, full_name=f"Survivor {n}")
    return Case.objects.filter(reference__startswith="R-")


@pytest.fixture
def small(settings):
    settings.REPORT_BACKGROUND_THRESHOLD = 100


@pytest.fixture
def large(settings):
    settings.REPORT_BACKGROUND_THRESHOLD = 5


def _period() -> dict[str, str]:
    latest = reports.periods("federal_quarter", timezone.localdate())[0]
    return {"period": latest.start.isoformat()}


def _start(client, django_capture_on_commit_callbacks) -> PreparedReport:
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(reverse("reporting:prepare", args=["voca"]), _period())
    prepared = PreparedReport.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("reporting:prepared", args=[prepared.public_id])
    assert len(callbacks) == 1  # the outbox hands the task to the broker once committed
    return prepared


def _tried_again_until_ready(client, prepared, django_capture_on_commit_callbacks) -> None:
    """A failed report's page says so and offers to try again; tried again, it is ready."""
    page = client.get(reverse("reporting:prepared", args=[prepared.public_id]))
    assert "could not be prepared" in page.content.decode()
    assert "Try again" in page.content.decode()
    with django_capture_on_commit_callbacks():
        client.post(reverse("reporting:prepared_retry", args=[prepared.public_id]))
    _run(prepared)
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.READY


def _run(prepared: PreparedReport) -> None:
    """The worker's turn: the task as the outbox sends it (its intent's id with the report's)."""
    intent = Intent.objects.filter(completed_at__isnull=True).latest("pk")
    prepare_report(**intent.kwargs, intent_id=intent.pk)


def test_a_small_report_is_downloaded_at_once(cast, served, small, login):
    client = login(cast.supervisor)
    page = client.get(reverse("reporting:preview", args=["voca"]), _period())
    assert "Download this CSV" in page.content.decode()
    assert "Prepare this CSV" not in page.content.decode()
    response = client.get(reverse("reporting:csv", args=["voca"]), _period())
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert not PreparedReport.objects.exists() and not Intent.objects.exists()


def test_a_large_report_is_prepared_by_a_worker_through_the_outbox(
    cast, served, large, login, django_capture_on_commit_callbacks
):
    client = login(cast.supervisor)

    def not_in_the_request(**kwargs):
        raise AssertionError("a large report was computed in the request")

    # The preview does not compute a large report either: it offers to prepare it.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "funder_report", not_in_the_request)
        page = client.get(reverse("reporting:preview", args=["voca"]), _period())
    assert page.status_code == 200
    assert "Prepare this CSV" in page.content.decode()
    assert "exactly what the CSV will contain" not in page.content.decode()
    assert reverse("reporting:csv", args=["voca"]) not in page.content.decode()
    # The CSV is not computed in the request any more: back to the preview.
    csv = client.get(reverse("reporting:csv", args=["voca"]), _period())
    assert csv.status_code == 302 and "/reports/funders/voca/" in csv["Location"]
    prepared = _start(client, django_capture_on_commit_callbacks)
    assert prepared.state == PreparedState.WAITING and prepared.result is None
    assert prepared.requested_by == cast.supervisor and prepared.agency == cast.agency
    assert prepared.expires_at == TODAY + dt.timedelta(hours=24)
    intent = Intent.objects.get()
    # Ids only in the task's arguments.
    assert intent.task == "caseflow.reporting.tasks.prepare_report"
    assert intent.kwargs == {"report_id": prepared.pk}
    waiting = client.get(reverse("reporting:prepared", args=[prepared.public_id]))
    body = waiting.content.decode()
    assert 'id="prepared-bar"' in body and 'hx-trigger="every 2s"' in body
    assert "Refresh this page" in body and "Download this CSV" not in body
    # Asked again while it is being prepared: the same report, no second job.
    again = client.post(reverse("reporting:prepare", args=["voca"]), _period())
    assert again["Location"] == reverse("reporting:prepared", args=[prepared.public_id])
    assert PreparedReport.objects.count() == 1 and Intent.objects.count() == 1


def test_the_prepared_csv_is_the_inline_csv_byte_for_byte_and_its_download_is_audited(
    cast, served, settings, login, django_capture_on_commit_callbacks
):
    client = login(cast.supervisor)
    settings.REPORT_BACKGROUND_THRESHOLD = 100
    inline = client.get(reverse("reporting:csv", args=["voca"]), _period())
    assert inline.status_code == 200
    settings.REPORT_BACKGROUND_THRESHOLD = 5
    prepared = _start(client, django_capture_on_commit_callbacks)
    _run(prepared)
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.READY and prepared.attempts == 1
    assert Intent.objects.get().completed_at is not None
    # Sealed: the stored bytes are not the CSV.
    assert inline.content not in bytes(prepared.result)
    assert set(prepared.counts) == {"cells", "suppressed"} and prepared.counts["cells"] > 0
    page = client.get(reverse("reporting:prepared_progress", args=[prepared.public_id]))
    assert "Download this CSV" in page.content.decode() and "every 2s" not in page.content.decode()
    before = AuditEvent.objects.filter(action="report.prepared_download").count()
    download = client.get(reverse("reporting:prepared_download", args=[prepared.public_id]))
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="caseflow-voca.csv"'
    assert download.content == inline.content
    event = AuditEvent.objects.filter(action="report.prepared_download").get()
    assert before == 0
    assert event.actor_id == cast.supervisor.pk
    assert set(event.detail) == {"report", "from", "to", "format", "cells", "suppressed"}
    assert event.detail["report"] == "voca" and event.detail["cells"] == prepared.counts["cells"]
    # The generation itself was audited in the worker, under the asker's name.
    assert AuditEvent.objects.filter(
        action="report.funder", actor_id=cast.supervisor.pk, detail__format="prepared"
    ).exists()


def test_nobody_but_the_asker_sees_or_downloads_it(
    cast, served, large, login, django_capture_on_commit_callbacks
):
    prepared = _start(login(cast.supervisor), django_capture_on_commit_callbacks)
    _run(prepared)
    names = ["prepared", "prepared_progress", "prepared_download"]
    for other in (cast.other_supervisor, cast.auditor, cast.agency_admin, cast.assigned):
        client = login(other)
        for name in names:
            response = client.get(reverse(f"reporting:{name}", args=[prepared.public_id]))
            assert response.status_code == 404, (other.username, name)
        retry = client.post(reverse("reporting:prepared_retry", args=[prepared.public_id]))
        assert retry.status_code == 404
    assert not AuditEvent.objects.filter(action="report.prepared_download").exists()
    # The asker, once no longer running reports, cannot fetch it either.
    membership = cast.supervisor.membership
    membership.role = "advocate"
    membership.save(update_fields=["role"])
    client = login(cast.supervisor)
    response = client.get(reverse("reporting:prepared_download", args=[prepared.public_id]))
    assert response.status_code == 404


def test_an_expired_report_is_gone_and_purged(
    cast, served, large, login, django_capture_on_commit_callbacks, pinned
):
    client = login(cast.supervisor)
    prepared = _start(client, django_capture_on_commit_callbacks)
    _run(prepared)
    assert purge_prepared() == 0
    pinned.shift(dt.timedelta(hours=24, seconds=1))
    client = login(cast.supervisor)
    page = client.get(reverse("reporting:prepared", args=[prepared.public_id]))
    assert page.status_code == 404
    assert PreparedReport.objects.filter(pk=prepared.pk).exists()  # until the purge runs
    assert purge_prepared() == 1
    assert not PreparedReport.objects.filter(pk=prepared.pk).exists()


def test_a_worker_lost_half_way_leaves_no_result_and_the_report_can_be_tried_again(
    cast, served, large, login, django_capture_on_commit_callbacks, monkeypatch, pinned
):
    client = login(cast.supervisor)
    prepared = _start(client, django_capture_on_commit_callbacks)

    def lost(report):
        raise SystemExit("the worker is killed")

    with monkeypatch.context() as m:
        m.setattr(services, "csv_bytes", lost)
        with pytest.raises(SystemExit):
            _run(prepared)
    prepared.refresh_from_db()
    # Marked running before the work's transaction; nothing of the work kept.
    assert prepared.state == PreparedState.RUNNING and prepared.attempts == 1
    assert prepared.result is None and prepared.finished_at is None
    assert Intent.objects.get().completed_at is None  # the outbox sends it again
    assert not AuditEvent.objects.filter(action="report.funder").exists()
    page = client.get(reverse("reporting:prepared", args=[prepared.public_id]))
    assert "Try again" not in page.content.decode()  # not stale yet
    refused = client.post(reverse("reporting:prepared_retry", args=[prepared.public_id]))
    assert refused.status_code == 302 and Intent.objects.count() == 1

    pinned.shift(dt.timedelta(seconds=901))
    client = login(cast.supervisor)
    page = client.get(reverse("reporting:prepared", args=[prepared.public_id]))
    assert "Try again" in page.content.decode()
    with django_capture_on_commit_callbacks():
        retry = client.post(reverse("reporting:prepared_retry", args=[prepared.public_id]))
    assert retry.status_code == 302
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.WAITING
    assert Intent.objects.filter(completed_at__isnull=True).count() == 2
    _run(prepared)
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.READY and prepared.attempts == 2
    # The first intent, sent again by the relay, finds the report ready and does nothing more.
    first = Intent.objects.filter(completed_at__isnull=True).get()
    prepare_report(**first.kwargs, intent_id=first.pk)
    prepared.refresh_from_db()
    assert prepared.attempts == 2 and prepared.state == PreparedState.READY
    assert AuditEvent.objects.filter(action="report.funder").count() == 1


def test_an_asker_who_may_no_longer_run_it_gets_a_failed_report_to_try_again(
    cast, served, large, login, django_capture_on_commit_callbacks
):
    client = login(cast.supervisor)
    prepared = _start(client, django_capture_on_commit_callbacks)
    membership = cast.supervisor.membership
    membership.role = "advocate"
    membership.save(update_fields=["role"])
    _run(prepared)
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.FAILED and prepared.result is None
    assert prepared.last_error == "PermissionDenied"
    assert Intent.objects.get().completed_at is not None  # not sent again and again
    membership.role = "supervisor"
    membership.save(update_fields=["role"])
    client = login(cast.supervisor)
    _tried_again_until_ready(client, prepared, django_capture_on_commit_callbacks)


def _solver_answers_nothing():
    """The solver that checks a release gives no answer (a fault of the solver)."""
    return mock.patch.object(
        highspy.Highs, "getModelStatus", lambda self: highspy.HighsModelStatus.kSolveError
    )


def _nothing_given_out(client) -> str:
    """The preview of the latest quarter shows no figure and offers no CSV, the CSV link goes
    back to the preview (which says why), and nothing is recorded as given out: the preview's
    text."""
    preview = reverse("reporting:preview", args=["voca"])
    page = client.get(preview, _period())
    body = page.content.decode()
    assert page.status_code == 503
    assert "exactly what the CSV will contain" not in body
    assert "Download this CSV" not in body and "<table" not in body
    csv = client.get(reverse("reporting:csv", args=["voca"]), _period())
    assert csv.status_code == 302 and csv["Location"].startswith(preview)
    assert not AuditEvent.objects.filter(action="report.funder").exists()
    return body


def _failed(client, fault, django_capture_on_commit_callbacks) -> PreparedReport:
    """The latest quarter prepared by a worker while ``fault`` (a patch) holds: failed, with
    nothing kept or recorded as given out, its task done."""
    prepared = _start(client, django_capture_on_commit_callbacks)
    with fault:
        _run(prepared)
    prepared.refresh_from_db()
    assert prepared.state == PreparedState.FAILED and prepared.result is None
    assert Intent.objects.get().completed_at is not None
    assert not AuditEvent.objects.filter(action="report.funder").exists()
    return prepared


@pytest.fixture
def aged(served):
    """Three of the seven give their age: the report has small counts, so its release is
    read for what they tell."""
    bands = ["25_34", "25_34", "35_44"]
    for case, band in zip(served.order_by("reference")[:3], bands, strict=True):
        party = Party.objects.get(case=case, role=PartyRole.SURVIVOR)
        Demographics(case=case, party=party, age_band=band).save()


def test_a_report_that_cannot_be_checked_is_not_shown_and_the_page_says_so(
    cast, aged, small, login
):
    client = login(cast.supervisor)
    preview = reverse("reporting:preview", args=["voca"])
    with _solver_answers_nothing():
        body = _nothing_given_out(client)
    assert "This report cannot be shown just now" in body
    assert "Preview it again in a few minutes" in body
    # Once the solver answers again, the same preview shows the report.
    again = client.get(preview, _period())
    assert again.status_code == 200
    assert "exactly what the CSV will contain" in again.content.decode()
    assert AuditEvent.objects.filter(action="report.funder").count() == 1


def test_a_prepared_report_that_cannot_be_checked_fails_and_is_tried_again(
    cast, aged, large, login, django_capture_on_commit_callbacks
):
    client = login(cast.supervisor)
    prepared = _failed(client, _solver_answers_nothing(), django_capture_on_commit_callbacks)
    assert prepared.last_error == "Unchecked"
    _tried_again_until_ready(client, prepared, django_capture_on_commit_callbacks)


def _suppression_without_complements():
    """Suppression that hides the small counts and chooses no complement for them: a release a
    reader works out (what the check before every release is there to stop)."""

    def small_only(grid, threshold, *, unpublished=(), fixed_hidden=(), **_options):
        small = {c for c, v in enumerate(grid.values) if 0 < v < threshold}
        return small | set(unpublished) | set(fixed_hidden)

    return mock.patch.object(reports, "suppress", small_only)


#: The band of working age that VOCA prints (the finer bands are never printed).
AGED = "demo:age_band:25_34+35_44+45_54+55_59"


@pytest.fixture
def alike(served):
    """Five of the seven give their age, all the same band: beside the five and the seven
    served, the 2 not asked are told unless another count hides with them."""
    for case in served.order_by("reference")[:5]:
        party = Party.objects.get(case=case, role=PartyRole.SURVIVOR)
        Demographics(case=case, party=party, age_band="25_34").save()


def test_a_release_that_would_tell_a_small_count_is_not_given_out_and_the_page_says_so(
    cast, alike, small, login
):
    client = login(cast.supervisor)
    # As suppression releases it, it may be given out: its check finds nothing told.
    report = reports.release(
        "voca", cast.agency.pk, reports.periods("federal_quarter", TODAY.date())[0]
    )
    keys, values = report.grid.keys, report.grid.values
    assert values[keys["demo:age_band:declined+not_asked"]] == 2
    # The 2 hide, and the 5 beside them as their complement.
    assert {keys["demo:age_band:declined+not_asked"], keys[AGED]} <= report.hidden
    assert not reports.told(report)
    with _suppression_without_complements():
        body = _nothing_given_out(client)
    assert "This report cannot be given out for this period" in body
    assert "Trying again gives the same answer" in body
    assert "cannot be shown just now" not in body


def test_a_prepared_report_that_would_tell_a_small_count_fails(
    cast, alike, large, login, django_capture_on_commit_callbacks
):
    client = login(cast.supervisor)
    fault = _suppression_without_complements()
    prepared = _failed(client, fault, django_capture_on_commit_callbacks)
    assert prepared.last_error == "Told"
    page = client.get(reverse("reporting:prepared", args=[prepared.public_id])).content.decode()
    assert "cannot be given out for this period" in page
    assert "trying again gives the same answer" in page


def test_progress_moves_with_the_report_and_is_kept_out_of_its_transaction(
    cast, served, large, login, django_capture_on_commit_callbacks, monkeypatch
):
    prepared = _start(login(cast.supervisor), django_capture_on_commit_callbacks)
    seen: list[int] = []
    follow = reports.step

    def watched() -> None:
        follow()
        seen.append(services.progress(PreparedReport.objects.get(pk=prepared.pk)))

    monkeypatch.setattr(reports, "step", watched)
    _run(prepared)
    assert len(seen) == services.STEPS["voca"]
    assert seen == sorted(seen) and seen[0] > 0 and seen[-1] == 99
    prepared.refresh_from_db()
    assert services.progress(prepared) == 100


def test_the_prepared_csv_is_written_in_the_askers_language(
    cast, served, settings, login, django_capture_on_commit_callbacks
):
    from caseflow.accounts.language import set_agency_language

    client = login(cast.supervisor)
    settings.REPORT_BACKGROUND_THRESHOLD = 100
    english = client.get(reverse("reporting:csv", args=["voca"]), _period()).content
    set_agency_language(cast.agency.pk, "es")
    spanish = client.get(reverse("reporting:csv", args=["voca"]), _period()).content
    assert spanish != english
    settings.REPORT_BACKGROUND_THRESHOLD = 5
    prepared = _start(client, django_capture_on_commit_callbacks)
    _run(prepared)  # in a worker, where no request says the language
    download = client.get(reverse("reporting:prepared_download", args=[prepared.public_id]))
    assert download.content == spanish
