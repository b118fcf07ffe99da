"""What the case itself brings to its pages, like any other feature (see
:mod:`caseflow.cases.features`): its history and episodes on the timeline, its open follow-ups
as work closing cancels, the general follow-up kinds and its own (an emergency access to follow
up) and the language each member of staff reads."""

from __future__ import annotations

from caseflow.accounts.language import language_for
from caseflow.cases import episode_timeline, history, journey
from caseflow.cases.features import CaseFeature, OpenWork
from caseflow.cases.models import CaseFollowUpKind
from caseflow.inbox.kinds import GeneralFollowUpKind
from caseflow.lib.i18n import gettext_lazy as _

FEATURE = CaseFeature(
    name="cases",
    order=0,
    timeline=(episode_timeline.SOURCE, history.SOURCE),
    open_work=(
        OpenWork(
            "followups",
            _("Open follow-ups"),
            list_open=journey._followup_lines,
            cancel=journey._cancel_followups,
        ),
    ),
    followup_kinds=(GeneralFollowUpKind, CaseFollowUpKind),
    user_language=language_for,
)
