"""The words a person reads for the contact checker's values: channels, directions, kinds of
contact and terms. Models, forms, packs and pages all take them from here."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.dates import WEEKDAYS
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext

from caseflow.agreements import terms
from caseflow.lib.i18n import gettext_lazy as _

CHANNEL_CHOICES = [
    (terms.Channel.APP, _("Co-parenting app")),
    (terms.Channel.EMAIL, _("E-mail")),
    (terms.Channel.TEXT, _("Text message")),
    (terms.Channel.PHONE, _("Phone call")),
    (terms.Channel.THIRD_PARTY, _("Via a named third party")),
    (terms.Channel.SOLICITOR, _("Via a solicitor")),
    (terms.Channel.IN_PERSON, _("In person")),
    (terms.Channel.SOCIAL_MEDIA, _("Social media")),
    (terms.Channel.OTHER, _("Other")),
]
CHANNEL_LABELS: dict[str, str] = dict(CHANNEL_CHOICES)
DIRECTION_CHOICES = [
    (terms.Direction.TO_SURVIVOR, _("Other parent → survivor")),
    (terms.Direction.FROM_SURVIVOR, _("Survivor → other parent")),
]
DIRECTION_LABELS: dict[str, str] = dict(DIRECTION_CHOICES)
KIND_CHOICES = [
    (terms.EventKind.MESSAGE, _("Message")),
    (terms.EventKind.CALL, _("Call")),
    (terms.EventKind.IN_PERSON, _("In person")),
    (terms.EventKind.HANDOVER, _("Handover of the children")),
    (terms.EventKind.CHILD_CONTACT, _("Contact with the children")),
]
KIND_LABELS: dict[str, str] = dict(KIND_CHOICES)
#: Terms an advocate can mark as broken (the effective period is not a term one can break).
TERM_LABELS = {
    terms.Term.FORBIDDEN_CHANNELS: _("Used a forbidden channel"),
    terms.Term.PERMITTED_CHANNELS: _("Used a channel that is not permitted"),
    terms.Term.TIME_WINDOWS: _("Outside the agreed contact times"),
    terms.Term.FREQUENCY_CAP: _("Over the frequency cap"),
    terms.Term.PERMITTED_TOPICS: _("About a topic that is not permitted"),
    terms.Term.HANDOVER: _("Broke the handover protocol"),
    terms.Term.CHILD_CONTACT_WINDOWS: _("Outside the child-contact times"),
}

#: What the checker found, by the code of each finding. A finding keeps the checker's own
#: sentence (written when the contact was logged, with its times and counts); this is the
#: finding in the reader's words.
FINDING_LABELS = {
    terms.Code.BEFORE_AGREEMENT: _("Before the agreement took effect"),
    terms.Code.AFTER_AGREEMENT: _("After the agreement ended"),
    terms.Code.FORBIDDEN_CHANNEL: TERM_LABELS[terms.Term.FORBIDDEN_CHANNELS],
    terms.Code.CHANNEL_NOT_PERMITTED: TERM_LABELS[terms.Term.PERMITTED_CHANNELS],
    terms.Code.OUTSIDE_WINDOW: TERM_LABELS[terms.Term.TIME_WINDOWS],
    terms.Code.OVER_CAP: TERM_LABELS[terms.Term.FREQUENCY_CAP],
    terms.Code.FORBIDDEN_TOPIC: TERM_LABELS[terms.Term.PERMITTED_TOPICS],
    terms.Code.HANDOVER_MISSED: _("The handover was missed"),
    terms.Code.HANDOVER_LATE: _("The handover was late, or not on an agreed day"),
    terms.Code.HANDOVER_DIRECT_CONTACT: _("Direct contact at the handover"),
    terms.Code.CHILD_CONTACT_OUTSIDE_WINDOW: TERM_LABELS[terms.Term.CHILD_CONTACT_WINDOWS],
}
_FROM_SURVIVOR = terms.Direction.FROM_SURVIVOR.value
#: The sentence kept for a term the advocate marked as broken that the checker had not found.
RECORDED_BY_ADVOCATE = "Recorded by the advocate."


def finding_label(finding: Mapping[str, Any]) -> str:
    """A stored finding (``{"term", "code"?, "message"}``) in the reader's words.

    The survivor's own contact is never described as breaking a term: it is what it is, contact
    outside what was agreed."""
    params = finding.get("params")
    if isinstance(params, Mapping) and params.get("direction") == _FROM_SURVIVOR:
        return str(_("Outside what was agreed"))
    by_code: dict[str, str] = {str(code): label for code, label in FINDING_LABELS.items()}
    by_term: dict[str, str] = {str(term): label for term, label in TERM_LABELS.items()}
    label = by_code.get(str(finding.get("code") or "")) or by_term.get(str(finding.get("term")))
    return str(label or _("Another term of the agreement"))


# --------------------------------------------------------------------------------------------------
# A finding's sentence in the reader's language, written at display time from the values the
# checker kept with it (``params``). A finding stored before those were kept, or whose values
# cannot be read, shows the checker's own English sentence as it was recorded.

_TO, _FROM = terms.Direction.TO_SURVIVOR.value, _FROM_SURVIVOR
_FORBIDDEN_CHANNEL = {
    _TO: _("Contact from the other parent by a channel the agreement forbids: %(channel)s."),
    _FROM: _(
        "The survivor got in touch outside what was agreed. Channel: %(channel)s. That is "
        "common; it may be worth talking about support for moments like this."
    ),
}
_CHANNEL_NOT_PERMITTED = {
    _TO: _(
        "Contact from the other parent by a channel the agreement does not permit: "
        "%(channel)s (permitted: %(permitted)s)."
    ),
    _FROM: _(
        "The survivor got in touch outside what was agreed. Channel: %(channel)s (the ways "
        "chosen: %(permitted)s). That is common; it may be worth talking about support for "
        "moments like this."
    ),
}
_OVER_CAP = {
    (_TO, "day"): _(
        "This was message number %(count)s from the other parent on %(date)s "
        "(%(timezone)s time); the agreement allows at most %(limit)s a day."
    ),
    (_TO, "week"): _(
        "This was message number %(count)s from the other parent in the week beginning "
        "%(date)s (%(timezone)s time); the agreement allows at most %(limit)s a week."
    ),
    (_FROM, "day"): _(
        "The survivor got in touch more often than agreed: message number %(count)s on "
        "%(date)s (%(timezone)s time), where %(limit)s a day was agreed. That is common; it may "
        "be worth talking about support for moments like this."
    ),
    (_FROM, "week"): _(
        "The survivor got in touch more often than agreed: message number %(count)s in the week "
        "beginning %(date)s (%(timezone)s time), where %(limit)s a week was agreed. That is "
        "common; it may be worth talking about support for moments like this."
    ),
}


def _date(iso: str) -> str:
    """An ISO date as the reader writes it, with its weekday."""
    day = dt.date.fromisoformat(iso)
    return gettext("%(weekday)s %(date)s") % {
        "weekday": WEEKDAYS[day.weekday()],
        "date": date_format(day),
    }


def _days(days: list[int]) -> str:
    if len(set(days)) == 7:
        return gettext("every day")
    return ", ".join(str(WEEKDAYS[day]) for day in sorted(days))


def _channel(code: str) -> str:
    return str(CHANNEL_LABELS[code])


def _windows(windows: list[dict[str, Any]]) -> str:
    return "; ".join(terms.Window.from_dict(window).describe() for window in windows)


def _before(p: Mapping[str, Any]) -> str:
    return gettext(
        "Happened at %(time)s on %(date)s, before this agreement took effect at "
        "%(start_time)s on %(start_date)s (%(timezone)s time); none of its terms applied yet."
    ) % {**p, "date": _date(p["date"]), "start_date": _date(p["start_date"])}


def _after(p: Mapping[str, Any]) -> str:
    return gettext(
        "Happened at %(time)s on %(date)s, after this agreement ended at %(end_time)s on "
        "%(end_date)s (%(timezone)s time); its terms no longer applied."
    ) % {**p, "date": _date(p["date"]), "end_date": _date(p["end_date"])}


def _forbidden_channel(p: Mapping[str, Any]) -> str:
    return str(_FORBIDDEN_CHANNEL[p["direction"]]) % {"channel": _channel(p["channel"])}


def _channel_not_permitted(p: Mapping[str, Any]) -> str:
    return str(_CHANNEL_NOT_PERMITTED[p["direction"]]) % {
        "channel": _channel(p["channel"]),
        "permitted": ", ".join(_channel(code) for code in p["permitted"]),
    }


def _outside_window(p: Mapping[str, Any]) -> str:
    return gettext(
        "%(kind)s at %(time)s on %(date)s (%(timezone)s time), outside the agreed contact "
        "times (%(windows)s)."
    ) % {
        "kind": KIND_LABELS[p["kind"]],
        "time": p["time"],
        "date": _date(p["date"]),
        "timezone": p["timezone"],
        "windows": _windows(p["windows"]),
    }


def _over_cap(p: Mapping[str, Any]) -> str:
    return str(_OVER_CAP[(p["direction"], p["per"])]) % {
        "count": int(p["count"]),
        "date": _date(p["start_date"]),
        "timezone": p["timezone"],
        "limit": int(p["limit"]),
    }


def _forbidden_topic(p: Mapping[str, Any]) -> str:
    permitted = ", ".join(str(topic) for topic in p["permitted"])
    if p["topic"]:
        return gettext(
            "Contact about “%(topic)s”, which is not a topic the agreement permits "
            "(permitted: %(permitted)s)."
        ) % {"topic": p["topic"], "permitted": permitted}
    return gettext(
        "Contact with no topic recorded, which is not a topic the agreement permits "
        "(permitted: %(permitted)s)."
    ) % {"permitted": permitted}


def _handover_missed(p: Mapping[str, Any]) -> str:
    values = {"place": p["place"], "date": _date(p["date"])}
    if p["place"]:
        return gettext("The handover at %(place)s due on %(date)s was missed.") % values
    return gettext("The handover due on %(date)s was missed.") % values


def _handover_direct_contact(p: Mapping[str, Any]) -> str:
    values = {"place": p["place"], "date": _date(p["date"])}
    if p["place"]:
        return (
            gettext(
                "The parents had direct contact at the handover at %(place)s on %(date)s, "
                "which the agreement rules out."
            )
            % values
        )
    return (
        gettext(
            "The parents had direct contact at the handover on %(date)s, which the agreement "
            "rules out."
        )
        % values
    )


def _minutes(count: int) -> str:
    return ngettext("%(count)s minute", "%(count)s minutes", count) % {"count": count}


def _handover_late(p: Mapping[str, Any]) -> str:
    values = {
        "place": p["place"],
        "time": p["time"],
        "date": _date(p["date"]),
        "timezone": p["timezone"],
        "agreed_time": p["agreed_time"],
    }
    if "agreed_days" in p:
        values["days"] = _days(p["agreed_days"])
        if p["place"]:
            words = gettext(
                "Handover at %(place)s at %(time)s on %(date)s (%(timezone)s time), which is "
                "not an agreed handover day (agreed: %(days)s at %(agreed_time)s)."
            )
        else:
            words = gettext(
                "Handover at %(time)s on %(date)s (%(timezone)s time), which is not an agreed "
                "handover day (agreed: %(days)s at %(agreed_time)s)."
            )
        return words % values
    values["minutes"] = _minutes(int(p["minutes"]))
    values["tolerance"] = _minutes(int(p["tolerance"]))
    if p["place"]:
        words = (
            gettext(
                "Handover at %(place)s at %(time)s on %(date)s (%(timezone)s time), "
                "%(minutes)s before the agreed time of %(agreed_time)s "
                "(allowed: %(tolerance)s either way)."
            )
            if p["early"]
            else gettext(
                "Handover at %(place)s at %(time)s on %(date)s (%(timezone)s time), "
                "%(minutes)s after the agreed time of %(agreed_time)s "
                "(allowed: %(tolerance)s either way)."
            )
        )
    else:
        words = (
            gettext(
                "Handover at %(time)s on %(date)s (%(timezone)s time), %(minutes)s before "
                "the agreed time of %(agreed_time)s (allowed: %(tolerance)s either way)."
            )
            if p["early"]
            else gettext(
                "Handover at %(time)s on %(date)s (%(timezone)s time), %(minutes)s after "
                "the agreed time of %(agreed_time)s (allowed: %(tolerance)s either way)."
            )
        )
    return words % values


def _child_contact_outside_window(p: Mapping[str, Any]) -> str:
    return gettext(
        "Contact with the children at %(time)s on %(date)s (%(timezone)s time), outside the "
        "agreed child-contact times (%(windows)s)."
    ) % {
        "time": p["time"],
        "date": _date(p["date"]),
        "timezone": p["timezone"],
        "windows": _windows(p["windows"]),
    }


_SENTENCES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    terms.Code.BEFORE_AGREEMENT: _before,
    terms.Code.AFTER_AGREEMENT: _after,
    terms.Code.FORBIDDEN_CHANNEL: _forbidden_channel,
    terms.Code.CHANNEL_NOT_PERMITTED: _channel_not_permitted,
    terms.Code.OUTSIDE_WINDOW: _outside_window,
    terms.Code.OVER_CAP: _over_cap,
    terms.Code.FORBIDDEN_TOPIC: _forbidden_topic,
    terms.Code.HANDOVER_MISSED: _handover_missed,
    terms.Code.HANDOVER_LATE: _handover_late,
    terms.Code.HANDOVER_DIRECT_CONTACT: _handover_direct_contact,
    terms.Code.CHILD_CONTACT_OUTSIDE_WINDOW: _child_contact_outside_window,
}


def finding_sentence(finding: Mapping[str, Any]) -> str:
    """A stored finding's sentence (``{"term", "code"?, "message", "params"?}``) in the reader's
    language; the stored English ``message`` when it has no values to write it from (stored
    before they were kept) or they cannot be read."""
    message = str(finding.get("message") or "")
    params = finding.get("params")
    write = _SENTENCES.get(str(finding.get("code") or ""))
    if write is None or not isinstance(params, Mapping) or not params:
        return message
    try:
        return write(params)
    except (KeyError, TypeError, ValueError, IndexError, terms.TermsError):
        return message
