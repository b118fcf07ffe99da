"""The timeline's entries written by their tag: every value escaped, safe text kept as it is."""

import datetime as dt

from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from caseflow.cases.templatetags.timeline_entries import timeline_entries
from caseflow.cases.timeline import Entry
from caseflow.lib.i18n import gettext_lazy as _

AT = dt.datetime(2026, 3, 1, 12, 5, tzinfo=dt.UTC)


def test_every_value_is_escaped_and_safe_text_is_kept():
    rows = [
        {
            "entry": Entry(
                at=AT,
                kind="note",
                key="000000000001",
                title="<b>Tom & 'Jo'</b>",
                body='Said "<script>alert(1)</script>" {0} %s',
                url='/cases/x/?a=1&b="2"',
                facts=((_("How"), "<i>call</i>"), ("Left", "")),
                approximate=True,
            ),
            "label": _("Case notes"),
        },
        {
            "entry": Entry(
                at=AT,
                kind="release",
                key="000000000002",
                title=mark_safe("<em>x</em>"),
                date_only=True,
            ),
            "label": "A & B",
        },
    ]
    with translation.override("en"):
        out = timeline_entries(rows)
    assert isinstance(out, SafeString)
    assert "<script>" not in out and "<b>" not in out and "<i>" not in out
    assert "&lt;b&gt;Tom &amp; &#x27;Jo&#x27;&lt;/b&gt;" in out
    assert "Said &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; {0} %s" in out
    assert '<a href="/cases/x/?a=1&amp;b=&quot;2&quot;">' in out
    assert "<dt>How</dt><dd>&lt;i&gt;call&lt;/i&gt;</dd>" in out
    assert "<dt>Left</dt><dd>—</dd>" in out
    assert "(approximate) · Case notes" in out and "· A &amp; B" in out
    assert "<em>x</em>" in out
    assert '<time datetime="2026-03-01T12:05:00+00:00">' in out
    assert out.count('<li class="timeline-entry') == 2


def test_labels_are_written_in_the_readers_language():
    rows = [{"entry": Entry(at=AT, kind="note", key="1", title=_("Review")), "label": _("Review")}]
    with translation.override("es"):
        out = timeline_entries(rows)
    with translation.override("en"):
        english = timeline_entries(rows)
    assert "Review" in english and "Review" not in out


#: How the timeline's template wrote the kind filter's boxes before the tag did.
_KIND_LOOP = (
    "{% for choice in form.kind %}\n"
    '    <div class="form-check form-check-inline"><input type="checkbox" '
    'name="{{ choice.data.name }}" value="{{ choice.data.value }}" class="form-check-input" '
    'id="{{ choice.id_for_label }}"{% if choice.data.selected %} checked{% endif %}>'
    '<label class="form-check-label" for="{{ choice.id_for_label }}">'
    "{{ choice.choice_label }}</label></div>\n"
    "    {% endfor %}"
)


def test_the_kind_boxes_are_the_markup_the_template_loop_wrote():
    from django.template import engines
    from django.utils.html import escape

    from caseflow.cases import timeline
    from caseflow.cases.forms import TimelineFilterForm

    loop = engines["django"].from_string(_KIND_LOOP)
    tag = engines["django"].from_string(
        "{% load timeline_entries %}{% timeline_kind_boxes form.kind %}"
    )
    sources = timeline.registered_sources()
    kinds = [s.kind for s in sources]
    forms = [
        TimelineFilterForm(None, sources=sources),
        TimelineFilterForm({"kind": kinds[:2]}, sources=sources),
        TimelineFilterForm({"kind": [kinds[-1], "no_such_kind"]}, sources=sources),
        TimelineFilterForm({"kind": kinds[3:4]}, sources=sources, prefix="p<&>"),
    ]
    for language in ("en-gb", "es", "en-us"):
        with translation.override(language):
            for form in forms:
                form.is_valid()
                written = tag.render({"form": form})
                assert written == loop.render({"form": form})
                assert written.count("<input") == len(kinds)
    assert " checked>" in tag.render({"form": forms[1]})
    assert escape("p<&>-kind") in tag.render({"form": forms[3]})
