"""Deadlines in words (games/templatetags/when_tags.py): the date letters the site's formats
use are said as Django's date formatting says them, in every language and catalogue format;
a format with any other letter is Django's to say."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import translation
from django.utils.dateformat import format as date_format
from hypothesis import given, settings
from hypothesis import strategies as st

from games.templatetags import when_tags

ZONES = [ZoneInfo("Europe/Warsaw"), ZoneInfo("America/Sao_Paulo"), ZoneInfo("Pacific/Chatham")]
# The catalogues' formats (en, pl, pt) and a few more with escapes and every letter said here.
FORMATS = [
    "D j M, H:i",
    "j M Y, H:i",
    "j E, H:i",
    "j E Y, H:i",
    "D, j \\d\\e M, H:i",
    "j \\d\\e M \\d\\e Y, H:i",
    "\\D\\j: D-j-M-E-H-i-Y \\\\ ok",
]


@settings(max_examples=200, deadline=None)
@given(
    moment=st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2100, 12, 31)),
    zone=st.sampled_from(ZONES),
    language=st.sampled_from(["en", "pl", "pt"]),
    fmt=st.sampled_from(FORMATS),
)
def test_a_date_is_said_as_django_says_it(moment, zone, language, fmt):
    local = moment.replace(tzinfo=UTC).astimezone(zone)
    with translation.override(language):
        assert when_tags._date_said(local, fmt, language) == date_format(local, fmt)


@pytest.mark.parametrize("language", ["en", "pl", "pt"])
def test_every_month_and_weekday_in_every_language(language):
    start = datetime(2026, 1, 1, 9, 5, tzinfo=UTC)
    with translation.override(language):
        for day in range(0, 366, 3):
            local = start + timedelta(days=day)
            for fmt in FORMATS:
                assert when_tags._date_said(local, fmt, language) == date_format(local, fmt)


def test_a_format_with_another_letter_is_djangos_to_say():
    local = datetime(2026, 12, 5, 18, 7, tzinfo=UTC)
    with translation.override("pl"):
        assert when_tags._date_pieces("l, j F Y") is None
        assert when_tags._date_said(local, "l, j F Y", "pl") == date_format(local, "l, j F Y")
