"""The named cast every access test uses, and shared fixtures.

Agency A has two teams. Team 1: supervisor ``supervisor``, advocates ``assigned`` (works ``case``)
and ``same_team``. Team 2: supervisor ``other_supervisor`` and advocate ``other_team``. Agency A
also has an ``auditor`` and an ``agency_admin``. Agency B has ``other_agency``. ``deactivated`` was
assigned to ``case`` but their membership is switched off. ``operator`` is a Django superuser.
``restricted_case`` is a team 1 case whose access list names only ``assigned``. ``coalition``
holds a seat in a coalition of agencies A and B: it runs their funder reports rolled up, and
nothing else.
"""

from __future__ import annotations

import datetime as dt
import os
import uuid
from dataclasses import dataclass

import pytest
import time_machine
from django.db import connection
from django.test import override_settings
from hypothesis import settings as hypothesis_settings

from caseflow.accounts.models import Role, User
from caseflow.cases.models import Case, PartyRole
from caseflow.lib import softcache
from caseflow.lib.encryption import DecryptionError, unwrap_data_key, wrapped_under_newest
from tests import factories as f


@dataclass
class Cast:
    agency: object
    team1: object
    team2: object
    other_agency_team: object
    assigned: User
    same_team: User
    other_team: User
    supervisor: User
    other_supervisor: User
    auditor: User
    agency_admin: User
    other_agency: User
    deactivated: User
    operator: User
    case: Case
    restricted_case: Case
    team2_case: Case
    foreign_case: Case
    coalition: User

    def actor(self, name: str) -> User | None:
        return None if name == "anonymous" else getattr(self, name)


# Timing varies with the machine's load (CI shares two cores): correctness, not speed, is what the
# property tests check, so no per-example deadline.
hypothesis_settings.register_profile("caseflow", deadline=None, derandomize=False)
hypothesis_settings.load_profile("caseflow")

ACTORS = (
    "assigned",
    "same_team",
    "other_team",
    "supervisor",
    "other_supervisor",
    "auditor",
    "agency_admin",
    "other_agency",
    "deactivated",
    "operator",
    "coalition",
    "anonymous",
)


def wrapped_under(master_key: str, wrapped: str) -> bool:
    """Whether ``wrapped`` is a data key in the current envelope under ``master_key`` (and that
    key alone opens it)."""
    with override_settings(FIELD_ENCRYPTION_KEYS=[master_key]):
        if not wrapped_under_newest(wrapped):
            return False
        try:
            unwrap_data_key(wrapped)
        except DecryptionError:
            return False
    return True


def canary(case: Case) -> str:
    return f"CANARY{case.pk}X"


def plant_canaries(case: Case) -> None:
    mark = canary(case)
    case.summary = f"summary {mark}"
    case.save()
    f.add_party(
        case,
        PartyRole.SURVIVOR,
        full_name=f"Survivor {mark}",
        date_of_birth="1990-01-01",
        phone=f"phone {mark}",
    )
    f.add_party(case, PartyRole.OTHER_PARTY, full_name=f"Other {mark}")
    f.add_profile(case, code_word=f"code {mark}")


def _test_clock() -> dt.datetime | None:
    """The moment ``CASEFLOW_TEST_CLOCK`` names (an ISO 8601 date-time, UTC when it gives no
    offset), or None when it is unset."""
    value = os.environ.get("CASEFLOW_TEST_CLOCK", "").strip()
    if not value:
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        raise pytest.UsageError(
            f"CASEFLOW_TEST_CLOCK={value!r} is not an ISO 8601 date-time "
            "such as 2031-03-30T00:30:00+00:00"
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


TEST_CLOCK = _test_clock()


def pytest_report_header(config):
    if TEST_CLOCK is not None:
        return f"CASEFLOW_TEST_CLOCK: every test starts at {TEST_CLOCK.isoformat()}"
    return None


def pytest_collection_modifyitems(config, items):
    """A test that signs in through the real identity provider (the ``idp`` fixture) is marked
    ``identity_provider``: the provider is another process, on the real clock."""
    for item in items:
        if "idp" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.identity_provider)


@pytest.fixture(autouse=True)
def moved_clock():
    """With ``CASEFLOW_TEST_CLOCK`` set, every test starts at that moment and the clock runs on
    from there, so that a run on another day shows which tests depend on today's date. A test
    that pins its own time with ``time_machine.travel`` still gets that time (travels nest).

    Only this process's clock moves: the browser, the Celery worker and the identity provider
    keep the real one, so a moved-clock run leaves out the ``browser``, ``celery_worker`` and
    ``identity_provider`` tests."""
    if TEST_CLOCK is None:
        yield
        return
    with time_machine.travel(TEST_CLOCK, tick=True):
        yield


@pytest.fixture(autouse=True)
def evidence_in_a_temporary_folder(settings, tmp_path_factory):
    """Evidence files written by any test land in a throwaway folder, never under var/."""
    settings.EVIDENCE_ROOT = tmp_path_factory.mktemp("evidence")


