"""What contact agreements bring to a case (see :mod:`caseflow.cases.features`): their panel,
contacts, breaches and versions on the timeline, breaches on the trend, contacts waiting for
review on the today queue, orders and evidence in referral packs, and each handover as an
occasion for a check-in after it."""

from __future__ import annotations

from caseflow.agreements import handovers, packs, panels, timeline, today
from caseflow.agreements.models import AgreementFollowUpKind
from caseflow.agreements.selectors import breach_trend
from caseflow.cases.features import CaseFeature, PackRows, Panel
from caseflow.cases.trend import TrendSource
from caseflow.lib.i18n import gettext_lazy as _

FEATURE = CaseFeature(
    name="agreements",
    order=20,
    panels=(Panel(panels.case_panel, order=20, contents=("agreements-h", _("Agreements"))),),
    case_facts=panels.case_facts,
    timeline=timeline.SOURCES,
    trend=(
        TrendSource(
            kind="breaches",
            label=_("The other party's breaches"),
            fetch=breach_trend,
            categories={"breach": (_("Breaches"), "#b02a37")},
            order=20,
        ),
    ),
    queue=today.SOURCES,
    pack_rows=(
        PackRows("court_orders", packs.agreement_order_rows),
        PackRows("evidence", packs.evidence_rows),
    ),
    followup_kinds=(AgreementFollowUpKind,),
    checkin_occasions=(handovers.SOURCE,),
)
