"""Dates as members read them (games/templatetags/when_tags.py): one style per language, in
the member's time zone — a deadline's date and the time left, "since …" dates, moments near
in words and far ones as a date with the year when it is not this year; the exact moment is
always in the ``<time>`` element's ``datetime`` and ``title``."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

import pytest
import time_machine
from django.template import Context, Template
from django.utils import timezone, translation

from games.templatetags.when_tags import absolute, on_date, relative_words, until_when, when
from tests.markupkit import parse

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


class _Read(NamedTuple):
    """What a reader gets from the markup: the visible text and each ``<time>`` element (its
    attributes and its text)."""

    text: str
    times: list[dict[str, str | None]]


def _read(html: str) -> _Read:
    tree = parse(html)
    times = [{**time.attrs, "text": time.raw_text} for time in tree.find_all("time")]
    return _Read(tree.raw_text, times)


@pytest.fixture
def at_now():
    with time_machine.travel(NOW, tick=False):
        yield


# (language, zone): the deadline five hours on, a deadline 20 days on, "since" a night in
# November (the day changes with the zone), a moment last year, one next year.
EXPECTED = {
    ("en", "UTC"): (
        "Thu 3 Dec, 17:00",
        "Wed 23 Dec, 12:00",
        "Sun 29 Nov, 23:30",
        "1 Aug 2025, 17:36",
        "1 Jan 2027, 09:05",
    ),
    ("en", "Europe/Warsaw"): (
        "Thu 3 Dec, 18:00",
        "Wed 23 Dec, 13:00",
        "Mon 30 Nov, 00:30",
        "1 Aug 2025, 19:36",
        "1 Jan 2027, 10:05",
    ),
    ("pl", "Europe/Warsaw"): (
        "3 grudnia, 18:00",
        "23 grudnia, 13:00",
        "30 listopada, 00:30",
        "1 sierpnia 2025, 19:36",
        "1 stycznia 2027, 10:05",
    ),
    ("pl", "America/Sao_Paulo"): (
        "3 grudnia, 14:00",
        "23 grudnia, 09:00",
        "29 listopada, 20:30",
        "1 sierpnia 2025, 14:36",
        "1 stycznia 2027, 06:05",
    ),
    ("pt-br", "America/Sao_Paulo"): (
        "qui, 3 de dez, 14:00",
        "qua, 23 de dez, 09:00",
        "dom, 29 de nov, 20:30",
        "1 de ago de 2025, 14:36",
        "1 de jan de 2027, 06:05",
    ),
    ("pt-br", "Europe/Warsaw"): (
        "qui, 3 de dez, 18:00",
        "qua, 23 de dez, 13:00",
        "seg, 30 de nov, 00:30",
        "1 de ago de 2025, 19:36",
        "1 de jan de 2027, 10:05",
    ),
}
SOON = {"en": "in 5 h", "pl": "za 5 godz.", "pt-br": "daqui a 5 h"}
SOON_WITH_MINUTES = {
    "en": "in 2 h 15 min",
    "pl": "za 2 godz. 15 min",
    "pt-br": "daqui a 2 h 15 min",
}
AGO = {"en": "3 h ago", "pl": "3 godz. temu", "pt-br": "há 3 h"}


@pytest.mark.parametrize(("language", "zone"), list(EXPECTED))
def test_each_language_has_one_date_style_in_the_members_zone(at_now, language, zone):
    deadline, far, since, last_year, next_year = EXPECTED[language, zone]
    with translation.override(language), timezone.override(zone):
        assert absolute(NOW + timedelta(hours=5)) == deadline
        assert absolute(NOW + timedelta(days=20)) == far
        assert absolute(datetime(2026, 11, 29, 23, 30, tzinfo=UTC)) == since
        assert absolute(datetime(2025, 8, 1, 17, 36, tzinfo=UTC)) == last_year
        assert absolute(datetime(2027, 1, 1, 9, 5, tzinfo=UTC)) == next_year


@pytest.mark.parametrize(("language", "zone"), list(EXPECTED))
def test_a_deadline_shows_its_date_and_the_time_left_counting_down(at_now, language, zone):
    deadline = NOW + timedelta(hours=5)
    with translation.override(language), timezone.override(zone):
        read = _read(until_when(deadline))
        soon = _read(until_when(NOW + timedelta(hours=2, minutes=15)))
    date = EXPECTED[language, zone][0]
    assert read.text == f"{date} · {SOON[language]}"
    assert read.times == [
        {
            "datetime": "2026-12-03T17:00:00+00:00",
            "title": date,
            "data-countdown": None,
            "text": SOON[language],
        }
    ]
    assert soon.text.endswith(f" · {SOON_WITH_MINUTES[language]}")


@pytest.mark.parametrize(("language", "zone"), list(EXPECTED))
def test_a_far_deadline_shows_only_its_date(at_now, language, zone):
    with translation.override(language), timezone.override(zone):
        read = _read(until_when(NOW + timedelta(days=20)))
    assert read.text == EXPECTED[language, zone][1]
    assert read.times == []


@pytest.mark.parametrize(("language", "zone"), list(EXPECTED))
def test_a_moment_reads_near_in_words_and_far_as_a_date(at_now, language, zone):
    _, _, since, last_year, _ = EXPECTED[language, zone]
    past = NOW - timedelta(hours=3, minutes=1)
    with translation.override(language), timezone.override(zone):
        near = _read(when(past))
        old = _read(when(datetime(2025, 8, 1, 17, 36, tzinfo=UTC)))
        exact_past = absolute(past)
        since_read = _read(on_date(datetime(2026, 11, 29, 23, 30, tzinfo=UTC)))
    assert near.times == [
        {"datetime": past.isoformat(), "title": exact_past, "text": AGO[language]}
    ]
    assert old.times == [
        {"datetime": "2025-08-01T17:36:00+00:00", "title": last_year, "text": last_year}
    ]
    # "since …" always as a date, however near.
    assert since_read.times == [
        {"datetime": "2026-11-29T23:30:00+00:00", "title": since, "text": since}
    ]


def test_the_filters_read_the_same_in_a_template_and_say_nothing_for_no_date(at_now):
    template = Template(
        "{% load when_tags %}[{{ deadline|until_when }}][{{ since|on_date }}]"
        "[{{ started|when }}][{{ missing|when }}][{{ missing|until_when }}]"
    )
    since = datetime(2026, 11, 29, 23, 30, tzinfo=UTC)
    with translation.override("pl"), timezone.override("Europe/Warsaw"):
        html = template.render(
            Context({"deadline": NOW + timedelta(hours=5), "since": since, "started": since})
        )
    read = _read(html)
    assert read.text == "[3 grudnia, 18:00 · za 5 godz.][30 listopada, 00:30][3 dni temu][][]"
    assert [time["title"] for time in read.times] == [
        "3 grudnia, 18:00",
        "30 listopada, 00:30",
        "30 listopada, 00:30",
    ]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", {"now": "now", "h": "in %(hours)s h", "over": "time is up"}),
        ("pl", {"now": "teraz", "h": "za %(hours)s godz.", "over": "czas minął"}),
        ("pt-br", {"now": "agora", "h": "daqui a %(hours)s h", "over": "o tempo acabou"}),
    ],
)
def test_the_pages_countdown_gets_the_same_words(language, words):
    with translation.override(language):
        given = json.loads(relative_words())
    assert {key: given[key] for key in words} == words
