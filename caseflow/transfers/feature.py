"""What transfers bring to a case (see :mod:`caseflow.cases.features`): the transfers panel
(where the case went, or came from) and the transfers waiting in a supervisor's decisions."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, Panel
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.transfers import decisions, panels

FEATURE = CaseFeature(
    name="transfers",
    order=55,
    panels=(Panel(panels.case_panel, order=41, contents=("transfers-h", _("Transfers"))),),
    case_facts=panels.case_facts,
    decisions=(decisions.transfers_in,),
)
