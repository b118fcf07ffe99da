"""What shelter brings to a case (see :mod:`caseflow.cases.features`): the stays panel and the
stays on the timeline."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, Panel
from caseflow.shelter import panels, timeline

FEATURE = CaseFeature(
    name="shelter",
    order=74,
    panels=(Panel(panels.case_panel, order=46),),
    case_facts=panels.case_facts,
    timeline=timeline.SOURCES,
)
