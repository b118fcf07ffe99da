"""What partner work brings to a case (see :mod:`caseflow.cases.features`): the referrals and
meetings panel, referrals and meetings on the timeline, and meeting actions on the today
queue."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature, FieldWords, Panel
from caseflow.partners import hud, panels, timeline, today
from caseflow.partners.forms import MeetingUpdateForm, PartnerSettingsForm
from caseflow.partners.models import QUESTIONS, PartnersFollowUpKind


def _labels(form) -> dict:
    return {name: field.label for name, field in form.base_fields.items()}


FEATURE = CaseFeature(
    name="partners",
    order=60,
    panels=(Panel(panels.case_panel, order=45),),
    case_facts=panels.case_facts,
    timeline=timeline.SOURCES,
    queue=today.SOURCES,
    followup_kinds=(PartnersFollowUpKind,),
    field_words=(
        FieldWords("demographics", lambda: {q: label for q, (label, _c) in QUESTIONS.items()}),
        FieldWords("hud_answers", hud.field_words),
        FieldWords("meeting", lambda: _labels(MeetingUpdateForm)),
        FieldWords("partners", lambda: _labels(PartnerSettingsForm)),
    ),
)
