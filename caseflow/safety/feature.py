"""What safety brings to a case (see :mod:`caseflow.cases.features`): the safety plan's panel,
its versions and protective orders on the timeline, plans due for review on the today queue,
the safety plan (with the dates that are hard for her) and court orders in referral packs,
and her hard dates as occasions for a check-in before each."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, PackRows, Panel
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety import hard_dates, packs, panels, timeline, today
from caseflow.safety.models import SafetyFollowUpKind

FEATURE = CaseFeature(
    name="safety",
    order=10,
    panels=(Panel(panels.case_panel, order=10, contents=("safety-h", _("Safety"))),),
    case_facts=panels.case_facts,
    case_related=panels.CASE_RELATED,
    timeline=timeline.SOURCES,
    queue=today.SOURCES,
    pack_rows=(
        PackRows("safety_plan", packs.safety_plan_rows),
        PackRows("safety_plan", packs.hard_date_rows),
        PackRows("court_orders", packs.protective_order_rows),
    ),
    followup_kinds=(SafetyFollowUpKind,),
    checkin_occasions=(hard_dates.SOURCE,),
)
