"""What financial assistance brings to a case (see :mod:`caseflow.cases.features`): the
payments panel, payments on the timeline, and payments waiting for approval on the
supervisors' today queue."""

from __future__ import annotations

from caseflow.assistance import panels, timeline, today
from caseflow.cases.features import CaseFeature, Panel

FEATURE = CaseFeature(
    name="assistance",
    order=67,
    panels=(Panel(panels.case_panel, order=48),),
    case_facts=panels.case_facts,
    timeline=timeline.SOURCES,
    queue=today.SOURCES,
)
