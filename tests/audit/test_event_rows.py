"""The audit events table's rows, written by a tag: the very markup the template wrote, in every
language and time zone, with and without the people's links and the case column."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import engines
from django.utils import timezone, translation

from caseflow.audit.models import AuditEvent

pytestmark = pytest.mark.django_db

#: The table's loop as the template wrote it before the tag.
WRITTEN = (
    "{% load i18n audit_words %}{% for event in events %}"
    "\n"
    "    <tr>\n"
    '      <td><time datetime="{{ event.at|date:\'c\' }}">{{ event.at|date:"DATETIME_FO'
    'RMAT" }}</time></td>\n'
    "      <td>{% if event.actor %}{% if link_people %}<a href=\"{% url 'audit:user' e"
    'vent.actor_id %}">{{ event.actor.get_full_name|default:event.actor.username }}</'
    "a>{% else %}{{ event.actor.get_full_name|default:event.actor.username }}{% endif"
    ' %}{% else %}<em>{% translate "system" %}</em>{% endif %}</td>\n'
    "      <td>{{ event.actor_role|role_label }}</td>\n"
    "      <td>{{ event.action|action_label }}</td>\n"
    "      {% if not hide_case %}<td>{% if event.case_public_id %}<a href=\"{% url 'au"
    "dit:case' event.case_public_id %}\">{{ event.case_reference }}</a>{% else %}{{ ev"
    'ent.case_reference|default:"—" }}{% endif %}</td>{% endif %}\n'
    '      <td>{{ event.object_type|object_words|default:"—" }}</td>\n'
    '      <td class="small text-break">{% for phrase in event|event_details %}<span '
    'class="me-2">{% if phrase.label_is_code %}<code>{{ phrase.label }}</code>{% else'
    " %}{{ phrase.label }}{% endif %}{% if phrase.parts %}: {% for text, machine in p"
    "hrase.parts %}{% if machine %}<code>{{ text }}</code>{% else %}{{ text }}{% endi"
    "f %}{% endfor %}{% endif %}</span>{% endfor %}</td>\n"
    '      <td class="small">{{ event.ip }}</td>\n'
    "    </tr>\n"
    "  "
    "{% endfor %}"
)
TAG = "{% load audit_words %}{% audit_event_rows events link_people hide_case %}"


def _events(cast) -> list[AuditEvent]:
    at = dt.datetime(2026, 3, 29, 0, 59, 30, 123456, tzinfo=dt.UTC)  # as UK clocks change
    cast.assigned.first_name, cast.assigned.last_name = "Ana <b>", "O'Brien & co"
    cast.assigned.save()
    rows = [
        dict(actor=cast.assigned, actor_role="advocate", action="case.view", ip="10.0.0.1"),
        dict(actor=None, actor_role="", action="checkin.sweep", ip=""),
        dict(
            actor=cast.supervisor,
            actor_role="supervisor",
            action="case.update",
            object_type="user",
            detail={"fields": ["phone", "email"], "cases": [1, 2, 3], "odd_key": "x<y"},
            ip="2001:db8::1",
        ),
        dict(actor=cast.same_team, actor_role="nonsense", action="no.such", detail={"n": 1234}),
        dict(actor=cast.auditor, actor_role="auditor", action="audit.export", detail=[1]),
    ]
    events = []
    for n, fields in enumerate(rows):
        event = AuditEvent(at=at + dt.timedelta(hours=5 * n), **fields)
        event.case_public_id = cast.case.public_id if n % 2 == 0 else None
        event.case_reference = ("CASE-<1>" if n % 2 == 0 else ["", None][n // 2 % 2]) or ""
        events.append(event)
    gone = AuditEvent(at=at, actor_id=987654321, action="case.view")  # a person since removed
    gone.case_public_id, gone.case_reference = None, None
    unlabelled = AuditEvent(at=at, actor=cast.assigned, action="case.view")  # no case words
    return [*events, gone, unlabelled]


def test_the_tag_writes_what_the_template_wrote(cast):
    events = _events(cast)
    django = engines["django"]
    written, tag = django.from_string(WRITTEN), django.from_string(TAG)
    seen = set()
    for language in ("en-gb", "en-us", "es"):
        for zone in ("Europe/London", "America/Chicago"):
            for link_people in (True, False):
                for hide_case in (True, False):
                    context = {"events": events, "link_people": link_people}
                    if hide_case:
                        context["hide_case"] = True
                    with translation.override(language), timezone.override(zone):
                        expected = written.render(context)
                        assert tag.render(context) == expected
                    seen.add(expected)
    assert len(seen) == 3 * 2 * 2 * 2
    assert "Ana &lt;b&gt; O&#x27;Brien &amp; co" in expected
    assert f'href="/audit/cases/{cast.case.public_id}/"' in expected  # the last shows it
    assert "<em>sistema</em>" in expected  # the last is in Spanish
