from __future__ import annotations

from caseflow.accounts.models import Role
from caseflow.confidentiality.models import Category
from caseflow.transfers import services
from tests import factories as f
from tests.confidentiality.helpers import release

COVERED = [Category.CONTACT, Category.ADDRESS, Category.RISK, Category.NARRATIVES]


def receiving_supervisor(cast):
    """A supervisor of Agency B, in its team B."""
    return f.staff(
        cast.other_agency_team.agency,
        Role.SUPERVISOR,
        [cast.other_agency_team],
        username="b_supervisor",
    )


def transfer_release(cast, case=None, categories=COVERED, recipient=None):
    return release(
        cast,
        case,
        categories=categories,
        recipient=recipient or cast.other_agency_team.agency.name,
    )


def requested(cast, categories=COVERED):
    rel = transfer_release(cast, categories=categories)
    return services.transfer_request(
        actor=cast.assigned,
        case=cast.case,
        receiving_agency=cast.other_agency_team.agency,
        release_id=rel.public_id,
        categories=list(categories),
    )
