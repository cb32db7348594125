"""The game log as a member reads it (templates/jinja2/games/log/): each line's icon, words and
"(out of time)" note, a private line marked, the lines under their round / phase headings —
the table's box newest first, the whole log and the replay oldest first, all from the same
partials —, the box's links to the whole log and the replay, every word in the reader's
language and every name shown as text, never as markup."""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext
from playkit import napad_game, play_one, play_to_end

from games.engines import get_engine
from games.models import GameEvent
from games.selectors.gamelog import log_entries, log_groups, phase_title
from tests.markupkit import parse
from tests.personakit import client_for

# The jinja2 engine's (decision 0021).
BOX = "games/log/box.html"
GROUPS = "games/log/groups.html"
SPRITE = "/static/img/log-icons.svg?v=1&a"


def _line(icon: str, text: str, private: bool = False) -> dict:
    return {"icon": icon, "text": text, "private": private, "round": 2, "phase": None}


ENTRIES = [
    {
        "seq": 7,
        "by_clock": True,
        "lines": [
            _line("play", "Alice sends gold 6 (card 12)."),
            _line("draw", "You draw 3 cards: <b>złoto</b> & 5.", private=True),
        ],
    },
    {"seq": 8, "by_clock": False, "lines": [_line("pass", "Bob's pass.")]},
    # A line an organiser's words reached: text, never markup.
    {"seq": 1234, "by_clock": True, "lines": [_line('x"y', "<i>")]},
    {"seq": 9, "by_clock": False, "lines": []},
]


def _words(item) -> str:
    """A line's own words: its text less the clock's note and the time it was played."""
    span = item.find("span", cls="log-line__text")
    return "".join(child for child in span.children if isinstance(child, str)).strip()


def _rendered_lines(entries: list[dict], **flags) -> list:
    context = {"log_groups": log_groups(entries), "log_sprite": SPRITE, **flags}
    return parse(render_to_string(GROUPS, context, using="jinja2")).find_all("li")


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize(
    "entries",
    [ENTRIES, ENTRIES[:1], ENTRIES[1:2], ENTRIES[2:3], []],
    ids=["all", "1", "2", "3", "0"],
)
def test_each_line_shows_its_icon_its_words_and_the_clocks_note(language, entries):
    with translation.override(language):
        items = _rendered_lines(entries)
        note = f"({gettext('out of time')})"
    expected = [(entry, n, line) for entry in entries for n, line in enumerate(entry["lines"])]
    assert len(items) == len(expected)
    for item, (entry, number, line) in zip(items, expected, strict=True):
        private = ["log-line--private"] if line["private"] else []
        assert item.classes == ["log-line", f"log-line--{line['icon']}", *private]
        assert item.attrs["data-seq"] == str(entry["seq"])
        icon = item.find("svg", cls="log-icon")
        assert icon.attrs["aria-hidden"] == "true" and icon.attrs["focusable"] == "false"
        assert icon.find("use").attrs["href"] == f"{SPRITE}#log-{line['icon']}"
        text = item.find("span", cls="log-line__text")
        # The clock's note on the first line of an action the clock made, no other.
        clocked = entry["by_clock"] and number == 0
        assert text.text == (f"{line['text']} {note}" if clocked else line["text"])
        assert len(text.find_all("em", cls="log-line__clock")) == int(clocked)
        # Words are text: no element came out of them.
        assert {e.tag for e in text.elements()} <= {"em"}


def test_the_clock_note_is_in_the_readers_language():
    with translation.override("pl"):
        (first, _second) = _rendered_lines(ENTRIES[:1])
        note = gettext("out of time")
    assert note != "out of time"
    assert first.find("em", cls="log-line__clock").text == f"({note})"


def test_words_that_look_like_markup_stay_text():
    plain = [{**ENTRIES[1], "seq": 41, "lines": [_line("pass", "<b>5</b>")]}]
    with translation.override("en"):
        (shown,) = _rendered_lines(plain)
    assert shown.find_all("b") == [] and shown.text == "<b>5</b>"


def _played_logs(kind: str, players: int = 4, games: int = 2):
    """The table's last 20 actions, as each seat (and a spectator) reads them, at every seventh
    step of a few games played at random — events logged as the move service logs them."""
    engine = get_engine(kind)
    names = {seat: f"<i>{seat}</i> & Co" for seat in range(players)}
    for number in range(games):
        rng = random.Random(f"log-{kind}-{number}")
        state = engine.setup(engine.default_config(), players, seed=f"log-{kind}-{number}")
        logged: list[GameEvent] = []
        while not engine.is_over(state):
            mover = engine.to_move(state)[0]
            action = rng.choice(engine.legal_actions(state, mover))
            state, events = engine.apply(state, mover, action)
            logged.append(
                GameEvent(
                    seq=len(logged) + 1,
                    seat=mover,
                    by_clock=rng.random() < 0.1,
                    public_events=[e for e in events if "private_to" not in e],
                    private_events=[
                        {**e, "at": i} for i, e in enumerate(events) if "private_to" in e
                    ],
                )
            )
            if len(logged) % 7:
                continue
            recent = logged[-20:]
            round_now = engine.view(state, None).get("round")
            for viewer in [None, *range(players)]:
                yield log_entries(recent, viewer, names=names, kind=kind, round_now=round_now)


