"""Matrix rows for confidentiality URLs: case pages and agency pages."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from caseflow.cases.models import PartyRole
from caseflow.confidentiality.models import Release
from tests.matrix.base import NOT_ALLOWED, Row, casework, expect


def _release_url(cast, case) -> str:
    survivor = case.parties.get(role=PartyRole.SURVIVOR)
    release = Release(
        case=case,
        consenting_party=survivor,
        recipient="Matrix Housing",
        recipient_index="x",
        purpose="matrix",
        categories=["contact"],
        signed_on=dt.date(2026, 1, 1),
        expires_on=dt.date(2026, 6, 1),
    )
    release.save()
    return reverse("confidentiality:release_revoke", args=[case.public_id, release.public_id])


def prepared_export_url(name: str):
    """A large case export the case's assigned advocate asked for, waiting for its worker:
    everyone else, the case's supervisor included, gets 404."""

    def build(cast, case) -> str:
        from django.utils import timezone

        from caseflow.confidentiality.models import DisclosureKind, PreparedExport

        survivor = case.parties.get(role=PartyRole.SURVIVOR)
        release = Release(
            case=case,
            consenting_party=survivor,
            recipient="Matrix Housing",
            recipient_index="x",
            purpose="matrix",
            categories=["contact"],
            signed_on=dt.date(2026, 1, 1),
            expires_on=dt.date(2026, 6, 1),
        )
        release.save()
        prepared = PreparedExport(
            case=case,
            kind=DisclosureKind.CASE_EXPORT,
            requested_by=cast.assigned,
            release=release,
            recipient="Matrix Housing",
            categories=["contact"],
            expires_at=timezone.now() + dt.timedelta(hours=24),
        )
        prepared.save()
        return reverse(name, args=[case.public_id, prepared.public_id])

    return build


#: Only the person who asked for a prepared export, while they may still edit the case.
ASKER = {"assigned": 200}

PURGERS = {"supervisor": 200, "other_supervisor": 200, "agency_admin": 200}
PURGE_STEP = {"supervisor": 302, "other_supervisor": 302, "agency_admin": 302}
REPORTERS = {**PURGERS, "auditor": 200}

ROWS: dict[str, Row] = {
    "confidentiality:release_new": Row(
        GET=casework(200, 200), POST=casework(200, 200), kwargs="case"
    ),
    "confidentiality:release_revoke": Row(
        GET=casework(200, 200), POST=casework(200, 200), url=_release_url
    ),
    # Her answer to sharing for research: a POST without one is the form again.
    "confidentiality:research_consent": Row(
        GET=casework(200, 200), POST=casework(200, 200), kwargs="case"
    ),
    "confidentiality:referral_pack": Row(
        GET=casework(200, 200), POST=casework(200, 200), kwargs="case", reauth=("POST",)
    ),
    "confidentiality:evidence_pack": Row(
        GET=casework(200, 200), POST=casework(200, 200), kwargs="case", reauth=("POST",)
    ),
    "confidentiality:case_export": Row(
        GET=casework(200, 200), POST=casework(200, 200), kwargs="case", reauth=("POST",)
    ),
    "confidentiality:prepared_export": Row(
        GET=expect(404, **ASKER),
        POST=NOT_ALLOWED,
        url=prepared_export_url("confidentiality:prepared_export"),
    ),
    "confidentiality:prepared_export_progress": Row(
        GET=expect(404, **ASKER),
        POST=NOT_ALLOWED,
        url=prepared_export_url("confidentiality:prepared_export_progress"),
    ),
    # Not ready yet: back to its page.
    "confidentiality:prepared_export_download": Row(
        GET=expect(404, assigned=302),
        POST=NOT_ALLOWED,
        url=prepared_export_url("confidentiality:prepared_export_download"),
        reauth=("GET",),
    ),
    # Not stale: nothing to start again, back to its page.
    "confidentiality:prepared_export_retry": Row(
        GET=NOT_ALLOWED,
        POST=expect(404, assigned=302),
        url=prepared_export_url("confidentiality:prepared_export_retry"),
    ),
    "confidentiality:own_copy": Row(
        GET=casework(200, 200), POST=casework(200, 200), kwargs="case", reauth=("POST",)
    ),
    "confidentiality:timeline_share": Row(
        GET=casework(200, 200), POST=casework(200, 200), kwargs="case", reauth=("POST",)
    ),
    "confidentiality:compelled_new": Row(
        GET=casework(200, 200), POST=casework(200, 200), kwargs="case"
    ),
    "confidentiality:purges": Row(GET=expect(403, **PURGERS), POST=NOT_ALLOWED),
    "confidentiality:purge_approve": Row(
        GET=NOT_ALLOWED, POST=expect(403, **PURGE_STEP), reauth=("POST",)
    ),
    "confidentiality:purge_execute": Row(
        GET=NOT_ALLOWED, POST=expect(403, **PURGE_STEP), reauth=("POST",)
    ),
    "confidentiality:legal_hold_place": Row(GET=NOT_ALLOWED, POST=expect(403, **PURGE_STEP)),
    "confidentiality:legal_hold_lift": Row(
        GET=NOT_ALLOWED, POST=expect(403, **PURGE_STEP), reauth=("POST",)
    ),
    "confidentiality:retention": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)
    ),
    "confidentiality:fields": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)
    ),
    "confidentiality:reports": Row(GET=expect(403, **REPORTERS), POST=NOT_ALLOWED),
    "confidentiality:report_csv": Row(
        GET=expect(403, **{k: 302 for k in REPORTERS}), POST=NOT_ALLOWED, reauth=("GET",)
    ),
}
