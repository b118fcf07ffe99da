"""Matrix rows for the foundation: dashboard, sign-in, staff, cases."""

from django.urls import reverse

from caseflow.cases.models import ReopenRequest
from tests.matrix.base import CASEWORKERS_ONLY, NOT_ALLOWED, Row, casework, expect


def _cover_url(cast) -> str:
    import datetime as dt

    from django.utils import timezone

    from caseflow.cases.models import Cover

    now = timezone.now()
    cover = Cover.objects.create(
        agency=cast.agency,
        absent=cast.assigned,
        covering=cast.same_team,
        starts_at=now - dt.timedelta(hours=1),
        ends_at=now + dt.timedelta(days=2),
        set_by=cast.supervisor,
    )
    return reverse("cases:cover_end", args=[cover.public_id])


def _provider_group_url(cast, case) -> str:
    from caseflow.accounts.models import ProviderGroup, Role

    group, _ = ProviderGroup.objects.get_or_create(
        agency=cast.agency, name="caseworkers", defaults={"role": Role.ADVOCATE}
    )
    return reverse("agency:provider_group_delete", args=[group.pk])


ROWS: dict[str, Row] = {
    "dashboard": Row(
        GET=expect(200),
        POST=NOT_ALLOWED,
    ),
    "health": Row(
        GET=expect(200, anonymous=200, deactivated=200),
        POST=expect(405, anonymous=405, deactivated=405),
    ),
    "health_ready": Row(
        GET=expect(200, anonymous=200, deactivated=200),
        POST=expect(405, anonymous=405, deactivated=405),
    ),
    "status": Row(
        GET=expect(403, supervisor=200, other_supervisor=200, agency_admin=200), POST=NOT_ALLOWED
    ),
    "accounts:login": Row(
        # Signed-in users are sent on to their home page.
        GET=expect(302, anonymous=200, deactivated=200),
        POST=expect(302, anonymous=200, deactivated=200),
    ),
    # Sign-in at an agency's identity provider. The cast's agency has none: its address sends
    # everyone to the password sign-in, starting is not found, a callback nobody started is
    # refused, and re-authenticating goes to the password one (or to sign in).
    "accounts:agency_login": Row(
        GET=expect(302, anonymous=302, deactivated=302),
        POST=expect(405, anonymous=405, deactivated=405),
        kwargs="call",
        url=lambda cast, case: reverse("accounts:agency_login", args=[cast.agency.slug]),
    ),
    "accounts:provider_start": Row(
        GET=expect(404, anonymous=404, deactivated=404),
        POST=expect(405, anonymous=405, deactivated=405),
        kwargs="call",
        url=lambda cast, case: reverse("accounts:provider_start", args=[cast.agency.slug]),
    ),
    "accounts:provider_callback": Row(
        GET=expect(403, anonymous=403, deactivated=403),
        POST=expect(405, anonymous=405, deactivated=405),
    ),
    "accounts:provider_reauth": Row(GET=expect(302), POST=expect(302)),
    "accounts:logout": Row(GET=expect(405, anonymous=405, deactivated=405), POST=expect(302)),
    "accounts:keep_alive": Row(GET=expect(405, anonymous=405, deactivated=405), POST=expect(204)),
    "agency:staff_list": Row(GET=expect(403, agency_admin=200), POST=NOT_ALLOWED),
    "agency:settings": Row(GET=expect(403, agency_admin=200), POST=NOT_ALLOWED),
    "agency:staff_new": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200), reauth=("POST",)
    ),
    "agency:staff_edit": Row(
        GET=expect(403, agency_admin=200),
        POST=expect(403, agency_admin=200),
        kwargs="user",
        reauth=("POST",),
    ),
    # Which groups of the agency's identity provider give which role: the agency admin only.
    "agency:provider_groups": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200), reauth=("POST",)
    ),
    "agency:provider_group_delete": Row(
        GET=expect(405, anonymous=405, deactivated=405),
        POST=expect(403, agency_admin=302),
        kwargs="call",
        url=_provider_group_url,
        reauth=("POST",),
    ),
    "agency:time_zone": Row(GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)),
    "agency:list_names": Row(GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=302)),
    "agency:team_new": Row(GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)),
    "agency:team_edit": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200), kwargs="team"
    ),
    # Any member of staff with a role chooses their own language; the agency admin the agency's.
    "agency:language": Row(
        GET=expect(200, operator=403, coalition=403), POST=expect(200, operator=403, coalition=403)
    ),
    "agency:agency_language": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)
    ),
    "cases:list": Row(GET=expect(403, **CASEWORKERS_ONLY), POST=NOT_ALLOWED),
    "cases:find": Row(GET=expect(403, **CASEWORKERS_ONLY), POST=expect(403, **CASEWORKERS_ONLY)),
    # Cover for someone away: supervisors, for the teams they supervise.
    "cases:cover": Row(
        GET=expect(403, supervisor=200, other_supervisor=200),
        POST=expect(403, supervisor=200, other_supervisor=200),
    ),
    "cases:cover_end": Row(
        GET=expect(405),
        POST=expect(403, supervisor=302, other_supervisor=404),
        kwargs="call",  # an object outside any case, built once
        url=lambda cast, case: _cover_url(cast),
    ),
    # Handing many cases over: supervisors, for the teams they supervise.
    "cases:reassign": Row(
        GET=expect(403, supervisor=200, other_supervisor=200),
        POST=expect(403, supervisor=200, other_supervisor=200),
        reauth=("POST",),
    ),
    "cases:draft": Row(
        GET=casework(204, 204),
        POST=casework(204, 204),
        url=lambda cast, case: reverse("cases:draft", args=[case.public_id, "safety-plan"]),
    ),
    "cases:find_emergency": Row(
        GET=expect(403, **{actor: 302 for actor in CASEWORKERS_ONLY}),
        POST=expect(403, **CASEWORKERS_ONLY),
        reauth=("POST",),
    ),
    "cases:new": Row(GET=expect(403, **CASEWORKERS_ONLY), POST=expect(403, **CASEWORKERS_ONLY)),
    "cases:break_glass": Row(
        GET=expect(403, **CASEWORKERS_ONLY),
        POST=expect(403, **CASEWORKERS_ONLY),
        reauth=("GET", "POST"),
    ),
    "cases:detail": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    "cases:edit": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "cases:assign": Row(
        GET=casework(403, 200), POST=casework(403, 200), kwargs="case", reauth=("POST",)
    ),
    "cases:restrict": Row(
        GET=casework(403, 200), POST=casework(403, 200), kwargs="case", reauth=("POST",)
    ),
    "cases:timeline": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    "cases:timeline_print": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    "cases:status": Row(GET=NOT_ALLOWED, POST=casework(302, 302), kwargs="case"),
    "checkins:safe_contact": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "cases:party_new": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "cases:party_edit": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="party"),
    # The survivor's journey: closure, journey and trend, risk level, reopen requests, reasons.
    "cases:closure": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "cases:closure_decide": Row(GET=NOT_ALLOWED, POST=casework(403, 302), kwargs="case"),
    "cases:journey": Row(GET=casework(200, 200), POST=NOT_ALLOWED, kwargs="case"),
    "cases:risk": Row(GET=casework(200, 200), POST=casework(200, 200), kwargs="case"),
    "cases:reopen_request": Row(
        GET=NOT_ALLOWED,
        POST=casework(403, 302),
        url=lambda cast, case: reverse(
            "cases:reopen_request",
            args=[
                case.public_id,
                ReopenRequest.objects.create(case=case, requested_by=cast.other_team).public_id,
            ],
        ),
    ),
    "cases:closure_reasons": Row(
        GET=expect(403, agency_admin=200), POST=expect(403, agency_admin=200)
    ),
}
