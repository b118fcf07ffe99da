"""The languages a person speaks or signs: the curated ISO 639-3 list, its Spanish names, finding
a language in the form, "Other (say which)", and codes recorded before the list."""

from __future__ import annotations

import pycountry
import pytest
from django.db import connection
from django.urls import reverse
from django.utils import translation

from caseflow.cases.forms import PartyForm
from caseflow.cases.models import Party, PartyRole
from caseflow.lib import spoken_languages as langs
from tests import factories as f

pytestmark = pytest.mark.django_db

NEEDED = {
    # ISO 639-3 -> the stored code (ISO 639-1 where there is one)
    "bfi": "bfi",
    "ase": "ase",
    "ssp": "ssp",
    "som": "so",
    "tir": "ti",
    "pus": "ps",
    "prs": "prs",
    "guj": "gu",
    "tgl": "tl",
    "yue": "yue",
    "pol": "pl",
    "spa": "es",
    "eng": "en",
}


def test_the_list_is_real_iso_639_3_languages_with_the_ones_agencies_meet():
    by_iso = {item.iso639_3: item for item in langs.CURATED}
    assert len(by_iso) == len(langs.CURATED) > 100
    for iso, code in NEEDED.items():
        assert by_iso[iso].code == code, iso
    for item in langs.CURATED:
        found = pycountry.languages.get(alpha_3=item.iso639_3)
        assert found is not None, item.iso639_3
        assert item.code == getattr(found, "alpha_2", item.iso639_3)
    signed = {item.iso639_3 for item in langs.CURATED if item.signed}
    assert {"bfi", "ase", "ssp"} <= signed
    # Django's interface languages that nobody is served in are gone.
    codes = {code for code, _name in langs.choices()}
    assert not {"eo", "io", "ia"} & codes
    assert langs.OTHER in codes


def test_every_language_has_a_name_in_english_and_spanish():
    for language in ("en", "en-gb", "es"):
        with translation.override(language):
            choices = langs.choices()
            assert len(choices) == len(langs.CURATED) + 1
            for code, name in choices:
                assert name and name != code, (language, code)


@pytest.mark.parametrize(
    ("code", "english", "spanish"),
    [
        ("so", "Somali", "Somalí"),
        ("ti", "Tigrinya", "Tigriña"),
        ("ps", "Pashto", "Pastún"),
        ("prs", "Dari", "Darí"),
        ("gu", "Gujarati", "Guyaratí"),
        ("tl", "Tagalog", "Tagalo"),
        ("yue", "Cantonese", "Cantonés"),
        ("bfi", "British Sign Language (BSL)", "Lengua de signos británica (BSL)"),
        ("ase", "American Sign Language (ASL)", "Lengua de signos americana (ASL)"),
        ("ssp", "Spanish Sign Language (LSE)", "Lengua de signos española (LSE)"),
    ],
)
def test_names_in_english_and_spanish(code, english, spanish):
    with translation.override("en-gb"):
        assert langs.name_of(code) == english
    with translation.override("es"):
        assert langs.name_of(code) == spanish


def test_the_list_is_in_alphabetical_order_for_its_reader_with_other_last():
    with translation.override("es"):
        names = [name for _code, name in langs.choices()]
    assert names[-1] == "Otro (di cuál)"
    assert names.index("Árabe") < names.index("Búlgaro")  # an accent does not move it to the end
    assert names[:-1] == sorted(names[:-1], key=langs.sort_key)


def test_codes_recorded_before_the_list_still_show_and_stay_choosable():
    with translation.override("en-gb"):
        assert langs.name_of("eo") == "Esperanto"
        assert langs.name_of("zh-hans") == "Simplified Chinese"
        assert langs.name_of("xx-unknown") == "xx-unknown"
        assert ("eo", "Esperanto") in langs.choices(["eo"])
    form = PartyForm(
        {"role": PartyRole.SURVIVOR, "full_name": "Ana Ejemplo", "languages": ["eo", "pl"]},
        roles=[(PartyRole.SURVIVOR, "Survivor")],
        initial={"languages": ["eo", "pl"]},
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["languages"] == "eo,pl"


def test_a_language_is_found_by_its_names_in_several_languages():
    with translation.override("es"):
        words = langs.search_attributes()
    assert {"somalí", "somali", "soomaali"} <= set(words["so"].split())
    assert "dari" in words["prs"] and "darí" in words["prs"]
    assert "british" in words["bfi"] and "británica" in words["bfi"]
    assert "cantonese" in words["yue"] and "yue chinese" in words["yue"]


def test_the_form_carries_the_search_for_the_pages_script(cast, login):
    party = f.add_party(cast.case, full_name="Ana Ejemplo")
    url = reverse("cases:party_edit", args=[cast.case.public_id, party.public_id])
    page = login(cast.assigned).get(url).content.decode()
    assert page.count("data-language-filter=") == 2
    assert 'value="so" data-search="so som somali soomaali"' in page
    assert 'value="mis"' in page and "Other (say which)" in page
    assert "<script>" not in page  # the filter is the site's own script file (CSP)


def _survivor(case) -> Party:
    party = Party.objects.filter(case=case, role=PartyRole.SURVIVOR).first()
    return party or f.add_party(case, full_name="Ana Ejemplo")


def test_other_language_must_say_which_and_is_stored_encrypted_and_shown(cast, login):
    party = _survivor(cast.case)
    client = login(cast.assigned)
    url = reverse("cases:party_edit", args=[cast.case.public_id, party.public_id])
    data = {
        "role": PartyRole.SURVIVOR,
        "full_name": "Ana Ejemplo",
        "languages": ["mis", "en"],
        "interpreter_language": "mis",
        "interpreter_independent": "on",
    }
    refused = client.post(url, data)
    assert refused.status_code == 200
    assert "Say which language" in refused.content.decode()
    response = client.post(url, {**data, "other_language": "Fula (Pular)"})
    assert response.status_code == 302
    saved = Party.objects.get(pk=party.pk)
    assert saved.languages == "mis,en" and saved.interpreter_language == "mis"
    with connection.cursor() as cursor:
        cursor.execute("SELECT other_language FROM cases_party WHERE id = %s", [party.pk])
        (raw,) = cursor.fetchone()
    assert "Pular" not in raw
    page = client.get(reverse("cases:detail", args=[cast.case.public_id])).content.decode()
    assert "Interpreter needed: Fula (Pular)" in page
    # Choosing a listed language again drops the words for "Other".
    client.post(url, {**data, "languages": ["so"], "interpreter_language": "so"})
    saved = Party.objects.get(pk=party.pk)
    saved.case = cast.case
    assert saved.languages == "so" and not saved.other_language


def test_intake_offers_the_list_and_other(cast, login):
    client = login(cast.assigned)
    data = {
        "team": cast.team1.pk,
        "survivor_full_name": "Rae Example",
        "survivor_language": "mis",
    }
    refused = client.post(reverse("cases:new"), data)
    assert refused.status_code == 200 and "Say which language" in refused.content.decode()
    response = client.post(reverse("cases:new"), {**data, "survivor_other_language": "Mixteco"})
    assert response.status_code == 302
    party = Party.objects.get(role=PartyRole.SURVIVOR, case__reference__startswith="CF-")
    party.case = party.case
    assert party.languages == "mis" and party.other_language == "Mixteco"
