"""What followed harm on the case timeline, at the time it happened: the kind, and her words
unless the agency does not collect them."""

from __future__ import annotations

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from caseflow.cases.fields import FieldConfig, agency_field_config
from caseflow.cases.timeline import OTHER_PARTY, Entry, Query, Source, about, key_of, newest
from caseflow.cycle.models import Mark
from caseflow.lib.i18n import gettext_lazy

MARK = "cycle_mark"
PEOPLE = frozenset({OTHER_PARTY})


def _day(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "DATE_FORMAT")


def marks(case, query: Query) -> list[Entry]:
    if not about(query, PEOPLE):
        return []
    words = FieldConfig(agency_field_config(case.agency_id)).for_kind("cycle_mark").get("words", {})
    rows = Mark.objects.filter(case=case).select_related("agency_kind", "incident", "contact_event")
    entries = []
    for row in newest(rows, query, MARK, "at"):
        row.case = case
        if row.incident is not None:
            follows = _("An incident")
            url = reverse("cycle:after_incident", args=[case.public_id, row.incident.public_id])
            harm_at = row.incident.occurred_at
        else:
            assert row.contact_event is not None
            follows = _("A contact")
            url = reverse("cycle:after_contact", args=[case.public_id, row.contact_event.public_id])
            harm_at = row.contact_event.occurred_at
        entries.append(
            Entry(
                at=row.at,
                kind=MARK,
                key=key_of(row.pk),
                title=_("What followed harm: %(kind)s") % {"kind": row.kind_label},
                body="" if words.get("hidden") else row.words,
                people=PEOPLE,
                url=url,
                facts=((_("After"), f"{follows}, {_day(harm_at)}"),),
            )
        )
    return entries


SOURCES = (
    Source(
        kind=MARK,
        label=gettext_lazy("What followed harm"),
        fetch=marks,
        model=Mark,
        order=42,
        categories=frozenset({"evidence", "narratives"}),
    ),
)