def _newest_first(log: list[dict], kind: str) -> list[tuple[str, list[tuple[int, str]]]]:
    """What the box shows, worked out apart from ``log_groups``: the actions newest first,
    each action's lines under every heading (round, phase) they fall under, a heading where
    it changes — (title, [(seq, text)])."""
    groups: list[tuple[tuple, list[tuple[int, str]]]] = []
    for entry in reversed(log):
        runs: list[tuple[tuple, list[str]]] = []
        for line in entry["lines"]:
            heading = (line["round"], line["phase"])
            if not runs or runs[-1][0] != heading:
                runs.append((heading, []))
            runs[-1][1].append(line["text"])
        for heading, texts in reversed(runs):
            if not groups or groups[-1][0] != heading:
                groups.append((heading, []))
            groups[-1][1].extend((entry["seq"], text) for text in texts)
    return [(phase_title(*heading, kind), lines) for heading, lines in groups]


class _Game:
    def __init__(self, kind: str, version: int, status: str):
        self.kind, self.version, self.status = kind, version, status


def _box(log: list[dict], game: _Game, position: int | None) -> object:
    context = {
        "log": log,
        "log_groups": log_groups(log, game.kind, newest_first=True),
        "game": game,
        "position": position,
        "log_url": "/games/7/log?a=1&b=2",
        "replay_url": "/games/7/replay",
        "log_sprite": SPRITE,
    }
    return parse(render_to_string(BOX, context, using="jinja2")).find("div", id="log")


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("kind", ["napad", "colt"])
def test_the_box_shows_the_newest_lines_first_under_their_headings(kind, language):
    titles = set()
    with translation.override(language):
        for log in _played_logs(kind):
            box = _box(log, _Game(kind, 14, "running"), 1)
            sections = box.find_all("section", cls="log-group")
            shown = []
            for section in sections:
                headings = section.find_all("h3", cls="log-group__title")
                title = headings[0].text if headings else ""
                lines = section.find("ol", cls="log-lines").find_all("li", cls="log-line")
                shown.append((title, [(int(li.attrs["data-seq"]), _words(li)) for li in lines]))
                titles.add(title)
            assert shown == _newest_first(log, kind)
            assert box.find_all("i") == []  # the members' names are text
    # Logs under several headings were shown (rounds and phases).
    assert len(titles) > 3


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_box_says_nothing_happened_and_links_the_whole_log_and_the_replay(language):
    log = next(iter(_played_logs("colt")))
    with translation.override(language):
        words = {w: gettext(w) for w in ("Game log", "Nothing has happened yet.")}
        whole, replay = gettext("The whole log"), gettext("Replay")
        for entries in ([], log):
            for version, status, position, links in [
                (0, "running", None, []),
                (14, "running", 2, [whole, replay]),
                (14, "running", None, [whole]),
                (99, "finished", None, [whole, replay]),
                (99, "aborted", None, [whole]),
                (3, "running", 0, [whole, replay]),
            ]:
                box = _box(entries, _Game("colt", version, status), position)
                assert box.classes == ["game-log"]
                assert box.find("h2").text == words["Game log"]
                said = [p.text for p in box.find_all("p")]
                assert (words["Nothing has happened yet."] in said) is not entries
                groups = box.find_all("section", cls="log-group")
                assert len(groups) == len(log_groups(entries, "colt"))
                anchors = box.find_all("a")
                assert [a.text for a in anchors] == links
                hrefs = {whole: "/games/7/log?a=1&b=2", replay: "/games/7/replay"}
                assert [a.attrs["href"] for a in anchors] == [hrefs[text] for text in links]


@pytest.mark.django_db
def test_the_whole_log_and_the_replay_show_the_tables_lines(alice, bob):
    """The same lines, from the same partials: the whole log (oldest first, each action's time)
    and the replay's step (the action that led to it)."""
    game = play_to_end(napad_game(alice, bob), [alice, bob])
    client = client_for(alice)
    page = parse(client.get(f"/games/{game.pk}/log").content.decode())
    whole = page.find("div", cls="game-log--full")
    lines = whole.find_all("li", cls="log-line")
    assert len(whole.find_all("h2", cls="log-group__title")) > 1
    seqs = [int(li.attrs["data-seq"]) for li in lines]
    assert seqs == sorted(seqs) and seqs[0] == 1 and seqs[-1] == game.version
    # Each action's first line says when it was played.
    firsts = {seq: li for seq, li in reversed(list(zip(seqs, lines, strict=True)))}
    assert all(li.find("time", cls="log-line__when").attrs["datetime"] for li in firsts.values())
    step = 5
    replay = parse(client.get(f"/games/{game.pk}/replay?step={step}").content.decode())
    events = replay.find("div", cls="replay__events")
    shown = events.find_all("li", cls="log-line")
    assert shown and all("replay__event" in li.classes for li in shown)
    assert {li.attrs["data-seq"] for li in shown} == {str(step)}
    on_the_log = [li for seq, li in zip(seqs, lines, strict=True) if seq == step]
    assert [_words(li) for li in shown] == [_words(li) for li in on_the_log]
    assert [li.find("use").attrs["href"] for li in shown] == [
        li.find("use").attrs["href"] for li in on_the_log
    ]


