"""What the service log brings to a case (see :mod:`caseflow.cases.features`): nothing shown on
the case page yet; its records are counted by the funder reports. Registered so that the app is
known to the case like every other."""

from __future__ import annotations

from caseflow.cases.features import CaseFeature

FEATURE = CaseFeature(name="servicelog", order=75)
