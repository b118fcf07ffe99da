"""What the API brings to a case (see :mod:`caseflow.cases.features`): the agency's webhook
subscriptions are the audience of the case's events, so an event is fanned out only when
someone subscribed to it."""

from __future__ import annotations

from caseflow.api.services import anyone_listening
from caseflow.cases.features import CaseFeature

FEATURE = CaseFeature(
    name="api",
    order=80,
    event_audiences=(anyone_listening,),
)
