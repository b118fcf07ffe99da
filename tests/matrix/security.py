"""Matrix rows for security URLs: the second factor, re-authentication, the account's own
security page. Every signed-in staff member may use them for their own account."""

from tests.matrix.base import NOT_ALLOWED, Row, expect

ROWS: dict[str, Row] = {
    # Already verified (the matrix signs everyone in with a verified second factor): sent on.
    "accounts:second_factor": Row(GET=expect(302), POST=expect(302)),
    # Replacing an enrolled authenticator: the form (GET) or a wrong code (POST) page.
    "accounts:enrol": Row(GET=expect(200), POST=expect(200)),
    "accounts:enrol_qr": Row(GET=expect(200), POST=NOT_ALLOWED),
    "accounts:recovery_codes": Row(
        GET=expect(405, anonymous=405, deactivated=405), POST=expect(200), reauth=("POST",)
    ),
    # Wrong or missing password: the form again.
    "accounts:reauth": Row(GET=expect(200), POST=expect(200)),
    "accounts:security": Row(GET=expect(200), POST=NOT_ALLOWED),
    "accounts:logout_everywhere": Row(
        GET=expect(405, anonymous=405, deactivated=405), POST=expect(302)
    ),
    "accounts:password_change": Row(GET=expect(200), POST=expect(200)),
    # An enrolment or reset link with a wrong token: the "no longer works" page, for anyone.
    "accounts:link": Row(
        GET=expect(200, anonymous=200, deactivated=200),
        POST=expect(200, anonymous=200, deactivated=200),
        kwargs="link",
    ),
    "agency:staff_password_reset": Row(
        GET=expect(405, anonymous=405, deactivated=405),
        POST=expect(403, agency_admin=302),
        kwargs="user",
        reauth=("POST",),
    ),
    "agency:staff_second_factor_reset": Row(
        GET=expect(405, anonymous=405, deactivated=405),
        POST=expect(403, agency_admin=302),
        kwargs="user",
        reauth=("POST",),
    ),
}
