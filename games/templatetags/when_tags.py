"""Dates and times in one style per language, in the member's time zone.

``{{ moment|when }}`` — near moments as people say them ("in 5 h", "3 h ago", "in 2 days"),
farther ones as a short date ("Thu 3 Dec, 17:36"); the exact time is always in the ``<time>``
element's ``datetime`` and ``title``. ``{{ deadline|until_when }}`` — both: "Thu 3 Dec, 17:36 ·
in 5 h", for deadlines. The formats are translated strings (``pgettext`` "date format"), so each
language has one style, and the page's JavaScript counts down with the same words
(``{% relative_words %}``).

The active time zone is the member's: ``PlayerTimezoneMiddleware`` sets it for pages, and the
consumer for pushed fragments.
"""

from __future__ import annotations

import functools
import json
from datetime import datetime, tzinfo

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.dateformat import re_escaped, re_formatchars
from django.utils.dates import MONTHS_3, MONTHS_ALT, WEEKDAYS_ABBR
from django.utils.html import format_html
from django.utils.translation import get_language, gettext, ngettext, pgettext

register = template.Library()

NEAR_HOURS = 48
NEAR_DAYS = 10
# Polish and Portuguese write weekdays and months in lower case inside a sentence ("até qua, 2
# de dez"); Django's names are capitalised, as a calendar's headings would be. (Polish leaves
# the weekday out: after "do" it would need the genitive, which Django's names do not have.)
LOWER_CASE_DATES = ("pl", "pt")


def _formats() -> dict[str, str]:
    return {
        # Translators: a date and time, as Django's date filter spells it (php-style letters).
        "datetime": pgettext("date format", "D j M, H:i"),
        # Translators: a date and time in another year (Django's date filter letters).
        "datetime_year": pgettext("date format", "j M Y, H:i"),
    }


def absolute(moment: datetime) -> str:
    """ "Thu 3 Dec, 17:36" (with the year when it is not this year), in the member's zone."""
    zone = timezone.get_current_timezone()
    this_year = timezone.localtime(timezone=zone).year
    return _absolute(moment, zone, get_language() or "", this_year)


# A table's deadline is drawn again for every viewer, page, fragment and push until the next
# move, and Django's date formatting costs more than the rest of the status bar: the words
# for one moment, zone, language and year are kept (a few hundred bytes each).
@functools.lru_cache(maxsize=1024)
def _absolute(moment: datetime, zone: tzinfo, language: str, this_year: int) -> str:
    local = timezone.localtime(moment, zone)
    formats = _formats_said(language)
    fmt = formats["datetime"] if local.year == this_year else formats["datetime_year"]
    text = _date_said(local, fmt, language)
    if language.split("-")[0] in LOWER_CASE_DATES:
        text = text.lower()
    return text


@functools.lru_cache(maxsize=16)
def _formats_said(language: str) -> dict[str, str]:
    # Per language (the caller's active one): two pgettexts a deadline, otherwise.
    return _formats()


# Every move gives its table a new deadline, so each move's answer and pushes format one
# moment Django's way anew: 25–60 µs, most of the status bar. The letters our formats use
# (in every catalogue) are said here as Django says them, from names looked up once per
# language; a format with any other letter goes to Django (tests/site/test_when.py compares
# the two on every month and weekday in en/pl/pt).
_LETTERS = frozenset("DjMEHiY")


@functools.lru_cache(maxsize=16)
def _date_pieces(fmt: str) -> tuple[tuple[bool, str], ...] | None:
    """``fmt`` as Django's formatter reads it: (is a letter, the letter or the literal
    text); None when it holds a letter not said here."""
    pieces = []
    for index, piece in enumerate(re_formatchars.split(fmt)):
        if index % 2:
            if piece not in _LETTERS:
                return None
            pieces.append((True, piece))
        elif piece:
            pieces.append((False, re_escaped.sub(r"\1", piece)))
    return tuple(pieces)


@functools.lru_cache(maxsize=16)
def _date_names(language: str) -> tuple[tuple[str, ...], dict[int, str], dict[int, str]]:
    """Weekdays' and months' short names and the months' alternative (genitive) names, in
    ``language`` (the caller's active one), as Django's date letters D, M and E say them."""
    weekdays = tuple(str(WEEKDAYS_ABBR[day]) for day in range(7))
    months = {month: str(MONTHS_3[month]).title() for month in MONTHS_3}
    alternative = {month: str(MONTHS_ALT[month]) for month in MONTHS_ALT}
    return weekdays, months, alternative


def _date_said(local: datetime, fmt: str, language: str) -> str:
    """``django.utils.dateformat.format(local, fmt)`` in the active ``language``."""
    pieces = _date_pieces(fmt)
    if pieces is None:
        return date_format(local, fmt)
    weekdays, months, alternative = _date_names(language)
    said = {
        "D": weekdays[local.weekday()],
        "j": str(local.day),
        "M": months[local.month],
        "E": alternative[local.month],
        "H": f"{local.hour:02d}",
        "i": f"{local.minute:02d}",
        "Y": f"{local.year:04d}",
    }
    return "".join(said[text] if letter else text for letter, text in pieces)


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


def _time_element(
    moment: datetime, text: str, *, exact: str | None = None, countdown: bool = False
) -> str:
    return format_html(
        '<time datetime="{}" title="{}"{}>{}</time>',
        moment.isoformat(),
        exact if exact is not None else absolute(moment),
        " data-countdown" if countdown else "",
        text,
    )


@register.filter
def when(moment: datetime | None) -> str:
    """A moment as near words or a short date, in a ``<time>`` element."""
    if not isinstance(moment, datetime):
        return ""
    exact = absolute(moment)
    return _time_element(moment, relative(moment) or exact, exact=exact)


@register.filter
def on_date(moment: datetime | None) -> str:
    """A moment as a short date and time, for "since …" ("since Thu 3 Dec, 17:36")."""
    if not isinstance(moment, datetime):
        return ""
    exact = absolute(moment)
    return _time_element(moment, exact, exact=exact)


@register.filter
def until_when(moment: datetime | None) -> str:
    """A deadline: its date and how long is left ("Thu 3 Dec, 17:36 · in 5 h"); the time left
    counts down on the game page (static/js/game.js)."""
    if not isinstance(moment, datetime):
        return ""
    left = relative(moment)
    exact = absolute(moment)
    if left is None:
        return format_html("<span>{}</span>", exact)
    return format_html(
        '<span>{}</span> · <span class="time-left">{}</span>',
        exact,
        _time_element(moment, left, exact=exact, countdown=True),
    )


@register.simple_tag
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