@pytest.fixture(autouse=True)
def media_in_a_temporary_folder(settings, tmp_path_factory):
    """Files kept in the default storage (prepared exports) land in a throwaway folder."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")


@pytest.fixture(autouse=True)
def audit_heads_in_a_temporary_file(settings, tmp_path_factory):
    """Signed tree heads shipped by any test land in a throwaway sink, one per test: a head
    shipped from another test's database would not match this one's log."""
    settings.AUDIT_HEAD_SINK = tmp_path_factory.mktemp("heads") / "audit-heads.jsonl"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Argon2 is deliberately slow; tests that are not about hashing use a fast hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The test client speaks plain HTTP; the HTTPS redirect is tested on its own.
    settings.SECURE_SSL_REDIRECT = False
    # Tests do not run collectstatic; the manifest storage is checked by `.ci/run`.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def a_cache_of_its_own(settings):
    """Each test reads and writes its own cache keys. caseflow caches by database id (an
    agency's language, a feed's rate bucket), and ids come back in the next test's database and
    in every xdist worker's: a key left by another test, or by another worker on the shared
    Redis, would answer for the wrong row."""
    settings.CACHES = {
        name: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
        for name, config in settings.CACHES.items()
    }
    # An outage another test provoked is not carried into this one.
    softcache.reset()


@pytest.fixture
def cast(db) -> Cast:
    agency = f.AgencyFactory(name="Agency A")
    other = f.AgencyFactory(name="Agency B")
    team1 = f.TeamFactory(agency=agency, name="Team 1")
    team2 = f.TeamFactory(agency=agency, name="Team 2")
    other_team_b = f.TeamFactory(agency=other, name="Team B")
    assigned = f.staff(agency, Role.ADVOCATE, [team1], username="assigned")
    same_team = f.staff(agency, Role.ADVOCATE, [team1], username="same_team")
    other_team = f.staff(agency, Role.ADVOCATE, [team2], username="other_team")
    supervisor = f.staff(agency, Role.SUPERVISOR, [team1], username="supervisor")
    other_supervisor = f.staff(agency, Role.SUPERVISOR, [team2], username="other_supervisor")
    auditor = f.staff(agency, Role.AUDITOR, username="auditor")
    agency_admin = f.staff(agency, Role.AGENCY_ADMIN, username="agency_admin")
    other_agency = f.staff(other, Role.ADVOCATE, [other_team_b], username="other_agency")
    deactivated = f.staff(agency, Role.ADVOCATE, [team1], active=False, username="deactivated")
    operator = User.objects.create_superuser("operator", "op@example.invalid", f.PASSWORD)
    case = f.open_case(team1, [assigned, deactivated], reference="CASE-1")
    restricted_case = f.open_case(
        team1, [assigned], restricted_users=[assigned], reference="CASE-R"
    )
    team2_case = f.open_case(team2, [other_team], reference="CASE-2")
    foreign_case = f.open_case(other_team_b, [other_agency], reference="CASE-B")
    for c in (case, restricted_case, team2_case, foreign_case):
        plant_canaries(c)
    coalition = f.coalition_person([agency, other], username="coalition")
    return Cast(
        agency,
        team1,
        team2,
        other_team_b,
        assigned,
        same_team,
        other_team,
        supervisor,
        other_supervisor,
        auditor,
        agency_admin,
        other_agency,
        deactivated,
        operator,
        case,
        restricted_case,
        team2_case,
        foreign_case,
        coalition,
    )


def verified_session(client, user: User) -> None:
    """Sign ``user`` in on ``client`` as after password + second factor: a confirmed
    authenticator, verified in this session, just now."""
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from caseflow.accounts import second_factor as sf

    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name="test", confirmed=True)
    client.force_login(user)
    session = client.session
    now = sf.now_ts()
    session[sf.SESSION_EPOCH] = user.session_epoch
    session[sf.AUTH_AT] = now
    session[sf.SEEN_AT] = now
    session[sf.RECENT_AUTH_AT] = now
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()


@pytest.fixture
def login(client):
    """``login(user) -> client`` signed in as ``user`` with a verified second factor (``None``:
    anonymous)."""

    def _login(user: User | None):
        client.logout()
        if user is not None:
            verified_session(client, user)
        return client

    return _login


@pytest.fixture
def allow_audit_flush(transactional_db, django_db_blocker):
    """Transactional tests end with a flush (TRUNCATE); the audit table's trigger refuses that on
    PostgreSQL, as it should. The test database's superuser steps around it for the teardown."""
    yield
    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cur:
            cur.execute("SET session_replication_role = replica")


@pytest.fixture(scope="module")
def worker_pair(request, django_db_setup, django_db_blocker, tmp_path_factory):
    """Two real Celery workers for the module (``tests.celery_harness``): ``main`` and
    ``paused``, the latter started with the module's ``PAUSED_WORKER_ENV``."""
    from tests.celery_harness import worker_pair as pair

    label = request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_").replace("_", "-")
    tmp = tmp_path_factory.mktemp(label)
    with pair(tmp, label, request.module.PAUSED_WORKER_ENV) as workers:
        yield workers


@pytest.fixture
def broker_to_workers(worker_pair, transactional_db, allow_audit_flush):
    """``worker_pair`` for one test: tasks go to the main worker's queue, on the test database
    the workers read (committed); Celery's broker and queue are put back afterwards."""
    from django.db import connections

    from caseflow.celery import app as celery_app
    from tests.celery_harness import REDIS_URL, _use_queue

    main = worker_pair.main
    _use_queue(main.queue)
    try:
        yield worker_pair
    finally:
        celery_app.conf.broker_url = REDIS_URL
        _use_queue(main.queue)
        connections.close_all()
