"""What check-ins bring to a case (see :mod:`caseflow.cases.features`): their panel, past
check-ins on the timeline and the trend, check-ins and follow-ups on the today queue, the next
check-in in the case tables, future check-ins that closing cancels, calendar feed links
ended with a user's sessions, and the check-ins a handover passes to the new advocate."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, OpenWork, Panel
from caseflow.cases.trend import TrendSource
from caseflow.checkins import panels, timeline, today
from caseflow.checkins.models import CheckInFollowUpKind
from caseflow.checkins.selectors import checkin_trend, future_checkin_lines, next_checkin_due
from caseflow.checkins.services import (
    calendar_tokens_revoke_for,
    checkins_cancel_for_closure,
    checkins_handover,
)
from caseflow.lib.i18n import gettext_lazy as _

FEATURE = CaseFeature(
    name="checkins",
    order=30,
    panels=(Panel(panels.case_panel, order=30, contents=("checkins-h", _("Check-ins"))),),
    case_facts=panels.case_facts,
    timeline=(timeline.SOURCE,),
    trend=(
        TrendSource(
            kind="checkins",
            label=_("Check-ins"),
            fetch=checkin_trend,
            categories={
                "reached": (_("Reached"), "#146c43"),
                "not_reached": (_("Not reached or not safe"), "#6c757d"),
            },
            order=30,
        ),
    ),
    queue=today.SOURCES,
    next_due=(next_checkin_due,),
    open_work=(
        OpenWork(
            "checkins",
            _("Future check-ins"),
            list_open=future_checkin_lines,
            cancel=checkins_cancel_for_closure,
        ),
    ),
    credential_revokers=(calendar_tokens_revoke_for,),
    followup_kinds=(CheckInFollowUpKind,),
    handover=(checkins_handover,),
)
