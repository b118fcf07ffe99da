"""Which language each person reads, the two Englishes, the survivor's language and access needs,
and the safety plan printed in the survivor's language."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from caseflow.accounts.language import set_agency_language, set_user_language
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Party, PartyRole
from caseflow.lib.i18n import advocate_or_idva
from caseflow.lib.i18n import gettext_lazy as _
from caseflow.safety import services as safety
from tests import factories as f


def _survivor(case) -> Party:
    party = Party.objects.filter(case=case, role=PartyRole.SURVIVOR).first()
    if party is None:
        party = f.add_party(case, full_name="Maria Ejemplo")
    party.case = case
    return party


def test_the_agency_locale_and_the_users_own_choice(cast, login):
    set_agency_language(cast.agency.pk, "es")
    body = login(cast.assigned).get(reverse("dashboard")).content.decode()
    assert 'lang="es"' in body and "Tus casos abiertos" in body
    set_user_language(cast.assigned, "en-gb")
    body = login(cast.assigned).get(reverse("dashboard")).content.decode()
    assert 'lang="en-gb"' in body and "Your open cases" in body
    # Another member of the same agency still reads the agency's language.
    body = login(cast.same_team).get(reverse("dashboard")).content.decode()
    assert "Tus casos abiertos" in body


def test_someone_not_signed_in_reads_their_browsers_language(client, db):
    body = client.get(reverse("accounts:login"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Entrar" in body
    body = client.get(reverse("accounts:login"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sign in" in body


def test_choosing_a_language_on_the_language_page(cast, login):
    client = login(cast.assigned)
    response = client.post(reverse("agency:language"), {"language": "es"})
    assert response.status_code == 302
    assert "Tu idioma está guardado" in client.get(response["Location"]).content.decode()
    client.post(reverse("agency:language"), {"language": ""})
    assert "Your open cases" in client.get(reverse("dashboard")).content.decode()


def test_only_the_agency_admin_sets_the_agency_language(cast, login):
    assert (
        login(cast.assigned).post(reverse("agency:agency_language"), {"language": "es"}).status_code
        == 403
    )
    response = login(cast.agency_admin).post(reverse("agency:agency_language"), {"language": "es"})
    assert response.status_code == 302
    assert "Tus casos abiertos" in login(cast.assigned).get(reverse("dashboard")).content.decode()
    # Another agency is untouched.
    assert "Your open cases" in login(cast.other_agency).get(reverse("dashboard")).content.decode()


@pytest.mark.parametrize(
    ("locale", "present", "absent"),
    [
        (
            "en-us",
            ["Protective orders", "Releases of information", "Record a release"],
            ["Non-molestation", "Consents to share"],
        ),
        (
            "en-gb",
            [
                "Non-molestation or occupation orders",
                "Consents to share",
                "Record a consent to share",
            ],
            ["Protective orders", "Releases of information"],
        ),
    ],
)
def test_us_and_uk_agencies_read_their_own_words_on_the_same_pages(
    cast, login, locale, present, absent
):
    set_agency_language(cast.agency.pk, locale)
    client = login(cast.assigned)
    pages = [
        reverse("safety:plan_edit", args=[cast.case.public_id]),
        reverse("cases:detail", args=[cast.case.public_id]),
    ]
    body = "".join(client.get(url).content.decode() for url in pages)
    for words in present:
        assert words in body, words
    for words in absent:
        assert words not in body, words


def test_dates_follow_the_locale(cast, login):
    set_agency_language(cast.agency.pk, "en-us")
    us = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    set_agency_language(cast.agency.pk, "en-gb")
    uk = login(cast.assigned).get(reverse("cases:detail", args=[cast.case.public_id]))
    opened = cast.case.opened_at
    assert f"{opened:%b} {opened.day}, {opened.year}" in us.content.decode()
    assert f"{opened.day} {opened:%b} {opened.year}" in uk.content.decode()


def test_language_needs_are_kept_and_shown_on_the_card_and_on_check_ins(cast, login):
    party = _survivor(cast.case)
    client = login(cast.assigned)
    url = reverse("cases:party_edit", args=[cast.case.public_id, party.public_id])
    response = client.post(
        url,
        {
            "role": PartyRole.SURVIVOR,
            "full_name": "Maria Ejemplo",
            "languages": ["pl", "en"],
            "interpreter_language": "pl",
            "interpreter_independent": "on",
            "communication_needs": ["large_print"],
            "access_needs": "Step-free access",
        },
    )
    assert response.status_code == 302
    party = Party.objects.get(pk=party.pk)
    party.case = cast.case
    assert party.languages == "pl,en"
    assert party.interpreter_language == "pl"
    assert party.communication_needs == ["large_print"]
    assert party.access_needs == "Step-free access"
    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "Interpreter needed: Polish" in page
    assert "Never a family member, a friend or the other party." in page
    assert "Large print" in page and "Step-free access" in page
    if not hasattr(cast.case, "safe_contact"):
        f.add_profile(cast.case)
    checkin = client.get(reverse("checkins:new", args=[cast.case.public_id])).content.decode()
    assert "Interpreter needed: Polish" in checkin


def test_access_needs_are_stored_encrypted(cast):
    party = _survivor(cast.case)
    party.access_needs = "A quiet room"
    party.save()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT access_needs FROM cases_party WHERE id = %s", [party.pk])
        (raw,) = cursor.fetchone()
    assert "quiet" not in raw


def test_the_safety_plan_prints_in_the_survivors_language(cast, login):
    party = _survivor(cast.case)
    party.languages = "es,en"
    party.save()
    safety.plan_save(
        actor=cast.assigned,
        case=cast.case,
        expected_version=0,
        content={"safe_contacts": "Call Ana on the usual number", "go_bag": ["keys"]},
    )
    client = login(cast.assigned)
    url = reverse("safety:plan_print", args=[cast.case.public_id])
    page = client.get(url).content.decode()
    printed = page.split('id="print-area"', 1)[1]
    assert 'lang="es"' in page
    assert "Contactos seguros y palabras clave" in printed
    assert "Call Ana on the usual number" in printed  # the advocate's words, as written
    assert "Safe contacts and code words" not in printed
    # The controls stay in the advocate's language.
    assert "Update preview" in page
    # The advocate may print it in their own language instead.
    page = client.get(url, {"language": "en-gb", "title": "Notes"}).content.decode()
    assert "Safe contacts and code words" in page.split('id="print-area"', 1)[1]


def test_an_agency_may_call_its_advocates_idvas(cast, login):
    admin = login(cast.agency_admin)
    page = admin.get(reverse("agency:agency_language")).content.decode()
    assert "What your agency calls its advocates" in page
    response = admin.post(
        reverse("agency:agency_language"), {"language": "en-gb", "advocate_title": "idva"}
    )
    assert response.status_code == 302
    event = AuditEvent.objects.filter(action="language.agency_change").latest("seq")
    assert event.detail["advocate_title"] == "idva"
    # The staff list, the team table and the case list say IDVA; the role itself is unchanged.
    staff = admin.get(reverse("agency:staff_list")).content.decode()
    assert "<td>IDVA</td>" in staff and "<td>Advocate</td>" not in staff
    form = admin.get(reverse("agency:staff_edit", args=[cast.assigned.pk])).content.decode()
    assert '<option value="advocate" selected>IDVA</option>' in form
    cast.assigned.membership.refresh_from_db()
    assert cast.assigned.membership.role == "advocate"
    cases = login(cast.supervisor).get(reverse("cases:list")).content.decode()
    assert "Primary IDVA" in cases and "Primary advocate" not in cases
    assign = login(cast.supervisor).get(reverse("cases:assign", args=[cast.case.public_id]))
    assert "Primary IDVA" in assign.content.decode()
    # Sentences that name the role say IDVA too, chosen when the page is rendered.
    checkin = login(cast.assigned).get(reverse("checkins:new", args=[cast.case.public_id]))
    assert re.search(r'for="id_assignee"[^>]*>\s*IDVA<', checkin.content.decode())
    reasons = login(cast.agency_admin).get(reverse("cases:closure_reasons")).content.decode()
    assert "IDVAs choose one of these" in reasons and "Advocates choose" not in reasons
    # Outside a request (a worker's e-mail, a report), the word is the plain one.
    assert str(advocate_or_idva(_("Advocate"), _("IDVA"))) == "Advocate"
    # Another agency still says advocate.
    other = login(cast.other_agency).get(reverse("cases:list")).content.decode()
    assert "Primary advocate" in other and "Primary IDVA" not in other
    other_checkin = login(cast.other_agency).get(
        reverse("checkins:new", args=[cast.foreign_case.public_id])
    )
    assert re.search(r'for="id_assignee"[^>]*>\s*Advocate<', other_checkin.content.decode())
    # Saving the language alone keeps the agency's word.
    admin = login(cast.agency_admin)
    admin.post(reverse("agency:agency_language"), {"language": "en-us"})
    assert "<td>IDVA</td>" in admin.get(reverse("agency:staff_list")).content.decode()
    admin.post(
        reverse("agency:agency_language"), {"language": "en-gb", "advocate_title": "advocate"}
    )
    assert "<td>Advocate</td>" in admin.get(reverse("agency:staff_list")).content.decode()
