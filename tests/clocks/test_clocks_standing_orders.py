"""Standing orders for Colt Express' Stealin': applied when the card resolves if the order
names a legal action, otherwise the player is asked — once per resolution window."""

from __future__ import annotations

from datetime import timedelta

import pytest
from clockkit import (
    colt_stealin,
    first_choice,
    legal,
    seat_of,
    standing_order,
    started_game,
    state_set,
    stealin_his_move_then_hers,
)
from django.utils import timezone

from games import tasks
from games.engines import get_engine
from games.models import Game, GameEvent, Notification, StandingOrder
from games.selectors.tables import game_state, game_with_seats
from games.services.followups import SWEEP_GRACE, followups_sweep
from games.services.play import move_play_for_seat, standing_orders_apply
from games.services.standing_orders import StandingOrderError, standing_orders_for
from games.services.turns import standing_order_set
from games.table.rendering import board_context


@pytest.fixture
def game(alice, bob, charlie):
    return started_game(alice, bob, charlie, slug="colt-express")


@pytest.fixture
def seats(game, alice, bob, charlie):
    return {user: seat_of(game, user).position for user in (alice, bob, charlie)}


def _last(game) -> GameEvent:
    return GameEvent.objects.filter(game=game).order_by("-seq").first()


def _assert_her_order_moved_her_toward_the_caboose(game, me) -> None:
    event = _last(game)
    assert event.seat == me and event.action == {"type": "move", "to": {"car": 3, "level": "roof"}}
    assert StandingOrder.objects.get(game=game).applied_seq == event.seq


