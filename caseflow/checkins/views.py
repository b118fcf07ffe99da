"""Check-in pages. Each view: resolve the case through policy → bind the form → call a service →
redirect (or, for htmx, return the updated row). Reads of case content are audited here."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST
from icalendar import Calendar, Event

from caseflow import policy
from caseflow.accounts import zones
from caseflow.accounts.http import AuthenticatedRequest
from caseflow.audit.services import record
from caseflow.cases import contact
from caseflow.cases.calendar import PER_SOURCE as CALENDAR_PER_SOURCE
from caseflow.cases.calendar import registered_sources as calendar_sources
from caseflow.cases.models import Case, Channel
from caseflow.cases.pages import case_page
from caseflow.cases.today import staff_zone
from caseflow.checkins import proposals as checkin_proposals
from caseflow.checkins import safe_times, selectors, services
from caseflow.checkins.forms import (
    CheckInForm,
    FollowUpForm,
    OutcomeForm,
    ProposalsForm,
    SafeContactForm,
    repeat_words_data,
)
from caseflow.checkins.models import CheckInOutcome, CheckInStatus
from caseflow.inbox import selectors as inbox_selectors
from caseflow.inbox import services as inbox_services
from caseflow.lib import softcache, weekly_windows
from caseflow.lib.concurrency import StaleEdit
from caseflow.lib.i18n import gettext_lazy as _


def _casework_only(request: HttpRequest) -> None:
    if policy.active_role(request.user) not in policy.CASEWORK_ROLES:
        raise PermissionDenied


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _back(request: HttpRequest, case) -> HttpResponse:
    if request.POST.get("next") == "home":
        return redirect("checkins:home")
    if request.POST.get("next") == "dashboard":
        return redirect("dashboard")
    return redirect("cases:detail", case.public_id)


@login_required
@require_http_methods(["GET"])
def home(request: AuthenticatedRequest) -> HttpResponse:
    _casework_only(request)
    context = selectors.advocate_dashboard(request.user)
    shown = {r.case_id for key in ("today", "overdue", "upcoming") for r in context[key]}
    shown |= {f.case_id for f in context["followups"]}
    record("checkins.dashboard.view", actor=request.user, detail={"cases": sorted(shown)})
    context["outcomes"] = CheckInOutcome.choices
    context["staff_zone"] = staff_zone().key
    # Outcomes are recorded once a check-in is (nearly) due: later ones offer none yet.
    context["outcome_until"] = context["now"] + services.OUTCOME_EARLIEST
    return render(request, "checkins/home.html", context)


@login_required
@require_http_methods(["GET"])
def notifications(request: AuthenticatedRequest) -> HttpResponse:
    """The user's notifications, unread first, repeats folded together. Opening one marks it
    read; so does "Mark all as read"; and a notification whose work is done clears itself."""
    items = inbox_selectors.in_app_notifications(request.user)
    return render(
        request,
        "checkins/notifications.html",
        {
            "groups": inbox_selectors.grouped(items),
            "any_unread": any(n.read_at is None for n in items),
        },
    )


@login_required
@require_http_methods(["GET"])
def notification_open(request: AuthenticatedRequest, notification_id: int) -> HttpResponse:
    note = inbox_selectors.notification_for(request.user, notification_id)
    if note is None:
        raise Http404
    # Its repeats (same words and link) are read along with it.
    same = inbox_selectors.in_app_notifications(request.user)
    inbox_services.notifications_mark_read(
        user=request.user,
        ids=[n.pk for n in same if (n.kind, n.text, n.link) == (note.kind, note.text, note.link)]
        + [note.pk],
    )
    link = note.link or ""
    if link.startswith("/") and not link.startswith("//"):
        return redirect(link)
    return redirect("checkins:notifications")


@login_required
@require_POST
def notifications_read_all(request: AuthenticatedRequest) -> HttpResponse:
    count = inbox_services.notifications_mark_all_read(user=request.user)
    if count:
        messages.success(
            request,
            ngettext(
                "%(count)s notification marked read.", "%(count)s notifications marked read.", count
            )
            % {"count": count},
        )
    return redirect("checkins:notifications")


def _checkin_form_context(case):
    profile = services.profile_for(case)
    return {
        "tz": profile.timezone if profile else zones.current().key,
        "channels": profile.channels if profile else [],
        "profile": profile,
    }


def _with_next_slot(request: HttpRequest, profile, channels: list[str], now: dt.datetime):
    """The form's values as sent, with the date and time of the next safe slot (and a safe
    channel), and what to say about it."""
    post = request.POST
    initial: dict[str, object] = {
        name: post.get(name, "")[:40]
        for name in ("date", "time", "channel", "assignee", "repeat", "until")
    }
    initial["days"] = post.getlist("days")[:7]
    if profile is None:
        return initial, _(
            "This case has no safe-contact profile yet: record one before scheduling."
        )
    slot = contact.next_safe_slot(profile, now)
    if slot is None:
        return initial, _("There is no safe slot in the next two weeks.")
    local = slot.astimezone(ZoneInfo(profile.timezone))
    initial["date"] = local.date().isoformat()
    initial["time"] = local.strftime("%H:%M")
    if initial["channel"] not in channels and channels:
        initial["channel"] = next(c for c in Channel.values if c in channels)
    return initial, _("The next safe slot is filled in. Nothing is saved until you schedule it.")


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def checkin_new(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    extra = _checkin_form_context(case)
    assignees = selectors.case_assignees(case)
    initial: dict[str, object] = {"assignee": request.user.pk}
    for name in ("date", "time", "channel"):
        if request.GET.get(name):
            initial[name] = request.GET[name][:20]
    profile = extra["profile"]
    now = timezone.now()
    slot_note = ""
    if request.method == "POST" and "use_slot" in request.POST:
        # Fill in the next safe slot and show the form again: nothing is checked or saved yet.
        initial, slot_note = _with_next_slot(request, profile, extra["channels"], now)
        form = CheckInForm(
            initial=initial, assignees=assignees, tz=extra["tz"], channels=extra["channels"]
        )
    else:
        form = CheckInForm(
            request.POST or None,
            initial=initial,
            assignees=assignees,
            tz=extra["tz"],
            channels=extra["channels"],
        )
    offer = None
    if request.method == "POST" and "use_slot" not in request.POST and form.is_valid():
        d = form.cleaned_data
        due_local = dt.datetime.combine(d["date"], d["time"])
        twin = None
        if "confirm_duplicate" not in request.POST:
            twin = selectors.open_twin(case, d["channel"], services.to_utc(due_local, extra["tz"]))
        if twin is not None:
            when = twin.due_at.astimezone(ZoneInfo(extra["tz"]))
            form.warn_duplicate(
                _(
                    "A check-in by %(channel)s is already booked for %(when)s their time. "
                    "Nothing was saved: change the time, or schedule this one as well."
                )
                % {
                    "channel": twin.get_channel_display().lower(),
                    "when": date_format(when, "D j M, H:i"),
                }
            )
        else:
            try:
                with transaction.atomic():
                    services.checkin_schedule(
                        actor=request.user,
                        case=case,
                        due_local=due_local,
                        channel=d["channel"],
                        assignee=d["assignee"],
                        rule=d["rrule"],
                    )
            except services.UnsafeSlot as exc:
                form.add_error(None, exc.full_message())
                offer = exc.next_slot_local
            except ValidationError as exc:
                form.add_error(None, exc.messages[0])
            else:
                messages.success(request, _("Check-in scheduled."))
                return redirect("cases:detail", case.public_id)
    if request.method == "GET":
        record("case.view", actor=request.user, case=case, obj=case, detail={"page": "checkin_new"})
    return render(
        request,
        "checkins/checkin_form.html",
        {
            "form": form,
            "case": case,
            "offer": offer,
            "title": _("Schedule a check-in"),
            "safe_times": safe_times.safe_times(profile, now) if profile else None,
            "slot_note": slot_note,
            "repeat_words": form.words(),
            "repeat_words_data": repeat_words_data(),
            **extra,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def checkin_outcome(request: AuthenticatedRequest, case: Case, checkin_id: int) -> HttpResponse:
    checkin = selectors.checkin_for(case, checkin_id)
    form = OutcomeForm(request.POST or None, initial={"version": checkin.version})
    proposal = None
    done = False
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        reschedule = None
        if d.get("reschedule_date") and d.get("reschedule_time"):
            reschedule = dt.datetime.combine(d["reschedule_date"], d["reschedule_time"])
        try:
            with transaction.atomic():
                checkin, proposal, _new = services.checkin_record_outcome(
                    actor=request.user,
                    checkin=checkin,
                    expected_version=d["version"],
                    outcome=d["outcome"],
                    note=d["note"],
                    reschedule_local=reschedule,
                )
        except services.AlreadyRecorded:
            form.add_error(
                None,
                _("Someone recorded this check-in after you opened it. Nothing was saved."),
            )
        except services.UnsafeSlot as exc:
            form.add_error("reschedule_date", exc.full_message())
        except ValidationError as exc:
            form.add_error(None, exc.messages[0])
        else:
            done = True
            if proposal is None and not _is_htmx(request):
                messages.success(request, _("Outcome recorded."))
                return _back(request, case)
    elif request.method == "GET":
        record("case.view", actor=request.user, case=case, obj=checkin, detail={"page": "outcome"})
    proposal_local = None
    if proposal is not None:
        proposal_local = proposal.astimezone(ZoneInfo(_checkin_form_context(case)["tz"]))
    context = {
        "form": form,
        "case": case,
        "checkin": checkin,
        "done": done,
        "proposal": proposal_local,
        "outcomes": CheckInOutcome.choices,
        "title": _("Record the outcome"),
    }
    if _is_htmx(request):
        return render(request, "checkins/_outcome_result.html", context)
    return render(request, "checkins/outcome.html", context)


@login_required
@require_POST
@case_page("edit")
def checkin_cancel(request: AuthenticatedRequest, case: Case, checkin_id: int) -> HttpResponse:
    checkin = selectors.checkin_for(case, checkin_id)
    if checkin.status in (CheckInStatus.SCHEDULED, CheckInStatus.UNSAFE):
        services.checkin_cancel(
            actor=request.user,
            checkin=checkin,
            series=request.POST.get("series") == "1",
        )
        messages.success(request, _("Check-in cancelled."))
    else:
        messages.error(request, _("This check-in is no longer open."))
    return _back(request, case)


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def followup_edit(
    request: AuthenticatedRequest, case: Case, followup_id: int | None = None
) -> HttpResponse:
    followup = selectors.followup_for(case, followup_id) if followup_id is not None else None
    initial: dict = {"assignee": request.user.pk}
    if followup is not None:
        initial = {
            "kind": followup.kind,
            "due_at": followup.due_at,
            "details": followup.details,
            "assignee": followup.assignee_id,
            "version": followup.version,
        }
    form = FollowUpForm(
        request.POST or None, initial=initial, assignees=selectors.case_assignees(case)
    )
    if request.method == "POST" and form.is_valid():
        d = dict(form.cleaned_data)
        version = d.pop("version")
        try:
            with transaction.atomic():
                if followup is None:
                    services.followup_create(actor=request.user, case=case, **d)
                else:
                    services.followup_update(
                        actor=request.user,
                        followup=followup,
                        expected_version=version or 0,
                        data=d,
                    )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        except ValidationError as exc:
            form.add_error(None, exc.messages[0])
        else:
            messages.success(request, _("Follow-up saved."))
            return redirect("cases:detail", case.public_id)
    if request.method == "GET":
        record(
            "case.view",
            actor=request.user,
            case=case,
            obj=followup or case,
            detail={"page": "followup"},
        )
    return render(
        request,
        "checkins/followup_form.html",
        {
            "form": form,
            "case": case,
            "title": _("Edit follow-up") if followup else _("New follow-up"),
        },
    )


@login_required
@require_POST
@case_page("edit")
def followup_done(request: AuthenticatedRequest, case: Case, followup_id: int) -> HttpResponse:
    followup = selectors.followup_for(case, followup_id)
    together = [int(pk) for pk in request.POST.get("together", "").split(",") if pk.isdigit()]
    if together:
        changed = bool(
            services.followup_done_together(actor=request.user, followup=followup, ids=together)
        )
    else:
        changed = services.followup_done(actor=request.user, followup=followup)
    if _is_htmx(request):
        return render(
            request, "checkins/_followup_done.html", {"followup": followup, "changed": changed}
        )
    if changed:
        messages.success(request, _("Follow-up marked done. You can undo it for 10 minutes."))
    return _back(request, case)


@login_required
@require_POST
@case_page("edit")
def followup_undo(request: AuthenticatedRequest, case: Case, followup_id: int) -> HttpResponse:
    followup = selectors.followup_for(case, followup_id)
    reopen = (
        services.followup_reopen_together
        if request.POST.get("together")
        else services.followup_reopen
    )
    if reopen(actor=request.user, followup=followup):
        messages.success(request, _("Follow-up is open again."))
    else:
        messages.error(
            request, _("This can no longer be undone: open the follow-up again instead.")
        )
    return _back(request, case)


@login_required
@require_http_methods(["GET", "POST"])
def calendar(request: AuthenticatedRequest) -> HttpResponse:
    _casework_only(request)
    token = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            services.calendar_token_revoke(actor=request.user)
            messages.success(request, _("Calendar link revoked: it no longer works."))
            return redirect("checkins:calendar")
        token = services.calendar_token_create(actor=request.user)
    feed_url = request.build_absolute_uri(reverse("checkins:feed", args=[token])) if token else None
    return render(
        request,
        "checkins/calendar.html",
        {"feed_url": feed_url, "active": selectors.active_calendar_token(request.user)},
    )


def _rate_limited(key: str) -> bool:
    bucket = f"checkins:feed:{key}:{timezone.now():%Y%m%d%H}"
    return softcache.count(bucket, timeout=3600) > settings.CALENDAR_FEED_RATE_PER_HOUR


def _unlogged(response: HttpResponse) -> HttpResponse:
    """The feed's path holds a secret: keep it out of Django's 4xx request log."""
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


@require_http_methods(["GET"])
def feed(request: HttpRequest, token: str) -> HttpResponse:
    """The user's check-ins as iCalendar. Events carry only "Check-in · <reference>"; the
    events other parts add (:mod:`caseflow.cases.calendar`) a neutral title and the time."""
    found = selectors.calendar_user(token)
    if found is None:
        return _unlogged(HttpResponse(_("No such calendar"), status=404, content_type="text/plain"))
    row, user = found
    if _rate_limited(row.token_hash[:32]):
        record("calendar.rate_limited", actor=user, obj=row)
        return _unlogged(
            HttpResponse(_("Too many requests"), status=429, content_type="text/plain")
        )
    rows = selectors.feed_checkins(user)
    cal = Calendar()
    cal.add("prodid", "-//caseflow//check-ins//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", "caseflow check-ins")
    length = services.checkin_duration()
    stamp = timezone.now()
    for checkin in rows:
        event = Event()
        event.add("uid", f"checkin-{checkin.pk}@caseflow")
        event.add("dtstamp", stamp)
        event.add("dtstart", checkin.due_at)
        event.add("dtend", checkin.due_at + length)
        event.add("summary", f"Check-in · {checkin.case.reference}")
        cal.add_component(event)
    # Other parts' events (court hearings...): a neutral title and the time, no case data.
    others = [
        found
        for source in calendar_sources()
        for found in source.fetch(user, stamp - selectors.FEED_PAST, stamp + selectors.FEED_AHEAD)[
            :CALENDAR_PER_SOURCE
        ]
    ]
    for other in others:
        event = Event()
        event.add("uid", f"{other.uid}@caseflow")
        event.add("dtstamp", stamp)
        event.add("dtstart", other.starts_at)
        event.add("dtend", other.ends_at)
        event.add("summary", other.title)
        cal.add_component(event)
    services.calendar_token_used(row)
    record(
        "calendar.fetch",
        actor=user,
        obj=row,
        detail={
            "events": len(rows) + len(others),
            "cases": sorted({r.case_id for r in rows} | {o.case_id for o in others}),
        },
    )
    response = HttpResponse(cal.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "no-store, max-age=0"
    return response


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def safe_contact_edit(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    profile = getattr(case, "safe_contact", None) if hasattr(case, "safe_contact") else None
    initial = {}
    if profile is not None:
        profile.case = case
        initial = {
            "timezone": profile.timezone,
            "channels": profile.channels,
            **SafeContactForm.initial_windows(
                [weekly_windows.Window.from_dict(w) for w in profile.windows]
            ),
            "voicemail_safe": profile.voicemail_safe,
            "safe_phone": profile.safe_phone,
            "safe_email": profile.safe_email,
            "third_party": profile.third_party,
            "code_word": profile.code_word,
            "version": profile.version,
        }
    form = SafeContactForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            with transaction.atomic():
                services.safe_contact_save(
                    actor=request.user,
                    case=case,
                    expected_version=d["version"] if profile is not None else None,
                    timezone_name=d["timezone"],
                    rules={
                        "channels": d["channels"],
                        "windows": d["windows"],
                        "voicemail_safe": d["voicemail_safe"],
                    },
                    details={
                        k: d[k] for k in ("safe_phone", "safe_email", "third_party", "code_word")
                    },
                )
        except StaleEdit as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Safe-contact profile saved."))
            return redirect("cases:detail", case.public_id)
    if request.method == "GET":
        record(
            "case.view", actor=request.user, case=case, obj=case, detail={"page": "safe_contact"}
        )
    return render(
        request,
        "cases/case_form.html",
        {"form": form, "case": case, "title": _("Safe-contact profile")},
    )


@login_required
@require_http_methods(["GET", "POST"])
@case_page("edit")
def proposals(request: AuthenticatedRequest, case: Case) -> HttpResponse:
    """The check-ins proposed before her hard dates and after handovers, to confirm."""
    proposed = checkin_proposals.proposed_checkins(case)
    open_ones = [p for p in proposed if p.available]
    form = ProposalsForm(
        request.POST or None,
        choices=[(p.code, p.label) for p in open_ones],
        initial={"proposals": [p.code for p in open_ones]},
    )
    if request.method == "POST" and form.is_valid():
        added, problems = checkin_proposals.checkin_proposals_add(
            actor=request.user, case=case, codes=form.cleaned_data["proposals"]
        )
        if added:
            messages.success(
                request,
                ngettext("%(count)d check-in booked.", "%(count)d check-ins booked.", len(added))
                % {"count": len(added)},
            )
        for problem in problems:
            messages.warning(request, problem)
        if not added and not problems:
            messages.info(request, _("No check-in booked."))
        return redirect("checkins:proposals", case.public_id)
    return render(
        request,
        "checkins/proposals.html",
        {"case": case, "form": form, "proposed": proposed},
    )
