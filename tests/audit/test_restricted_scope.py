"""Every audit page, filter and export keeps to ``policy.audit_cases``: events about a restricted
case reach only the people on its access list. Generated over the audit URL conf, so a new audit
page without a way to read its rows here fails."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import get_resolver, reverse

from caseflow import policy
from caseflow.audit.models import AuditEvent
from caseflow.audit.services import record

#: Audit URLs that list events, and how the test finds each one's URLs for ``user``.
EVENT_PAGES = {"audit:events", "audit:export", "audit:user", "audit:case", "audit:case_access"}
#: Audit URLs that list no events (their scope is ``audit_cases`` directly).
NO_EVENTS = {"audit:break_glass", "audit:break_glass_review"}


def _audit_url_names() -> set[str]:
    _, resolver = get_resolver().namespace_dict["audit"]
    return {f"audit:{p.name}" for p in resolver.url_patterns}


def test_every_audit_url_is_covered():
    assert _audit_url_names() == EVENT_PAGES | NO_EVENTS


def _urls(user) -> list[str]:
    people = list(policy.audit_people(user).order_by("pk"))
    filters = [{}, {"case": "CASE-R"}, {"case": " CASE-R "}, {"action": "case."}]
    filters += [{"user": p.pk} for p in people]
    filters += [{"user": p.pk, "case": "CASE-R"} for p in people]
    urls = []
    for name in ("audit:events", "audit:export"):
        for query in filters:
            query_string = "&".join(f"{k}={v}" for k, v in query.items())
            urls.append(f"{reverse(name)}?{query_string}")
    urls += [reverse("audit:user", args=[p.pk]) for p in people]
    cases = policy.Case.objects.filter(agency_id=user.agency_id_or_none)
    for case in cases:
        urls.append(reverse("audit:case", args=[case.public_id]))
        urls.append(reverse("audit:case_access", args=[case.public_id]))
    assert {u.split("?")[0] for u in urls} >= {
        reverse("audit:events"),
        reverse("audit:export"),
    }
    return urls


def _seqs(response) -> set[int]:
    if response["Content-Type"].startswith("text/csv"):
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        return {int(r["seq"]) for r in rows}
    return {e.seq for e in response.context["page"].events}


def _plant(cast) -> set[int]:
    """Events about the restricted case by everyone who could have touched it."""
    case = cast.restricted_case
    actors = [cast.assigned, cast.same_team, cast.supervisor, cast.auditor, None]
    seqs = set()
    for actor in actors:
        for action in ("case.view", "case.update", "break_glass.open"):
            seqs.add(record(action, actor=actor, case=case, detail={}).seq)
    return seqs


@pytest.mark.parametrize("who", ["auditor", "supervisor"])
def test_no_audit_url_shows_events_of_a_restricted_case_to_someone_not_listed(who, cast, login):
    user = getattr(cast, who)
    hidden = _plant(cast)
    open_seq = record("case.view", actor=cast.same_team, case=cast.case).seq
    client = login(user)
    in_scope = set(policy.audit_cases(user).values_list("pk", flat=True))
    assert cast.restricted_case.pk not in in_scope
    checked = 0
    seen: set[int] = set()
    for url in _urls(user):
        response = client.get(url)
        if response.status_code == 404:
            continue
        assert response.status_code == 200, url
        rows = _seqs(response)
        seen |= rows
        leaked = rows & hidden
        assert not leaked, (url, leaked)
        cases = set(
            AuditEvent.objects.filter(seq__in=rows, case_id__isnull=False).values_list(
                "case_id", flat=True
            )
        )
        assert cases <= in_scope, url
        checked += 1
    assert checked > 10
    assert open_seq in seen  # the pages do list events: the check is not vacuous


def test_someone_on_the_access_list_still_sees_them(cast, login):
    cast.restricted_case.restricted_users.add(cast.auditor)
    hidden = _plant(cast)
    client = login(cast.auditor)
    for url in (
        f"{reverse('audit:events')}?case=CASE-R",
        f"{reverse('audit:export')}?case=CASE-R",
        reverse("audit:case", args=[cast.restricted_case.public_id]),
    ):
        rows = _seqs(client.get(url))
        assert hidden & rows, url
