"""What court brings to a case (see :mod:`caseflow.cases.features`): the hearings panel, hearings
on the timeline, hearings coming up (and outcomes to record) on the today queue, "Court support"
in the staff calendar feed, hearings with the court orders in referral packs, and the
accompaniment follow-up."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, FieldWords, PackRows, Panel
from caseflow.court import calendar, packs, panels, timeline, today
from caseflow.court.forms import HearingForm
from caseflow.court.models import CourtFollowUpKind

FEATURE = CaseFeature(
    name="court",
    order=65,
    panels=(Panel(panels.case_panel, order=47),),
    case_facts=panels.case_facts,
    timeline=timeline.SOURCES,
    queue=today.SOURCES,
    calendar=calendar.SOURCES,
    pack_rows=(PackRows("court_orders", packs.hearing_rows),),
    followup_kinds=(CourtFollowUpKind,),
    field_words=(
        FieldWords("hearing", lambda: {n: f.label for n, f in HearingForm.base_fields.items()}),
    ),
)
