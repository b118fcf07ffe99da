"""Releases (consent to share: signed, revoked, run out) and disclosures on the case timeline.

A release is kept as days (signed on, last valid day), so its signing and its end are placed at
midnight UTC of their day and shown as dates; a revocation has its time. One release can give
three entries, so its key is ``pk * 4 + part`` (part 1 signed, 2 revoked, 3 ended): each part is
one query, ordered and paged by that key like any other source.
"""

from __future__ import annotations

from django.db.models import F, Value
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from caseflow.cases.models import PartyRole
from caseflow.cases.timeline import (
    OTHER_AGENCY,
    SURVIVOR,
    Entry,
    Query,
    Source,
    about,
    day_start,
    key_of,
    newest,
    newest_days,
)
from caseflow.confidentiality.models import Disclosure, DisclosureKind, Release
from caseflow.lib.i18n import gettext_lazy as _

RELEASE, DISCLOSURE = "release", "disclosure"
PEOPLE = frozenset({SURVIVOR, OTHER_AGENCY})
SIGNED, REVOKED, ENDED = 1, 2, 3
_KINDS = dict(DisclosureKind.choices)


def _consent_title(release: Release) -> str:
    if release.for_child_id is not None:
        return gettext("Consent to share signed by a guardian, for a child")
    if release.consenting_party.role == PartyRole.SURVIVOR:
        return gettext("Consent to share signed by the survivor")
    return gettext("Consent to share signed by the %(role)s") % {
        "role": release.consenting_party.get_role_display().lower()
    }


def _day(day) -> str:
    return date_format(day, "DATE_FORMAT")


def releases(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    base = Release.objects.filter(case=case).select_related("consenting_party")
    today = timezone.now().date()
    parts = (
        (SIGNED, base, "signed_on"),
        (REVOKED, base.filter(revoked_at__isnull=False), "revoked_at"),
        (ENDED, base.filter(revoked_at__isnull=True, expires_on__lt=today), "expires_on"),
    )
    entries = []
    for part, qs, field in parts:
        keyed = qs.annotate(tl_key=F("pk") * 4 + Value(part))
        if part == REVOKED:
            rows = newest(keyed, query, RELEASE, field, "tl_key")
        else:
            rows = newest_days(keyed, query, RELEASE, field, "tl_key")
        for row in rows:
            row.case = case
            if part == SIGNED:
                title = _consent_title(row)
            elif part == REVOKED:
                title = _("Consent to share revoked")
            else:
                title = _("Last day of a consent to share (it has run out)")
            at = row.revoked_at if part == REVOKED else day_start(getattr(row, field))
            entries.append(
                Entry(
                    at=at,
                    kind=RELEASE,
                    key=key_of(row.tl_key),
                    title=title,
                    people=PEOPLE,
                    date_only=part != REVOKED,
                    facts=(
                        (_("With"), row.recipient),
                        (_("Covers"), row.category_labels),
                        (
                            _("Valid"),
                            gettext("%(start)s to %(end)s")
                            % {"start": _day(row.signed_on), "end": _day(row.expires_on)},
                        ),
                    ),
                )
            )
    entries.sort(key=lambda e: (e.at, e.key), reverse=True)
    return entries[: query.limit]


DISCLOSURE_PEOPLE = frozenset({OTHER_AGENCY})


#: Her own copy of her record went to the survivor herself.
OWN_COPY_PEOPLE = frozenset({SURVIVOR})


def disclosures(case, query: Query) -> list[Entry]:
    if not about(query, DISCLOSURE_PEOPLE | OWN_COPY_PEOPLE):
        return []
    qs = Disclosure.objects.filter(case=case)
    if not about(query, DISCLOSURE_PEOPLE):
        qs = qs.filter(kind=DisclosureKind.OWN_COPY)
    elif not about(query, OWN_COPY_PEOPLE):
        qs = qs.exclude(kind=DisclosureKind.OWN_COPY)
    entries = []
    for row in newest_days(qs, query, DISCLOSURE, "disclosed_on"):
        row.case = case
        people = DISCLOSURE_PEOPLE
        if row.kind == DisclosureKind.OWN_COPY:
            people = OWN_COPY_PEOPLE
            authority = _("Her own consent")
            title = _("Given to the survivor: a copy of her own record")
        else:
            authority = _("Court order or subpoena") if row.order_id else _("Consent to share")
            title = _("Shared outside the agency: %(get)s") % {
                "get": _KINDS.get(row.kind, row.kind).lower()
            }
        entries.append(
            Entry(
                at=day_start(row.disclosed_on),
                kind=DISCLOSURE,
                key=key_of(row.pk),
                title=title,
                people=people,
                date_only=True,
                facts=(
                    (_("To"), row.recipient),
                    (_("What"), row.category_labels),
                    (_("Under"), authority),
                ),
            )
        )
    return entries


SOURCES = (
    Source(
        kind=RELEASE,
        label=_("Consent to share"),
        fetch=releases,
        model=Release,
        order=50,
        categories=frozenset({"narratives"}),
    ),
    Source(
        kind=DISCLOSURE,
        label=_("Shared outside the agency"),
        fetch=disclosures,
        model=Disclosure,
        order=51,
        categories=frozenset({"narratives"}),
    ),
)
