"""``get_FOO_display()`` with each field's table of labels built once.

Django's ``Model._get_FIELD_display`` builds a dictionary of the field's choices on every call,
hashing each label on the way, and a label is a lazy translation: every call looks every label
of the field up in the catalogs. A case page asks some thirty times (each check-in's status,
outcome and channel, each person's role). :class:`ChoiceLabels` keeps the dictionary on the
field the first time; its labels stay lazy, so each answer is still in the language active when
it is asked. A field whose choices are computed (a callable) is looked up Django's way.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.encoding import force_str
from django.utils.hashable import make_hashable

#: The attribute of a field holding its labels by value.
_KEPT = "_caseflow_choice_labels"


def _labels(field: models.Field[Any, Any]) -> dict[Any, Any]:
    labels = field.__dict__.get(_KEPT)
    if labels is None:
        labels = dict(make_hashable(field.flatchoices))
        if isinstance(field.choices, (list, tuple)):  # fixed choices only
            field.__dict__[_KEPT] = labels
    return labels


class ChoiceLabels:
    """Model mixin (before ``models.Model``): the label of a field's value as Django's
    ``get_FOO_display()`` gives it, from the field's labels kept."""

    def _get_FIELD_display(self, field: models.Field[Any, Any]) -> Any:
        value = getattr(self, field.attname)
        return force_str(_labels(field).get(make_hashable(value), value), strings_only=True)
