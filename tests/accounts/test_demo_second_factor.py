"""The demo shows the second factor in use: one supervisor enrolled (secret and recovery codes
in the demo logins file), the other demo accounts exempt while the demo runs."""

from __future__ import annotations

import base64
import json

import pytest
from django.test import Client
from django.urls import reverse
from django_otp.oath import TOTP

from caseflow.accounts.models import CoalitionSeat, Membership
from caseflow.demo import seed
from tests.accounts.flows import password_login

pytestmark = pytest.mark.django_db


@pytest.mark.demo
def test_demo_seed_enrols_one_user_and_exempts_the_others(settings, tmp_path):
    logins = seed.seed()
    path = seed.write_logins(logins, tmp_path / "demo-users.json")
    data = {u["username"]: u for u in json.loads(path.read_text())}
    nadia = data["nadia.supervisor"]
    assert nadia["totp_secret"] and len(nadia["recovery_codes"]) == 10
    assert not Membership.objects.get(user__username="nadia.supervisor").demo_account
    exempt = Membership.objects.filter(demo_account=True).count()
    exempt += CoalitionSeat.objects.filter(demo_account=True).count()
    assert exempt == len(data) - 1

    settings.DEMO_MODE = True
    settings.EMBEDDED = True
    advocate = Client()
    password_login(advocate, "aisha.advocate", data["aisha.advocate"]["password"])
    assert advocate.get(reverse("dashboard")).status_code == 200

    # The coalition's person, in no agency, skips it too.
    coalition = Client()
    password_login(coalition, "una.coalition", data["una.coalition"]["password"])
    assert coalition.get(reverse("reporting:coalition")).status_code == 200

    supervisor = Client()
    password_login(supervisor, "nadia.supervisor", nadia["password"])
    assert supervisor.get(reverse("dashboard")).status_code == 302
    key = base64.b32decode(nadia["totp_secret"])
    code = f"{TOTP(key).token():06d}"
    response = supervisor.post(reverse("accounts:second_factor"), {"token": code})
    assert response.status_code == 302
    assert supervisor.get(reverse("dashboard")).status_code == 200
