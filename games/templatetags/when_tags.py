"""Dates and times in one style per language, in the member's time zone.

``{{ moment|when }}`` — near moments as people say them ("in 5 h", "3 h ago", "in 2 days"),
farther ones as a short date ("Thu 3 Dec, 17:36"); the exact time is always in the ``<time>``
element's ``datetime`` and ``title``. ``{{ deadline|until_when }}`` — both: "Thu 3 Dec, 17:36 ·
in 5 h", for deadlines. ``{{ moment|on_date }}`` — always the date, for "since …". The date
formats are translated strings (``pgettext`` "date format", Django's date format letters) given
to Django's ``date_format``, so each language has one style; the page's JavaScript counts down
with the same words as :func:`relative` (:func:`relative_words`, the game page's). The markup
is the Jinja2 templates' ``games/dates/time.html`` and ``games/dates/deadline.html`` (the
``jinja2`` engine's, templates/jinja2/), for the Django templates' pages and the table's Jinja2
ones alike.

The active time zone is the member's: ``PlayerTimezoneMiddleware`` sets it for pages, and the
consumer for pushed fragments.
"""

from __future__ import annotations

import json
from datetime import datetime

from django import template
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext, pgettext

register = template.Library()

NEAR_HOURS = 48
NEAR_DAYS = 10
# Polish and Portuguese write weekdays and months in lower case inside a sentence ("até qua, 2
# de dez"); Django's names are capitalised, as a calendar's headings would be. (Polish leaves
# the weekday out: after "do" it would need the genitive, which Django's names do not have.)
LOWER_CASE_DATES = ("pl", "pt")
# The markup's templates (the jinja2 engine's), by the filters' kind of date.
TEMPLATES = {"time": "games/dates/time.html", "deadline": "games/dates/deadline.html"}


def absolute(moment: datetime) -> str:
    """ "Thu 3 Dec, 17:36" (with the year when it is not this year), in the member's zone."""
    local = timezone.localtime(moment)
    if local.year == timezone.localtime().year:
        # Translators: a date and time, as Django's date filter spells it (php-style letters).
        fmt = pgettext("date format", "D j M, H:i")
    else:
        # Translators: a date and time in another year (Django's date filter letters).
        fmt = pgettext("date format", "j M Y, H:i")
    text = date_format(local, fmt)
    if (get_language() or "").split("-")[0] in LOWER_CASE_DATES:
        text = text.lower()
    return text


def relative(moment: datetime, now: datetime | None = None) -> str | None:
    """ "in 5 h" / "3 h ago" / "in 2 days", or None when it is too far to say so."""
    seconds = (moment - (now or timezone.now())).total_seconds()
    future = seconds >= 0
    minutes = int(abs(seconds) // 60)
    if minutes < 1:
        return gettext("now")
    if minutes < 60:
        return (gettext("in %(minutes)s min") if future else gettext("%(minutes)s min ago")) % {
            "minutes": minutes
        }
    hours = minutes // 60
    if hours < NEAR_HOURS:
        if hours < 10 and minutes % 60 and future:
            return gettext("in %(hours)s h %(minutes)s min") % {
                "hours": hours,
                "minutes": minutes % 60,
            }
        return (gettext("in %(hours)s h") if future else gettext("%(hours)s h ago")) % {
            "hours": hours
        }
    days = hours // 24
    if days < NEAR_DAYS:
        if future:
            return ngettext("in %(days)s day", "in %(days)s days", days) % {"days": days}
        return ngettext("%(days)s day ago", "%(days)s days ago", days) % {"days": days}
    return None


def _render(kind: str, moment: datetime, exact: str, text: str | None, **extra) -> SafeString:
    """The markup, safe in both engines (the Jinja2 backend returns a plain ``str``)."""
    context = {"iso": moment.isoformat(), "exact": exact, "text": text, **extra}
    html = render_to_string(TEMPLATES[kind], context, using="jinja2")
    return mark_safe(html)  # noqa: S308 (the template's markup, its values escaped)


@register.filter
def when(moment: datetime | None) -> str:
    """A moment as near words or a short date, in a ``<time>`` element."""
    if not isinstance(moment, datetime):
        return ""
    exact = absolute(moment)
    return _render("time", moment, exact, relative(moment) or exact)


@register.filter
def on_date(moment: datetime | None) -> str:
    """A moment as a short date and time, for "since …" ("since Thu 3 Dec, 17:36")."""
    if not isinstance(moment, datetime):
        return ""
    exact = absolute(moment)
    return _render("time", moment, exact, exact)


@register.filter
def until_when(moment: datetime | None) -> str:
    """A deadline: its date and how long is left ("Thu 3 Dec, 17:36 · in 5 h"), or only its
    date when it is too far to say; the time left counts down on the game page
    (static/js/game.js)."""
    if not isinstance(moment, datetime):
        return ""
    return _render("deadline", moment, absolute(moment), relative(moment), countdown=True)


def relative_words() -> str:
    """The words ``relative`` uses, as JSON for the page's countdown (one style everywhere)."""
    return json.dumps(
        {
            "now": gettext("now"),
            "min": gettext("in %(minutes)s min"),
            "h": gettext("in %(hours)s h"),
            "hmin": gettext("in %(hours)s h %(minutes)s min"),
            "over": gettext("time is up"),
        }
    )
