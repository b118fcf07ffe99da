"""Look-ups inside a case the views resolved through policy: nothing here widens who sees what."""

from __future__ import annotations

from django.http import Http404

from caseflow.cases.models import Case
from caseflow.court.models import Hearing


def hearing_get(case: Case, hearing_id: str) -> Hearing:
    found = Hearing.objects.filter(case=case, public_id=hearing_id).first()
    if found is None:
        raise Http404
    found.case = case
    return found