@pytest.mark.django_db
def test_the_tables_box_is_the_same_on_the_page_and_in_a_move_answer(alice, bob):
    game = napad_game(alice, bob)
    for _ in range(5):
        play_one(game, [alice, bob])
    client = client_for(alice)
    page = parse(client.get(f"/games/{game.pk}/").content.decode())
    fragment = parse(client.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true").content.decode())
    boxes = [root.find("div", id="game-log-box").find("div", id="log") for root in (page, fragment)]
    assert boxes[0].text == boxes[1].text
    game.refresh_from_db()
    seqs = [int(li.attrs["data-seq"]) for li in boxes[0].find_all("li", cls="log-line")]
    assert seqs[0] == game.version == 5 and seqs[-1] == 1  # newest first


def test_a_log_read_again_is_data_and_renders_the_same():
    """The log keeps each action's entry for the next reading (games/selectors/gamelog.py): what it
    keeps is data — words and where they belong —, never markup, and a box rendered from a
    kept reading reads as the first one, in another language too."""
    logs = [log for _number, log in zip(range(6), _played_logs("napad"), strict=False)]
    again = [log for _number, log in zip(range(6), _played_logs("napad"), strict=False)]
    for log in logs:
        for entry in log:
            assert set(entry) == {
                "seq",
                "seat",
                "when",
                "by_clock",
                "texts",
                "lines",
                "round",
                "phase",
                "cache_key",
            }
            assert type(entry["cache_key"]) is str
            for line in entry["lines"]:
                assert set(line) == {"icon", "text", "private", "round", "phase"}
                # Plain text, never a safe string: the template escapes it, and the rendered
                # lines are cached by what they show (games/log/groups.html).
                assert type(line["text"]) is str
                assert "<li" not in line["text"] and "<svg" not in line["text"]
    for language in ("en", "pl", "en"):
        with translation.override(language):
            for first, second in zip(logs, again, strict=True):
                game = _Game("napad", 14, "running")
                assert _box(first, game, 0).text == _box(second, game, 0).text


def test_a_cached_line_follows_the_language_the_icons_and_the_page():
    """A line rendered before (its fragment is cached by what it shows) is rendered again
    in another reader's language, with another sprite URL, on the whole log or the replay."""
    entries = [{**ENTRIES[0], "seq": 77, "when": None}]
    for language in ("en", "pl", "pt-br", "en"):
        for sprite in ("a.svg", "b.svg?v=2&x"):
            for flags in ({}, {"log_replay": True}, {"log_times": True}):
                with translation.override(language):
                    context = {"log_groups": log_groups(entries), "log_sprite": sprite}
                    html = render_to_string(GROUPS, {**context, **flags}, using="jinja2")
                    note = f"({gettext('out of time')})"
                first, _second = parse(html).find_all("li")
                assert first.find("em", cls="log-line__clock").text == note
                assert first.find("use").attrs["href"] == f"{sprite}#log-play"
                assert ("replay__event" in first.classes) is bool(flags.get("log_replay"))
                assert len(first.find_all("time")) == int(bool(flags.get("log_times")))


def test_the_whole_logs_times_are_in_the_readers_time_zone():
    """The whole log shows when each action was played in the reader's own zone, and a line
    cached for one reader's zone is not shown to a reader in another."""
    from datetime import UTC, datetime

    from django.utils import timezone

    when = datetime(2026, 12, 24, 17, 30, tzinfo=UTC)
    entries = [{**ENTRIES[1], "seq": 91, "when": when}]
    context = {"log_groups": log_groups(entries), "log_sprite": SPRITE, "log_times": True}
    shown = {}
    for zone in ("Europe/Warsaw", "America/Sao_Paulo", "Europe/Warsaw"):
        # Polish writes the hours 0-23 ("24.12.2026 18:30").
        with timezone.override(zone), translation.override("pl"):
            html = render_to_string(GROUPS, context, using="jinja2")
        moment = parse(html).find("time", cls="log-line__when")
        shown.setdefault(zone, moment.text)
        assert moment.text == shown[zone]
        hours = {"Europe/Warsaw": "18:30", "America/Sao_Paulo": "14:30"}[zone]
        assert hours in moment.text and moment.attrs["datetime"].startswith(f"2026-12-24T{hours}")
