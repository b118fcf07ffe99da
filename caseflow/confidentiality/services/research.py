"""The survivor's answer to sharing anonymised data about her support with SafeLives Insights
for research: recorded on the case as a code (who, when), changed at any time, audited by code.

A "yes" taken back is kept as "withdrawn" (not "did not agree"), so the record says she once
agreed; either way her exits are left out of every Insights return prepared from then on."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from caseflow import policy
from caseflow.accounts.models import User
from caseflow.audit.services import record
from caseflow.cases.models import Case
from caseflow.confidentiality.models import ResearchAnswer, ResearchConsent


def research_answer(case: Case) -> str:
    """The case's answer, as a code ("not asked" when nobody has recorded one)."""
    found = ResearchConsent.objects.filter(case=case).values_list("answer", flat=True).first()
    return found or ResearchAnswer.NOT_ASKED


@transaction.atomic
def research_consent_save(*, actor: User, case: Case, agrees: bool) -> ResearchConsent:
    """Record whether she agrees now. Saying no after a yes is "withdrawn"."""
    if not policy.may(actor, case, "edit"):
        raise PermissionDenied
    consent, _created = ResearchConsent.objects.select_for_update().get_or_create(
        case=case, defaults={"recorded_by": actor}
    )
    was = consent.answer
    if agrees:
        answer = ResearchAnswer.AGREED
    elif was in (ResearchAnswer.AGREED, ResearchAnswer.WITHDRAWN):
        answer = ResearchAnswer.WITHDRAWN
    else:
        answer = ResearchAnswer.DECLINED
    consent.answer = answer
    consent.recorded_by = actor
    consent.recorded_at = timezone.now()
    consent.save(update_fields=["answer", "recorded_by", "recorded_at"])
    record(
        "research_consent.save",
        actor=actor,
        case=case,
        obj=case,
        detail={"answer": str(answer)},
    )
    return consent
