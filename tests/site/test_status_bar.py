"""The game page's status bar (#game-status, templates/jinja2/games/table/status.html) as a member
reads it, for every tone — your turn, waiting, an open table, a closed one, the end —, with a
flash message either way, a deadline or none, a moderator's reason, swapped by id or not: the
words in the reader's language, every value shown as text, never as markup."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext, ngettext
from playkit import (
    napad_game,
    napad_table,
    play_one,
    play_to_end,
    user_to_move,
)

from games.models import Game
from games.selectors.tables import game_with_seats
from games.table.rendering import game_context, render_game_live
from tests.markupkit import parse
from tests.personakit import client_for

pytestmark = pytest.mark.django_db

STATUS_TEMPLATE = "games/table/status.html"
MESSAGES = [("", True), ("Done & <dusted>", True), ("That card is 'not' yours.", False)]
REASON = "Cheating <again> & 'again'"
DEADLINE = datetime(2026, 12, 24, 18, 30, tzinfo=UTC)


def _contexts(alice, bob, charlie):
    running = napad_game(alice, bob)
    play_one(running, [alice, bob])
    open_table = napad_table(alice, seats=3)
    finished = play_to_end(napad_game(alice, bob), [alice, bob])
    stopped = napad_game(alice, charlie)
    Game.objects.filter(pk=stopped.pk).update(status=Game.Status.ABORTED, abort_reason=REASON)
    for game_id in (running.pk, open_table.pk, finished.pk, stopped.pk):
        game = game_with_seats(game_id)
        positions = {seat.position for seat in game.seats.all()}
        for position in sorted(positions) + [None]:
            yield game, position


def _deadline_text(moment: datetime) -> str:
    """The deadline as the site's ``until_when`` filter says it, read as text."""
    template = Template("{% load when_tags %}{{ moment|until_when }}")
    return parse(template.render(Context({"moment": moment}))).text


def _line_expected(values: dict) -> str:
    """What the bar's sentence says for this tone."""
    game, status = values["game"], values["status"]
    if status["tone"] == "turn":
        return f"{gettext('Your turn.')} {status['text']}"
    if status["tone"] == "open":
        return ngettext(
            "Waiting for players: %(taken)s of %(seats)s seat taken.",
            "Waiting for players: %(taken)s of %(seats)s seats taken.",
            game.seats_count,
        ) % {"taken": len(values["seats"]), "seats": game.seats_count}
    if status["tone"] == "closed":
        return gettext("This table is %(status)s.") % {"status": game.get_status_display()}
    return status["text"]


def _check_bar(values: dict) -> None:
    root = parse(render_to_string(STATUS_TEMPLATE, values, using="jinja2"))
    bar = root.find("div", id="game-status")
    status, tone = values["status"], values["status"]["tone"]
    assert bar.classes == ["status-bar", f"status-bar--{tone}"]
    assert bar.attrs["tabindex"] == "-1"
    assert ("hx-swap-oob" in bar.attrs) is values["parts_oob"]
    # The flash message: a polite alert, green or red, its words as text.
    flashes = bar.find_all("p", cls="flash")
    if values["message"]:
        (flash,) = flashes
        assert flash.attrs["role"] == "alert"
        assert flash.classes[1] == ("flash--ok" if values["message_ok"] else "flash--error")
        assert flash.text == values["message"]
    else:
        assert flashes == []
    # The sentence: what to decide, whom the table waits for, or why it is closed.
    line = bar.find("p", cls="status-bar__line")
    assert line.text == _line_expected(values)
    if tone == "turn":
        assert line.find("strong", cls="your-turn").text == gettext("Your turn.")
    # Until when, and the jump to the decision on one's turn.
    deadlines = bar.find_all("p", cls="status-bar__deadline")
    if status["deadline"]:
        (deadline,) = deadlines
        label = gettext("Decide by") if tone == "turn" else gettext("Until")
        assert deadline.find("span", cls="muted").text == label
        assert deadline.text == f"{label} {_deadline_text(status['deadline'])}"
    else:
        assert deadlines == []
    jumps = bar.find_all("a", cls="status-bar__jump")
    if tone == "turn":
        (jump,) = jumps
        assert jump.attrs["href"] == "#decision"
        assert jump.text == gettext("Go to your decision")
    else:
        assert jumps == []
    # A moderator's reason, as text.
    reasons = bar.find_all("p", cls="abort-reason")
    if values["game"].abort_reason:
        (reason,) = reasons
        assert reason.text == f"{gettext('A moderator stopped this game:')} {REASON}"
    else:
        assert reasons == []
    # Nothing anyone typed became markup.
    assert {element.tag for element in bar.elements()} <= {"p", "strong", "span", "a", "time"}


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_bar_says_each_tone_in_the_readers_language(alice, bob, charlie, language):
    tones = set()
    with translation.override(language):
        for game, position in _contexts(alice, bob, charlie):
            context = game_context(game, position=position)
            tones.add(context["status"]["tone"])
            for (message, ok), parts_oob in zip(MESSAGES * 2, [True, False] * 3, strict=True):
                for deadline in (context["status"].get("deadline"), DEADLINE, None):
                    status = {**context["status"], "deadline": deadline}
                    _check_bar(
                        {
                            **context,
                            "status": status,
                            "message": message,
                            "message_ok": ok,
                            "parts_oob": parts_oob,
                        }
                    )
    assert {"turn", "wait", "open", "closed", "over"} <= tones


def test_the_words_are_translated(alice, bob):
    """Polish and Portuguese readers read no English on the bar."""
    game = game_with_seats(napad_game(alice, bob).pk)
    position = game.to_move[0]
    for language in ("pl", "pt-br"):
        with translation.override(language):
            context = game_context(game, position=position)
            context["status"] = {"tone": "turn", "text": "", "deadline": DEADLINE}
            bar = parse(render_to_string(STATUS_TEMPLATE, context, using="jinja2")).find(
                "div", id="game-status"
            )
        for english in ("Your turn.", "Decide by", "Go to your decision"):
            assert english not in bar.text, (language, english)


def test_a_move_answer_tells_the_live_region_the_status_as_text(alice, bob):
    """The live parts end with the page's live region refilled by id: the status line and
    the latest action, a member's name shown as text; the whole page keeps its own, empty."""
    alice.player.display_name = 'Al <b>"&"</b>'
    alice.player.save()
    game = game_with_seats(napad_game(alice, bob).pk)
    # The latest action is Alice's, so the region names her.
    while user_to_move(game, [alice, bob]) != alice:
        assert play_one(game, [alice, bob]).ok
        game.refresh_from_db()
    assert play_one(game, [alice, bob]).ok
    game = game_with_seats(game.pk)
    for position in (0, 1, None):
        context = game_context(game, position=position)
        html = render_game_live(game, position=position, user=alice)
        regions = parse(html).find_all("div", id="live-region")
        assert len(regions) == 1
        (region,) = regions
        assert region.attrs["hx-swap-oob"] == "innerHTML"
        assert region.text == context["announcement"]
        assert region.text.startswith(context["status"]["text"])
        assert 'Al <b>"&"</b>' in region.text and region.find_all("b") == []
    page = client_for(bob).get(f"/games/{game.pk}/").content.decode()
    (region,) = parse(page).find_all(id="live-region")
    assert "hx-swap-oob" not in region.attrs and region.text == ""
