"""Handovers in an agreement as occasions for a check-in after each.

A handover is on the weekdays and at the time of the handover protocol of the version an active
agreement is at, in the agreement's zone (the survivor's, see :mod:`caseflow.agreements.terms`).
The check-in is wanted on the handover's day, after the handover and its tolerance; the key names
the agreement and the day, so each handover is proposed once. A version whose terms apply only
later, or no longer, proposes nothing for the days outside them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from zoneinfo import ZoneInfo

from django.utils import formats

from caseflow.agreements import terms
from caseflow.agreements.models import AgreementStatus, AgreementVersion, ContactAgreement
from caseflow.cases.features import Occasion, OccasionSource
from caseflow.cases.models import OPEN_STATUSES, Case
from caseflow.lib.i18n import gettext_lazy as _

KIND = "handover"
BATCH = 200


def _parsed(version: AgreementVersion) -> terms.Agreement | None:
    try:
        return terms.Agreement.from_dict(version.terms)
    except terms.TermsError:
        return None


def handover_days(
    agreed: terms.Agreement, since: dt.date, until: dt.date
) -> Iterator[tuple[dt.date, dt.datetime]]:
    """Each handover of ``agreed`` on a day in ``[since, until)``: (day, UTC instant after it)."""
    handover = agreed.handover
    if handover is None or not handover.weekdays:
        return
    zone = ZoneInfo(agreed.timezone)
    after = dt.timedelta(minutes=handover.tolerance_minutes)
    day = since
    while day < until:
        if day.weekday() in handover.weekdays:
            local = dt.datetime.combine(day, handover.time, tzinfo=zone)
            moment = local.astimezone(dt.UTC)
            if terms.agreement_in_force(moment, [agreed]) is not None:
                yield day, moment + after
        day += dt.timedelta(days=1)


def _occasion(agreement_pk: int, case_id: int, day: dt.date, after: dt.datetime, place: str):
    on = formats.date_format(day, "D j M Y")
    label = (
        _("After the handover at %(place)s, on %(day)s") % {"place": place, "day": on}
        if place
        else _("After the handover on %(day)s") % {"day": on}
    )
    return Occasion(
        case_id=case_id,
        key=f"{KIND}:{agreement_pk}:{day.isoformat()}",
        label=str(label),
        day=day,
        not_before=after,
    )


def _current_versions(agreements: Iterable[ContactAgreement]) -> dict[int, AgreementVersion]:
    wanted = {(a.pk, a.current_number) for a in agreements if a.current_number}
    if not wanted:
        return {}
    rows = AgreementVersion.objects.filter(
        agreement_id__in={pk for pk, _number in wanted},
        number__in={number for _pk, number in wanted},
    )
    return {row.agreement_id: row for row in rows if (row.agreement_id, row.number) in wanted}


def for_case(case: Case, today: dt.date) -> list[Occasion]:
    """The next handover of each of the case's active agreements (within a fortnight)."""
    agreements = list(ContactAgreement.objects.filter(case=case, status=AgreementStatus.ACTIVE))
    found = []
    for agreement_pk, version in _current_versions(agreements).items():
        version.case = case
        agreed = _parsed(version)
        if agreed is None or agreed.handover is None:
            continue
        for day, after in handover_days(agreed, today, today + dt.timedelta(days=14)):
            found.append(_occasion(agreement_pk, case.pk, day, after, agreed.handover.place))
            break
    return sorted(found, key=lambda o: (o.day, o.key))


def coming(since: dt.date, until: dt.date) -> Iterable[Occasion]:
    """Every handover of an active agreement of an open case on a day in ``[since, until)``."""
    qs = ContactAgreement.objects.filter(
        status=AgreementStatus.ACTIVE, case__status__in=OPEN_STATUSES, current_number__gt=0
    ).order_by("pk")
    after_pk = 0
    while True:
        batch = list(qs.filter(pk__gt=after_pk)[:BATCH])
        if not batch:
            return
        after_pk = batch[-1].pk
        cases = {a.pk: a.case_id for a in batch}
        for agreement_pk, version in _current_versions(batch).items():
            agreed = _parsed(version)
            if agreed is None or agreed.handover is None:
                continue
            for day, after in handover_days(agreed, since, until):
                yield _occasion(agreement_pk, cases[agreement_pk], day, after, "")


SOURCE = OccasionSource(kind=KIND, for_case=for_case, coming=coming)
