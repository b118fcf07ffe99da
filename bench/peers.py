"""What caseflow is measured against, registered for benchmarks only (bench.urls).

* ``bench_site``: a throwaway Django AdminSite with Case registered the way an agency would set up
  the stock admin to work its cases. caseflow's real admin (``/operator/``) never registers case
  models; this site exists only while bench/run.py runs.
* ``ContactEventAdmin`` on the same site: the co-parenting contact log in the stock admin, newest
  first, 50 a page, filtered to one case in the query string (``?case__id__exact=``): the peer of
  the case timeline's first page.
* ``floor_dashboard``: the floor — the same middleware stack, one raw ORM query of the signed-in
  user's open cases and a minimal template; no policy, no audit write, no layout.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.template import Context, Template

from bench.audit_bench import audit_event_admin
from caseflow.agreements.models import ContactEvent
from caseflow.audit.models import AuditEvent
from caseflow.cases.models import Case, CaseStatus

bench_site = admin.AdminSite(name="bench_admin")
# The audit log in the stock admin, as in bench/audit_bench.py: the peer of "who accessed case X".
bench_site.register(AuditEvent, audit_event_admin())


@admin.register(Case, site=bench_site)
class CaseAdmin(admin.ModelAdmin):
    list_display = ("reference", "status", "risk_level", "team", "primary_advocate", "opened_at")
    # Needed for the changelist to accept ?team__id__exact= and ?primary_advocate__id__exact=.
    list_filter = ("status", "team", "primary_advocate")
    search_fields = ("reference",)


@admin.register(ContactEvent, site=bench_site)
class ContactEventAdmin(admin.ModelAdmin):
    # What the timeline shows of a contact without decrypting: when, how, who started it, review.
    list_display = ("occurred_at", "kind", "channel", "direction", "review", "agreement")
    ordering = ("-occurred_at", "-pk")
    list_per_page = 50


FLOOR_TEMPLATE = Template(
    "<table>{% for c in rows %}<tr><td><a href='/cases/{{ c.public_id }}/'>{{ c.reference }}</a>"
    "</td><td>{{ c.get_status_display }}</td><td>{{ c.get_risk_level_display }}</td>"
    "<td>{{ c.team.name }}</td><td>{{ c.primary_advocate.get_full_name }}</td></tr>"
    "{% endfor %}</table>"
)


@login_required
def floor_dashboard(request: HttpRequest) -> HttpResponse:
    rows = (
        Case.objects.filter(
            assignments__user=request.user,
            status__in=(CaseStatus.REFERRAL, CaseStatus.ACTIVE),
        )
        .select_related("team", "primary_advocate")
        .only(
            "public_id",
            "reference",
            "status",
            "risk_level",
            "team__name",
            "primary_advocate__first_name",
            "primary_advocate__last_name",
        )
        .order_by("-opened_at")
    )
    return HttpResponse(FLOOR_TEMPLATE.render(Context({"rows": rows})))
