"""What duty-line calls bring to a case (see :mod:`caseflow.cases.features`): the calls
attached to it, or that opened it, on its timeline."""

from __future__ import annotations

from caseflow.calls import timeline
from caseflow.cases.features import CaseFeature

FEATURE = CaseFeature(
    name="calls",
    order=73,
    timeline=(timeline.SOURCE,),
)
