"""A phone number as a ``tel:`` link target, for the survivor's safe phone only."""

from __future__ import annotations

import re

from django import template

register = template.Library()

_KEPT = re.compile(r"[^0-9+]")


@register.filter
def tel_href(number: str) -> str:
    """``tel:`` and the number's digits (a leading ``+`` kept), or ``""`` when fewer than three
    digits are left: a link that dials nothing, or something else, is worse than none."""
    digits = _KEPT.sub("", number or "")
    plus = digits.startswith("+")
    digits = digits.replace("+", "")
    if len(digits) < 3:
        return ""
    return "tel:" + ("+" if plus else "") + digits
