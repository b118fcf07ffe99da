"""What the cycle brings to a case (see :mod:`caseflow.cases.features`): what followed harm on
the timeline, a row and the pattern in words on the journey's trend, and the marks in referral
packs and exports (under a release: the dated kinds with the contact log, her words with the
narratives)."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, PackRows
from caseflow.cycle import packs, timeline, trend

FEATURE = CaseFeature(
    name="cycle",
    order=42,
    timeline=timeline.SOURCES,
    trend=(trend.SOURCE,),
    pack_rows=(
        PackRows("evidence", packs.mark_rows),
        PackRows("narratives", packs.words_rows),
    ),
)
