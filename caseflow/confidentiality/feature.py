"""What confidentiality brings to a case (see :mod:`caseflow.cases.features`): the releases and
disclosures panel, and releases and disclosures on the timeline."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, Panel
from caseflow.confidentiality import panels, timeline
from caseflow.confidentiality.models import ConfidentialityFollowUpKind
from caseflow.lib.i18n import gettext_lazy as _

FEATURE = CaseFeature(
    name="confidentiality",
    order=50,
    panels=(Panel(panels.case_panel, order=40, contents=("conf-h", _("Sharing"))),),
    case_facts=panels.case_facts,
    case_related=("research_consent",),
    timeline=timeline.SOURCES,
    followup_kinds=(ConfidentialityFollowUpKind,),
)
