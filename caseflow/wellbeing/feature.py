"""What her own rating brings to a case (see :mod:`caseflow.cases.features`): its panel, her
ratings on the timeline, her line on the journey's trend beside the staff's figures, "feels
safer" proposed at closure from it, and her numbers and words in packs under a release. Never in
reports."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, PackRows, Panel
from caseflow.cases.trend import Series, TrendLine
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.wellbeing import closure, packs, panels, timeline
from caseflow.wellbeing.questions import QUESTIONS
from caseflow.wellbeing.selectors import trend_points

FEATURE = CaseFeature(
    name="wellbeing",
    order=77,
    panels=(Panel(panels.case_panel, order=31, contents=("wellbeing-h", _("Her own rating"))),),
    case_facts=panels.case_facts,
    timeline=timeline.SOURCES,
    trend_lines=(
        TrendLine(
            kind="wellbeing",
            label=_("Her own rating"),
            fetch=trend_points,
            series={
                code: Series(q.short, q.colour, q.low, q.high) for code, q in QUESTIONS.items()
            },
            order=5,
        ),
    ),
    closure_proposals=(closure.closure_proposals,),
    pack_rows=(PackRows("risk", packs.number_rows), PackRows("narratives", packs.words_rows)),
)
