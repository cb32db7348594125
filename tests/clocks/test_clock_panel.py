"""The game page's clock panel (templates/jinja2/clocks/panel.html): who is on
leave (with and without a reason), the table's notices, the "+24 h" button for everyone but the
member to move, and Colt Express's standing orders — every name and text shown as written,
never as markup, in every language the club speaks; and no panel once the game is over."""

from __future__ import annotations

from datetime import timedelta

import pytest
from clockkit import colt_stealin, seat_of, started_game, user_to_move
from django.conf import settings
from django.template import Context, Template
from django.template.defaultfilters import date
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext, ngettext

from games.models import Game, Player
from games.selectors.tables import game_with_seats
from games.services.clock_panel import PANEL_NOTICES, clock_panel_context
from games.services.clocks import players_on_leave
from games.services.clocks.leave import leave_declare, player_today
from games.services.notifications import table_notice_post, table_notices
from games.table.rendering import game_context
from tests.markupkit import csrf_field, parse

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES]
ODD = "<b>Bob</b> & 'co'"
NOTICE = "The clock <moved> & 'so' did you."
TOKEN = "t0k3n<&>"


def _html(game: Game, position: int | None, csrf: str | None = TOKEN) -> str:
    """The panel as ``position``'s page of ``game`` renders it (``None``: a spectator)."""
    values = game_context(game_with_seats(game.pk), position=position)
    values["panel"] = clock_panel_context(
        values["game"],
        position=position,
        my_seat=values["my_seat"],
        view=values["view"],
        seats=values["seats"],
    )
    if csrf is not None:
        values["csrf_input"] = csrf_field(csrf)
    return render_to_string("clocks/panel.html", values, using="jinja2")


def _panel(game: Game, position: int | None, csrf: str | None = TOKEN):
    return parse(_html(game, position, csrf)).find("div", id="clock-panel", cls="clock-panel")


def _every_viewer(game: Game) -> list[int | None]:
    return [seat.position for seat in game.seats.all()] + [None]


def _busy_table(alice, bob, charlie) -> Game:
    """A table with a notice and two members on leave: bob (an odd name and reason), charlie."""
    game = started_game(alice, bob, charlie)
    Player.objects.filter(user=bob).update(display_name=ODD)
    bob.player.refresh_from_db()
    table_notice_post(game=game, kind="info", text=NOTICE)
    today = player_today(bob.player)
    leave_declare(player=bob.player, start=today, end=today + timedelta(days=3), reason=ODD)
    leave_declare(player=charlie.player, start=today, end=today + timedelta(days=1))
    return game


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_panel_shows_who_is_on_leave_and_the_tables_notices(alice, bob, charlie, language):
    game = _busy_table(alice, bob, charlie)
    ends = {away["player"].user_id: away["leave"].end for away in players_on_leave(game)}
    with translation.override(language):
        when = Template("{% load when_tags %}{{ w|when }}")
        shown = [
            f"{parse(when.render(Context({'w': n['when']}))).text} {n['text']}"
            for n in table_notices(game, limit=PANEL_NOTICES)
        ]
        assert any(line.endswith(NOTICE) for line in shown)  # the table's own, and the leaves'

        def away(user) -> str:
            said = gettext("%(name)s is on leave until %(end)s: their clock is paused.")
            return said % {
                "name": user.player.display_name,
                "end": date(ends[user.pk], "DATE_FORMAT"),
            }

        for position in _every_viewer(game):
            panel = _panel(game, position)
            leave = panel.find("ul", cls="clock-panel__leave")
            assert leave.attrs["aria-label"] == gettext("Players on leave")
            lines = {line.text: line for line in leave.find_all("li")}
            assert set(lines) == {f"{away(bob)} {ODD}", away(charlie)}
            # The reason, as bob wrote it, is set apart; charlie gave none.
            assert lines[f"{away(bob)} {ODD}"].find("em").text == ODD
            assert lines[away(charlie)].find_all("em") == []
            notices = panel.find("ul", cls="clock-panel__notices")
            assert notices.attrs["aria-label"] == gettext("Table notices")
            assert [li.text for li in notices.find_all("li")] == shown
            # Names, reasons and notices are text, never markup.
            assert panel.find_all("b") == [] and panel.find_all("moved") == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_button_gives_the_member_to_move_more_time(alice, bob, charlie, language):
    # Every member but the one to move is offered "+24 h" for them; they are not, nor is a
    # spectator. The form posts the seat and the version the member saw, with the CSRF token.
    game = started_game(alice, bob, charlie)
    mover = seat_of(game, user_to_move(game, [alice, bob, charlie]))
    Player.objects.filter(pk=mover.player_id).update(display_name=ODD)
    game.refresh_from_db()
    with translation.override(language):
        for position in _every_viewer(game):
            for csrf in (TOKEN, None):
                panel = _panel(game, position, csrf)
                forms = panel.find_all("form", cls="clock-extend")
                assert len(forms) == (0 if position in (None, mover.position) else 1)
                if not forms:
                    continue
                (form,) = forms
                url = f"/games/{game.pk}/extend"
                assert form.attrs["method"] == "post"
                assert form.attrs["action"] == form.attrs["hx-post"] == url
                assert form.attrs["hx-target"] == "#game-live"
                assert form.attrs["hx-swap"] == "outerHTML"
                assert form.find("input", name="seat", type="hidden").attrs["value"] == str(
                    mover.position
                )
                assert form.find("input", name="version").attrs["value"] == str(game.version)
                tokens = [
                    i.attrs["value"] for i in form.find_all("input", name="csrfmiddlewaretoken")
                ]
                assert tokens == ([TOKEN] if csrf else [])
                button = form.find("button", cls="button--quiet")
                assert button.text == gettext("Give %(name)s 24 more hours") % {"name": ODD}
                assert form.find("small").text == gettext(
                    "Each player can be given more time once per game."
                )
                assert form.find_all("b") == []


