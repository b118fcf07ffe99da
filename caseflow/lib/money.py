"""Amounts of money as a person reads them: in their language's number format, with the
currency's sign or code (Unicode CLDR, through Babel). Amounts are ``Decimal``, never floats."""

from __future__ import annotations

from decimal import Decimal

from babel.core import UnknownLocaleError
from babel.numbers import format_currency
from django.utils import translation


def money(amount: Decimal, currency: str) -> str:
    """``Decimal("85.5"), "GBP"`` → "£85.50" (en-gb), "85,50 GBP" (es)."""
    locale = translation.to_locale(translation.get_language() or "en")
    try:
        return format_currency(amount, currency, locale=locale)
    except (UnknownLocaleError, ValueError):
        return format_currency(amount, currency, locale="en")
