"""What partner work brings to a case (see :mod:`caseflow.cases.features`): the referrals and
meetings panel, referrals and meetings on the timeline, and meeting actions on the today
queue."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, Panel
from caseflow.partners import panels, timeline, today
from caseflow.partners.models import PartnersFollowUpKind

FEATURE = CaseFeature(
    name="partners",
    order=60,
    panels=(Panel(panels.case_panel, order=45),),
    case_facts=panels.case_facts,
    timeline=timeline.SOURCES,
    queue=today.SOURCES,
    followup_kinds=(PartnersFollowUpKind,),
)
