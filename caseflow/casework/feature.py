"""What casework brings to a case (see :mod:`caseflow.cases.features`): the notes and incidents
panel and the needs panel, notes, incidents and needs on the timeline, incidents on the trend,
the needs closing reads and marks met, and incidents and notes in referral packs."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, ClosureNeeds, PackRows, Panel
from caseflow.cases.trend import TrendSource
from caseflow.casework import needs, packs, panels, timeline
from caseflow.casework.models import CaseworkFollowUpKind
from caseflow.casework.selectors import incident_trend
from caseflow.lib.i18n import gettext_lazy as _

FEATURE = CaseFeature(
    name="casework",
    order=40,
    panels=(
        Panel(panels.case_panel, order=15, contents=("casework-h", _("Notes"))),
        Panel(panels.needs_panel, order=16),
    ),
    case_facts=panels.case_facts,
    timeline=timeline.SOURCES,
    trend=(
        TrendSource(
            kind="incidents",
            label=_("Incidents"),
            fetch=incident_trend,
            categories={"incident": (_("Incidents"), "#8a6100")},
            order=10,
        ),
    ),
    closure_needs=ClosureNeeds(
        open_choices=needs.open_need_choices,
        labels=needs.need_labels,
        mark_met=needs.needs_met_at_closure,
    ),
    pack_rows=(
        PackRows("evidence", packs.incident_rows),
        PackRows("narratives", packs.note_rows),
    ),
    followup_kinds=(CaseworkFollowUpKind,),
)
