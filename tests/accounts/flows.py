"""Signing in the way a person does: password form, then second factor."""

from __future__ import annotations

from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests import factories as f


def password_login(client, username: str, password: str = f.PASSWORD, ip: str = "127.0.0.1"):
    return client.post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=ip,
    )


def code_for(device: TOTPDevice) -> str:
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return f"{totp.token():0{device.digits}d}"


def enrolled(user) -> TOTPDevice:
    return TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
