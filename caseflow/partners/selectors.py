"""Look-ups inside a case the views resolved through policy: nothing here widens who sees what."""

from __future__ import annotations

from django.http import Http404

from caseflow.cases.models import Case
from caseflow.confidentiality.models import Release
from caseflow.partners.models import MeetingAction, MeetingReferral, ServiceReferral


def case_releases(case: Case) -> list[Release]:
    rows = list(Release.objects.filter(case=case).select_related("consenting_party", "for_child"))
    for row in rows:
        row.case = case
    return rows


def release_of(case: Case, public_id: str) -> Release | None:
    if not public_id:
        return None
    found = Release.objects.filter(case=case, public_id=public_id).first()
    if found is not None:
        found.case = case
    return found


def meeting_get(case: Case, referral_id: str) -> MeetingReferral:
    found = MeetingReferral.objects.filter(case=case, public_id=referral_id).first()
    if found is None:
        raise Http404
    found.case = case
    return found


def meeting_actions(case: Case, referral: MeetingReferral) -> list[MeetingAction]:
    rows = list(referral.actions.select_related("owner").order_by("due_on", "pk"))
    for row in rows:
        row.case = case
    return rows


def action_get(case: Case, referral: MeetingReferral, action_id: str) -> MeetingAction:
    found = MeetingAction.objects.filter(case=case, referral=referral, public_id=action_id).first()
    if found is None:
        raise Http404
    found.case = case
    return found


def referral_get(case: Case, referral_id: str) -> ServiceReferral:
    found = ServiceReferral.objects.filter(case=case, public_id=referral_id).first()
    if found is None:
        raise Http404
    found.case = case
    return found