CASES = [
    # (card, me at, others at, floor, loot, choice, expected action)
    (
        "move",
        (2, "roof"),
        [(1, "inside"), (3, "inside")],
        {},
        {},
        "move:locomotive",
        {"type": "move", "to": {"car": 1, "level": "roof"}},
    ),
    (
        "move",
        (2, "roof"),
        [(1, "inside"), (3, "inside")],
        {},
        {},
        "move:caboose",
        {"type": "move", "to": {"car": 3, "level": "roof"}},
    ),
    (
        "move",
        (2, "inside"),
        [(2, "roof"), (2, "roof")],
        {(3, "inside"): ["jewel"]},
        {},
        "move:loot",
        {"type": "move", "to": {"car": 3, "level": "inside"}},
    ),
    (
        "fire",
        (2, "inside"),
        [(1, "inside"), (3, "inside")],
        {},
        {"b": ["strongbox"]},
        "fire:richest",
        "b",
    ),
    ("fire", (2, "inside"), [(1, "inside"), (3, "inside")], {}, {}, "fire:seat:c", "c"),
    (
        "rob",
        (1, "inside"),
        [(3, "roof"), (3, "roof")],
        {(1, "inside"): ["purse:250", "jewel"]},
        {},
        "rob:strongbox,jewel,purse",
        {"type": "rob", "loot": "jewel"},
    ),
    (
        "punch",
        (2, "inside"),
        [(2, "inside"), (2, "inside")],
        {},
        {"b": ["jewel"], "c": ["purse:300"]},
        "punch:richest:caboose",
        "punch-b-caboose",
    ),
    (
        "marshal",
        (3, "roof"),
        [(1, "roof"), (1, "roof")],
        {},
        {},
        "marshal:locomotive",
        {"type": "marshal", "direction": "locomotive"},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[5]}" for c in CASES])
def test_each_kind_of_order_is_applied_when_legal(
    game, seats, alice, bob, charlie, case, django_capture_on_commit_callbacks
):
    card, mine, others, floor, loot, choice, expected = case
    me, b, c = seats[alice], seats[bob], seats[charlie]
    names = {"b": b, "c": c}
    at = {me: mine, b: others[0], c: others[1]}
    state = colt_stealin(
        game,
        at=at,
        pile=[(me, card)],
        floor=floor,
        loot={names[k]: v for k, v in loot.items()},
        marshal=0 if card != "marshal" else 2,
    )
    assert state["pending"] == {"seat": me, "kind": card, "card": 0}
    choice = choice.replace("seat:c", f"seat:{c}")
    if expected in ("b", "c"):
        expected = {"type": "fire", "target": names[expected]}
    elif expected == "punch-b-caboose":
        expected = {"type": "punch", "victim": b, "loot": "jewel", "direction": "caboose"}
    assert expected in [{k: v for k, v in a.items() if k != "label"} for a in legal(game)]
    version = game.version
    order = standing_order(game, alice, choice, django_capture_on_commit_callbacks)
    event = _last(game)
    assert event.seq == version + 1 and event.seat == me and not event.by_clock
    assert event.action == expected
    order.refresh_from_db()
    assert order.applied_seq == event.seq
    assert not Notification.objects.filter(player=alice.player, kind="stealin_choice").exists()


@pytest.mark.parametrize(
    ("card", "mine", "others", "choice"),
    [
        # Nowhere with loot in reach.
        ("move", (2, "inside"), [(2, "roof"), (2, "roof")], "move:loot"),
        # The chosen bandit is out of the line of fire.
        ("fire", (2, "inside"), [(1, "inside"), (3, "inside")], "fire:seat"),
        # Nothing of the ordered kinds lies here.
        ("rob", (1, "inside"), [(3, "roof"), (3, "roof")], "rob:strongbox"),
        # Victims in the caboose cannot be pushed further back.
        ("punch", (3, "inside"), [(3, "inside"), (3, "inside")], "punch:richest:caboose"),
    ],
)
def test_an_order_that_is_not_possible_falls_back_to_asking(
    game, seats, alice, bob, charlie, card, mine, others, choice, django_capture_on_commit_callbacks
):
    me, b, c = seats[alice], seats[bob], seats[charlie]
    loot = {b: ["jewel"], c: ["purse:300"]} if card == "punch" else {}
    floor = {(1, "inside"): ["purse:250", "jewel"]} if card == "rob" else {}
    colt_stealin(
        game, at={me: mine, b: others[0], c: others[1]}, pile=[(me, card)], floor=floor, loot=loot
    )
    if card == "fire":
        # Alice's order names Bob, who was in her line of fire when she gave it; then Bob
        # climbs to the roof before her card resolves.
        assert {a["target"] for a in legal(game)} == {b, c}
        choice = f"fire:seat:{b}"
        engine = get_engine("colt")
        state = engine.from_json(game.state)
        state["level"][b] = "roof"
        state_set(game, state)
        assert b not in {a["target"] for a in legal(game)}
    version = game.version
    standing_order(game, alice, choice, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    assert game.version == version, "an impossible order must not move"
    assert StandingOrder.objects.get(game=game).applied_seq is None
    # Asked instead: the usual choice is waiting, and she is told.
    assert game.to_move == [me]
    assert Notification.objects.filter(player=alice.player, kind="stealin_choice").count() == 1


def test_an_order_given_while_planning_is_applied_when_its_card_resolves(
    game, seats, alice, bob, charlie, django_capture_on_commit_callbacks
):
    me, b, c = seats[alice], seats[bob], seats[charlie]
    # Bob's Move resolves first and needs his choice; Alice's Move comes next.
    stealin_his_move_then_hers(game, me, b, c)
    rows = standing_orders_for(game, me)
    assert [row["pile_index"] for row in rows] == [1]
    assert ("move:caboose", "Move toward the caboose") in rows[0]["choices"]
    standing_order(game, alice, "move:caboose", django_capture_on_commit_callbacks, pile_index=1)
    assert not GameEvent.objects.filter(game=game).exclude(seq__lte=game.version).exists()
    with pytest.raises(StandingOrderError):
        standing_order(
            game, alice, "move:caboose", django_capture_on_commit_callbacks, pile_index=0
        )

    # Bob chooses himself; the play service's hook then carries out Alice's order.
    game.refresh_from_db()
    bob_choice = first_choice(game)
    with django_capture_on_commit_callbacks(execute=True):
        result = move_play_for_seat(
            game_id=game.pk,
            position=None,
            action=bob_choice,
            expected_version=game.version,
            user=bob,
        )
    assert result.ok
    _assert_her_order_moved_her_toward_the_caboose(game, me)


def test_choices_are_asked_once_per_resolution_window(
    game, seats, alice, bob, charlie, django_capture_on_commit_callbacks
):
    me, b, c = seats[alice], seats[bob], seats[charlie]
    colt_stealin(
        game,
        at={me: (2, "roof"), b: (1, "inside"), c: (3, "inside")},
        pile=[(me, "move"), (me, "move")],
    )
    with django_capture_on_commit_callbacks(execute=True):
        standing_orders_apply(game.pk)
    for _card in range(2):
        game.refresh_from_db()
        assert game.to_move == [me]
        choice = first_choice(game)
        with django_capture_on_commit_callbacks(execute=True):
            assert move_play_for_seat(
                game_id=game.pk,
                position=None,
                action=choice,
                expected_version=game.version,
                user=alice,
            ).ok
    assert Notification.objects.filter(player=alice.player, kind="stealin_choice").count() == 1


def test_orders_are_only_for_your_own_cards(game, seats, alice, bob, charlie):
    me, b, c = seats[alice], seats[bob], seats[charlie]
    stealin_his_move_then_hers(game, me, b, c)
    with pytest.raises(StandingOrderError):
        standing_order_set(game_id=game.pk, user=alice, pile_index=0, choice="move:caboose")
    with pytest.raises(StandingOrderError):
        standing_order_set(game_id=game.pk, user=alice, pile_index=1, choice="fire:richest")
    with pytest.raises(StandingOrderError):
        standing_order_set(game_id=game.pk, user=alice, pile_index=9, choice="move:caboose")


def test_the_game_page_offers_the_orders_form(game, seats, alice, bob, charlie, alice_client):
    me, b, c = seats[alice], seats[bob], seats[charlie]
    stealin_his_move_then_hers(game, me, b, c)
    page = alice_client.get(f"/games/{game.pk}/").content.decode()
    assert "Standing orders" in page and 'name="pile_index" value="1"' in page
    url = f"/games/{game.pk}/orders"
    assert page.count(f'<form method="post" action="{url}" hx-post="{url}"') == 1
    # Read from the board's own view of her, the page offers what the service lists alone.
    (row,) = standing_orders_for(game, me)
    for value, label in row["choices"]:
        assert f'<option value="{value}">{label}</option>' in page
    response = alice_client.post(
        f"/games/{game.pk}/orders",
        {"pile_index": "1", "choice": "move:caboose"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and "Standing order saved." in response.content.decode()
    assert StandingOrder.objects.get(game=game).preference == {"toward": "caboose"}
    alice_client.post(f"/games/{game.pk}/orders", {"pile_index": "1", "choice": ""})
    assert not StandingOrder.objects.filter(game=game).exists()


def test_an_order_whose_after_commit_hook_was_lost_is_carried_out_by_the_followups_sweep(
    game, seats, alice, bob, charlie, django_capture_on_commit_callbacks
):
    me, b, c = seats[alice], seats[bob], seats[charlie]
    stealin_his_move_then_hers(game, me, b, c)
    standing_order(game, alice, "move:caboose", django_capture_on_commit_callbacks, pile_index=1)
    game.refresh_from_db()
    bob_choice = first_choice(game)
    # Bob's choice commits, and the process dies before its after-commit hook runs (no
    # callbacks run here): Alice's card is left waiting on her order.
    result = move_play_for_seat(
        game_id=game.pk, position=None, action=bob_choice, expected_version=game.version, user=bob
    )
    assert result.ok
    game.refresh_from_db()
    assert game.to_move == [me] and game.auto_move_due_at is not None
    queued = []
    followups_sweep(
        now=timezone.now() + SWEEP_GRACE + timedelta(seconds=1),
        queue=lambda name, args: queued.append((name, args)),
    )
    assert queued == [("games.auto_move_play", (game.pk, game.version))]
    with django_capture_on_commit_callbacks(execute=True):
        tasks.auto_move_play_task(*queued[0][1])
    _assert_her_order_moved_her_toward_the_caboose(game, me)


def test_a_choice_no_order_answers_is_asked_once_and_then_owes_nothing(
    game, seats, alice, bob, charlie, django_capture_on_commit_callbacks
):
    me, b, c = seats[alice], seats[bob], seats[charlie]
    colt_stealin(
        game, at={me: (2, "roof"), b: (1, "inside"), c: (3, "inside")}, pile=[(me, "move")]
    )
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(auto_move_due_at=game.started_at)
    with django_capture_on_commit_callbacks(execute=True):
        standing_orders_apply(game.pk)
    game.refresh_from_db()
    assert game.auto_move_due_at is None
    assert Notification.objects.filter(player=alice.player, kind="stealin_choice").count() == 1


def test_the_boards_view_gives_the_same_orders_as_the_engines_own(game, seats, alice, bob, charlie):
    me, b, c = seats[alice], seats[bob], seats[charlie]
    colt_stealin(
        game,
        at={me: (2, "roof"), b: (2, "roof"), c: (1, "inside")},
        pile=[(b, "move"), (me, "fire"), (me, "rob")],
    )
    game = game_with_seats(game.pk)
    board = board_context(game, game_state(game), me)["view"]  # decorated, names given

    assert standing_orders_for(game, me, view=board) == standing_orders_for(game, me)
    assert [row["card"] for row in standing_orders_for(game, me, view=board)] == ["fire", "rob"]


@pytest.mark.parametrize("language", ["en", "pl", "pt-br"])
def test_the_orders_form_offers_each_card_its_choices_with_the_chosen_one_selected(game, language):
    # clocks/panel.html's standing orders, given orders for every kind of card (an odd label and
    # an odd bandit's name among them): one form per card, its label naming the card, its
    # choices as the service lists them, the saved order selected, every text shown as text.
    from django.template.loader import render_to_string
    from django.utils import translation
    from django.utils.translation import gettext, ngettext

    from games.services.standing_orders import order_choices
    from tests.markupkit import csrf_field, parse

    bandits = [
        {"seat": 0, "character": "Belle"},
        {"seat": 1, "character": "<b>Doc</b> & 'co'"},
        {"seat": 2, "character": "Ghost"},
    ]
    view = {"bandits": bandits}
    orders = []
    for index, card in enumerate(["move", "fire", "rob", "punch", "marshal", "floor", "move"]):
        choices = order_choices(card, view, 0)
        if not choices:
            continue
        chosen = choices[index % len(choices)][0] if index % 2 else ""
        label = "Card <i>x</i>" if index == 3 else card.title()
        orders.append(
            {"pile_index": index, "card_label": label, "choices": choices, "chosen": chosen}
        )
    assert len(orders) >= 5
    assert any("<b>Doc</b>" in label for o in orders for _v, label in o["choices"])
    url = f"/games/{game.pk}/orders"
    with translation.override(language):
        for some in (orders, orders[:1], orders[2:4]):
            for csrf in ("t0k3n<&>", None):
                values = {"panel": {"show": True, "orders": some}, "game": game}
                if csrf is not None:
                    values["csrf_input"] = csrf_field(csrf)
                html = render_to_string("clocks/panel.html", values, using="jinja2")
                details = parse(html).find("details", cls="standing-orders")
                summary = details.find("summary")
                assert summary.find("h2", id="standing-orders-title").text == gettext(
                    "Standing orders"
                )
                assert summary.find("span", cls="muted").text == ngettext(
                    "%(cards)s card of yours on the pile",
                    "%(cards)s cards of yours on the pile",
                    len(some),
                ) % {"cards": len(some)}
                assert details.find("p", cls="muted").text == gettext(
                    "Say now how each of your cards should be carried out when it resolves."
                    " If the order is not possible then, you will be asked."
                )
                items = details.find("ol", cls="standing-orders__list").find_all("li")
                assert len(items) == len(some)
                for item, order in zip(items, some, strict=True):
                    index = order["pile_index"]
                    form = item.find("form")
                    assert form.attrs["method"] == "post"
                    assert form.attrs["action"] == form.attrs["hx-post"] == url
                    assert form.attrs["hx-target"] == "#game-live"
                    tokens = form.find_all("input", name="csrfmiddlewaretoken")
                    assert [t.attrs["value"] for t in tokens] == ([csrf] if csrf else [])
                    pile = form.find("input", type="hidden", name="pile_index")
                    assert pile.attrs["value"] == str(index)
                    # The label names the select (its accessible name) and the card.
                    label = form.find("label")
                    assert label.attrs["for"] == f"order-{index}"
                    assert label.text == gettext("Card %(number)s: %(card)s") % {
                        "number": index + 1,
                        "card": order["card_label"],
                    }
                    select = form.find("select", id=f"order-{index}", name="choice")
                    options = select.find_all("option")
                    assert options[0].attrs["value"] == ""
                    assert options[0].text == gettext("Ask me when it resolves")
                    assert [(o.attrs["value"], o.text) for o in options[1:]] == [
                        (value, label) for value, label in order["choices"]
                    ]
                    selected = [o.attrs["value"] for o in options if "selected" in o.attrs]
                    assert selected == ([order["chosen"]] if order["chosen"] else [])
                    assert form.find("button", cls="button--small").text == gettext("Save")
                # Card labels and bandits' names are text, never markup.
                assert details.find_all("i") == [] and details.find_all("b") == []
