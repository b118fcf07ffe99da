"""Script tags typed into intake and people forms come back escaped on the case page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from caseflow.cases.models import Party, PartyRole

pytestmark = pytest.mark.django_db

PAYLOADS = [
    "<script>alert('x')</script>",
    '"><img src=x onerror=alert(1)>',
    "</textarea><script>document.cookie</script>",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_intake_and_party_input_is_escaped_on_the_case_page(payload, cast, login):
    client = login(cast.assigned)
    response = client.post(
        reverse("cases:new"),
        {
            "team": cast.team1.pk,
            "risk_level": "medium",
            "reference": "XSS-1",
            "summary": f"summary {payload}",
            "survivor_full_name": f"Survivor {payload}",
            "other_full_name": f"Other {payload}",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    case_url = response["Location"]
    public_id = case_url.rstrip("/").split("/")[-1]
    response = client.post(
        reverse("cases:party_new", args=[public_id]),
        {"role": "child", "full_name": f"Child {payload}", "notes": payload, "phone": payload[:40]},
    )
    assert response.status_code == 302
    page = client.get(case_url).content.decode()
    assert payload not in page
    assert "&lt;script&gt;" in page or "&quot;&gt;&lt;img" in page or "&lt;/textarea&gt;" in page
    assert "onerror=alert(1)>" not in page
    child = Party.objects.get(case__public_id=public_id, role=PartyRole.CHILD)
    for form_page in (
        reverse("cases:edit", args=[public_id]),
        reverse("cases:party_edit", args=[public_id, child.public_id]),
    ):
        response = client.get(form_page)
        assert response.status_code == 200
        assert payload not in response.content.decode()
