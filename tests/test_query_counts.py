"""List pages and the case page keep a constant number of SQL queries as the data grows, and list
pages decrypt nothing but the survivors' names.

No count is hard-coded: each page is measured with 4 cases and again with 30 (and, for the case
page, 4 and 30 people on the case), and the two counts must be equal. The smaller set already has
a row in every table (an unassigned referral, a case flagged at intake), since a table with rows
asks once for its survivors' names and an empty one does not. A page whose count grows
with its rows has an N+1 query; benchmarks at agency scale (bench/) show what that costs.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from caseflow.cases.models import Case, CaseStatus, PartyRole, RiskLevel
from caseflow.lib.encryption import EncryptedTextField
from tests import factories as f
from tests.conftest import Cast

pytestmark = pytest.mark.django_db

PAGES = {
    "advocate dashboard": ("assigned", lambda cast: reverse("dashboard")),
    "supervisor dashboard": ("supervisor", lambda cast: reverse("dashboard")),
    "case list": ("assigned", lambda cast: reverse("cases:list")),
    "case page": ("assigned", lambda cast: reverse("cases:detail", args=[cast.case.public_id])),
}
LIST_PAGES = ("advocate dashboard", "supervisor dashboard", "case list")
# Upper bounds, session, second factor, audit write and session save included (SQLite). The
# case page asks once for what its panels need and queries only the lists that have rows.
# The dashboards include the today queue: one query per source (check-ins, follow-ups, follow-ups
# just done, contacts to review, high-risk cases without a current plan, court hearings, and for
# a supervisor payments waiting for approval) and one for the survivors' profiles when check-ins
# are listed; a supervisor's also one per kind of decision waiting (five, transfers in included).
MAX_QUERIES = {
    "advocate dashboard": 18,
    # Decisions waiting: one query per kind, the transfers in from other agencies included.
    "supervisor dashboard": 32,
    "case list": 14,
    "case page": 18,
}


def _grow(cast: Cast, count: int, start: int) -> None:
    """``count`` more team 1 cases with encrypted content: most assigned to ``assigned``, some
    unassigned referrals, some flagged at intake, some high risk; and as many more people on
    ``cast.case``."""
    for n in range(start, start + count):
        unassigned = n % 4 == 3
        case = f.open_case(
            cast.team1,
            [] if unassigned else [cast.assigned],
            reference=f"GROW-{n:03d}",
            status=CaseStatus.REFERRAL if unassigned else CaseStatus.ACTIVE,
            risk_level=RiskLevel.HIGH if n % 3 == 0 else RiskLevel.STANDARD,
            conflict_flag=n % 5 == 0,
        )
        case.summary = f"summary {n}"
        case.save()
        f.add_party(case, PartyRole.SURVIVOR, full_name=f"Person {n}", date_of_birth="1990-01-01")
        f.add_profile(case, code_word=f"word {n}")
        f.add_party(cast.case, PartyRole.CHILD, full_name=f"Child {n}")


def _queries(client, url: str) -> tuple[int, bytes]:
    client.get(url)  # warm: first-request work (session, caches) is not the page's
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured), response.content


@pytest.mark.parametrize("page", PAGES)
def test_query_count_does_not_grow_with_rows(page, cast: Cast, login):
    actor, url = PAGES[page]
    client = login(getattr(cast, actor))
    _grow(cast, 4, 0)
    small, _ = _queries(client, url(cast))
    _grow(cast, 26, 4)
    large, body = _queries(client, url(cast))
    # The page did show the larger data set (else an equal count would prove nothing).
    shown = b"GROW-029" if page != "case page" else b"Child 29"
    if page != "supervisor dashboard":
        assert shown in body
    else:
        assert b"GROW-027" in body  # n=27 is an unassigned referral, in the supervisor's queue
    assert large == small, f"{page}: {small} queries with 4 rows, {large} with 30"
    # PostgreSQL: one more, the advisory lock that serialises audit appends.
    bound = MAX_QUERIES[page] + (connection.vendor == "postgresql")
    assert large <= bound, f"{page}: {large} queries, at most {bound}"


@pytest.mark.parametrize("page", LIST_PAGES)
def test_list_pages_decrypt_only_the_survivors_names(page, cast: Cast, login, monkeypatch):
    calls = []
    original = EncryptedTextField.decrypt

    def counting(self, instance, token):
        calls.append(f"{type(instance).__name__}.{self.name}")
        return original(self, instance, token)

    monkeypatch.setattr(EncryptedTextField, "decrypt", counting)
    _grow(cast, 30, 0)
    actor, url = PAGES[page]
    response = login(getattr(cast, actor)).get(url(cast))
    assert response.status_code == 200
    # Each row shows the survivor's name (the one she goes by, else her full name) and nothing
    # else encrypted: no summary, date of birth, phone, code word or other person.
    assert calls, "the list showed no survivor's name"
    assert set(calls) <= {"Party.full_name", "Party.known_as"}
    assert len(calls) <= 2 * response.content.count(b"<tr>")


def test_the_decrypt_counter_sees_the_case_page_decrypt(cast: Cast, login, monkeypatch):
    """The counter of the test above counts what it does not expect: the case page shows
    (decrypts) the people's other details."""
    calls = []
    original = EncryptedTextField.decrypt

    def counting(self, instance, token):
        calls.append(self.name)
        return original(self, instance, token)

    monkeypatch.setattr(EncryptedTextField, "decrypt", counting)
    response = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    assert response.status_code == 200
    assert "full_name" in calls
    assert "date_of_birth" in calls  # what a list must not decrypt, seen by the same counter


def test_supervisor_counts_per_person_match_the_team_cases(cast: Cast, login):
    """The grouped count query gives each person's open and high-risk cases of the team that the
    supervisor may see (restricted cases they are not listed on are not counted)."""
    _grow(cast, 12, 0)
    closed = f.open_case(cast.team1, [cast.same_team], reference="CLOSED-1")
    closed.status = CaseStatus.CLOSED
    closed.save()
    f.open_case(cast.team1, [cast.same_team], reference="HIGH-1", risk_level=RiskLevel.HIGH)
    response = login(cast.supervisor).get(reverse("dashboard"))
    shown = {p.username: (p.active_cases, p.high_risk) for p in response.context["per_advocate"]}
    team_open = Case.objects.filter(
        team=cast.team1, restricted=False, status__in=(CaseStatus.REFERRAL, CaseStatus.ACTIVE)
    )
    for user in (cast.assigned, cast.same_team, cast.supervisor):
        mine = team_open.filter(assignments__user=user)
        expected = (mine.count(), mine.filter(risk_level=RiskLevel.HIGH).count())
        assert shown[user.username] == expected
    assert shown[cast.assigned.username][0] >= 9
    assert shown[cast.same_team.username] == (1, 1)
    assert cast.deactivated.username not in shown