def test_a_quiet_panel_holds_nothing(alice, bob, charlie):
    # The member to move at a table with no leave, notice or order: an empty panel.
    game = started_game(alice, bob, charlie)
    mover = seat_of(game, user_to_move(game, [alice, bob, charlie]))
    assert _panel(game, mover.position).elements() == []
    assert _panel(game, None).elements() == []


def test_there_is_no_panel_once_the_game_is_over(alice, bob, charlie):
    game = _busy_table(alice, bob, charlie)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED, abort_reason="x")
    for position in _every_viewer(game):
        assert _html(game, position).strip() == ""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_colt_member_sees_the_standing_orders_of_their_own_cards(alice, bob, charlie, language):
    colt = started_game(alice, bob, charlie, slug="colt-express")
    me, b, c = (seat_of(colt, user).position for user in (alice, bob, charlie))
    colt_stealin(
        colt,
        at={me: (2, "roof"), b: (2, "roof"), c: (1, "inside")},
        pile=[(b, "move"), (me, "move"), (c, "fire"), (me, "punch")],
    )
    mine = {me: 2, b: 1, c: 1}
    with translation.override(language):
        for position in _every_viewer(colt):
            panel = _panel(colt, position)
            details = panel.find_all("details", cls="standing-orders")
            if position is None:
                assert details == []  # a spectator gives no orders
                continue
            (orders,) = details
            cards = mine[position]
            assert orders.find("h2", id="standing-orders-title").text == gettext("Standing orders")
            assert orders.find("summary").find("span", cls="muted").text == ngettext(
                "%(cards)s card of yours on the pile", "%(cards)s cards of yours on the pile", cards
            ) % {"cards": cards}
            forms = orders.find("ol", cls="standing-orders__list").find_all("form")
            assert len(forms) == cards
            for form in forms:
                assert form.attrs["action"] == f"/games/{colt.pk}/orders"
                assert [
                    i.attrs["value"] for i in form.find_all("input", name="csrfmiddlewaretoken")
                ] == [TOKEN]


@pytest.mark.django_db(transaction=True)
async def test_a_moves_push_carries_each_members_own_panel(alice, bob, charlie):
    # The socket's push after a move renders the same panel as the page: the member now
    # waiting is offered "+24 h" for the one to move, who is not, nor is a spectator; all of
    # them see the table's notice.
    import json

    from asgiref.sync import sync_to_async
    from clockkit import legal
    from django.db import connections
    from django.test import Client

    from games.services.play import move_submit
    from napad_site.asgi import application
    from tests.socketkit import Socket, session_of, socket_headers

    game = await sync_to_async(started_game)(alice, bob)
    await sync_to_async(table_notice_post)(game=game, kind="info", text=NOTICE)
    sockets = {}
    for user in (alice, bob, charlie):
        client = Client()
        await sync_to_async(client.force_login)(user)
        socket = Socket(
            application, f"/ws/games/{game.pk}/", headers=socket_headers(session_of(client))
        )
        assert (await socket.connect())[0] is True
        await socket.receive_from()  # the table as it is on connect
        sockets[user] = socket
    mover = await sync_to_async(user_to_move)(game, [alice, bob])
    action = (await sync_to_async(legal)(game))[0]
    result = await sync_to_async(move_submit)(
        game_id=game.pk, user=mover, action=json.dumps(action), expected_version=0
    )
    assert result.ok
    next_mover = await sync_to_async(user_to_move)(game, [alice, bob])
    next_seat = await sync_to_async(seat_of)(game, next_mover)
    for user, socket in sockets.items():
        pushed = await socket.receive_from()
        assert 'data-version="1"' in pushed
        panel = parse(pushed).find("div", id="clock-panel")
        notices = panel.find("ul", cls="clock-panel__notices").find_all("li")
        assert any(li.text.endswith(NOTICE) for li in notices)
        forms = panel.find_all("form", cls="clock-extend")
        if user in (next_mover, charlie):
            assert forms == []
        else:
            (form,) = forms
            assert form.find("input", name="seat").attrs["value"] == str(next_seat.position)
    for socket in sockets.values():
        await socket.disconnect()
    await sync_to_async(connections.close_all)()
