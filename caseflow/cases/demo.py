"""Demo data for languages: Riverside is a UK agency (en-GB: "consent to share", 999), Hillview a
US one (en-US: "release of information", 911), and Hillview's Jo reads caseflow in Spanish.
Some survivors speak other languages: one needs a Polish interpreter, one a Spanish one, one
reads large print and uses British Sign Language."""

from __future__ import annotations

from caseflow.accounts.models import Agency, User
from caseflow.cases.language import set_agency_language, set_user_language
from caseflow.cases.models import Party, PartyRole

SPANISH_ADVOCATE = "jo.advocate"


def _survivor(case) -> Party:
    party = Party.objects.get(case=case, role=PartyRole.SURVIVOR)
    party.case = case
    return party


def seed_demo(context) -> None:
    set_agency_language(Agency.objects.get(slug="riverside").pk, "en-gb")
    set_agency_language(Agency.objects.get(slug="hillview").pk, "en-us")
    set_user_language(User.objects.get(username=SPANISH_ADVOCATE), "es")
    riverside = [c for c in context.cases if c.agency.slug == "riverside"]
    hillview = [c for c in context.cases if c.agency.slug == "hillview"]
    needs: list[tuple[object, dict[str, object]]] = []
    if riverside:
        needs.append((riverside[0], {"languages": "pl,en", "interpreter_language": "pl"}))
    if len(riverside) > 3:
        needs.append((riverside[3], {"communication_needs": ["sign_language", "large_print"]}))
    if hillview:
        needs.append(
            (
                hillview[0],
                {
                    "languages": "es",
                    "interpreter_language": "es",
                    "access_needs": "Step-free access; a quiet room (fictional).",
                },
            )
        )
    for case, values in needs:
        party = _survivor(case)
        for name, value in values.items():
            setattr(party, name, value)
        party.save()
