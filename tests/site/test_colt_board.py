"""What a member sees of Colt Express's board and hand (templates/jinja2/games/colt/board.html,
hand.html and the macros they draw with, cards.html), read from the rendered HTML as a browser
reads it: the cars with their bandits, loot and marshal, the action pile with its face-down
cards, the bandits' table, the hand's play buttons — on real boards of played games, every
seat's and a spectator's, with and without the Time Machine, in every language the club speaks;
odd values stay text; the replay shows the live table's board."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from playkit import colt_game

from games.engines import get_engine
from games.engines.colt.data import CARD_LABELS, TURN_LABELS
from games.engines.colt.wording import ROUND_CARD_NAMES
from games.services import play
from games.table.boards import action_key, colt_decorate
from tests.markupkit import Element, parse
from tests.personakit import client_for

BOARD = "games/colt/board.html"
HAND = "games/colt/hand.html"
LANGUAGES = [code for code, _name in settings.LANGUAGES]
NAMES = ["Ala", "<b>Bob</b>", 'Ćma & "Co"', "O'Neil"]
SINCE = datetime(2026, 11, 30, 18, 5, tzinfo=UTC)


def _boards(time_machine: bool, games: int = 3, players: int = 4):
    """Every seat's (and a spectator's) decorated board at each step of games played at random."""
    engine = get_engine("colt")
    config = engine.default_config()
    if time_machine:
        config["time_machine"] = True
    for number in range(games):
        rng = random.Random(f"cars-{time_machine}-{number}")
        state = engine.setup(config, players, seed=f"cars-{number}")
        for _step in range(60):
            if engine.is_over(state):
                break
            for seat in [None, *range(players)]:
                view = engine.view(state, seat)
                legal = engine.legal_actions(state, seat) if seat is not None else []
                colt_decorate(view, {action_key(action): action for action in legal})
                for bandit in view["bandits"]:
                    bandit["name"] = NAMES[bandit["seat"]]
                    bandit["stand_in_since"] = SINCE if bandit["seat"] == 3 else None
                yield view
            mover = engine.to_move(state)[0]
            action = rng.choice(engine.legal_actions(state, mover))
            state, _events = engine.apply(state, mover, action)


def _render(name: str, context: dict) -> str:
    return render_to_string(name, context, using="jinja2")


def _card_name(card: str) -> str:
    return gettext("Bullet") if card.startswith("bullet:") else gettext(CARD_LABELS[card])


def _loot_seen(node: Element) -> dict[str, int]:
    """The loot tokens directly in a spot or a cell: {kind: count}, their titles checked."""
    titles = {
        "strongbox": gettext("strongbox ($1000)"),
        "jewel": gettext("jewel ($500)"),
        "purse": gettext("purse"),
    }
    signs = {"strongbox": "▣", "jewel": "◆", "purse": "$"}
    seen = {}
    for token in node.kids("span"):
        if "loot" not in token.classes:
            continue
        kind = token.classes[1].removeprefix("loot--")
        assert token.attrs["title"] == titles[kind]
        sign, count = token.text.split()
        assert sign == signs[kind]
        seen[kind] = int(count)
    return seen


def _loot_expected(loot) -> dict[str, int]:
    return {kind: count for kind, count in (loot or {}).items() if count}


def _check_bandits(spot: Element, bandits) -> None:
    shown = [node for node in spot.kids("span") if "bandit" in node.classes]
    assert [node.attrs["data-mark"] for node in shown] == [f"bandit-{b['seat']}" for b in bandits]
    for node, bandit in zip(shown, bandits, strict=True):
        assert node.attrs["data-flip"] == f"bandit-{bandit['seat']}"
        assert f"bandit--{bandit['css']}" in node.classes
        assert node.attrs["title"] == f"{bandit['character']} — {bandit['name']}"
        assert node.find(cls="bandit__initial").attrs["aria-hidden"] == "true"
        assert node.find(cls="bandit__initial").text == bandit["character"][:2]
        assert node.find(cls="bandit__name").text == bandit["character"]


def _check_train(board: Element, view) -> None:
    train = board.find("ol", cls="colt-train")
    assert train.attrs["aria-label"] == gettext("The train, locomotive first")
    cars = train.kids("li")
    machine = view.get("time_machine")
    if machine:
        tm = cars.pop(0)
        assert "car--time-machine" in tm.classes and tm.attrs["data-mark"] == "spot-tm"
        assert tm.find(cls="car__label").text == gettext("Time Machine")
        spot = tm.find(cls="car__spot--machine")
        assert spot.attrs["aria-label"] == gettext("Time Machine")
        _check_bandits(spot, machine["bandits"])
        assert _loot_seen(spot) == _loot_expected(machine.get("loot"))
    assert len(cars) == len(view["train"])  # one row of cars, locomotive first
    for node, car in zip(cars, view["train"], strict=True):
        assert node.attrs["data-mark"] == f"car-{car['index']}"
        assert ("car--locomotive" in node.classes) == bool(car.get("is_locomotive"))
        assert ("car--caboose" in node.classes) == bool(car.get("is_caboose"))
        label = (
            gettext("Locomotive")
            if car.get("is_locomotive")
            else gettext("Car %(name)s") % {"name": car["name"]}
        )
        assert node.find(cls="car__label").text == label
        cabooses = node.find_all(cls="car__caboose")
        assert [c.text for c in cabooses] == ([gettext("caboose")] if car.get("is_caboose") else [])
        roof, inside = node.find(cls="car__spot--roof"), node.find(cls="car__spot--inside")
        assert roof.attrs["aria-label"] == gettext("roof")
        assert inside.attrs["aria-label"] == gettext("inside")
        for spot, level in ((roof, "roof"), (inside, "inside")):
            assert spot.attrs["data-mark"] == car[level]["mark"]
            _check_bandits(spot, car[level]["bandits"])
            assert _loot_seen(spot) == _loot_expected(car[level]["loot"])
        marshals = inside.kids("span")
        marshals = [m for m in marshals if "marshal" in m.classes]
        if car.get("marshal"):
            (marshal,) = marshals
            assert marshal.attrs["title"] == gettext("The marshal")
            assert marshal.attrs["data-mark"] == "marshal" == marshal.attrs["data-flip"]
            assert marshal.text == f"★ {gettext('Marshal')}"
        else:
            assert marshals == []
        assert node.find("svg", cls="car__wheels").attrs["aria-hidden"] == "true"


def _check_pile(board: Element, view) -> None:
    piles = board.find_all(cls="colt-pile")
    if view["phase"] == "over":
        assert piles == []
        return
    (pile,) = piles
    assert pile.attrs["data-mark"] == "pile"
    heading = f"{gettext('Action pile')} ({gettext('first played resolves first')})"
    assert pile.find("h3").text == heading
    cards = pile.find_all("li", cls="pile__card")
    assert len(cards) == len(view["pile"])
    if not view["pile"]:
        assert gettext("No cards played yet this round.") in pile.text
    for node, card in zip(cards, view["pile"], strict=True):
        assert node.attrs["data-flip"] == f"pile-{card['index']}"
        assert f"bandit-edge--{card['bandit']['css']}" in node.classes
        assert ("is-resolved" in node.classes) == bool(card.get("resolved"))
        assert ("is-resolving" in node.classes) == bool(card["is_resolving"])
        assert (node.attrs.get("aria-current") == "step") == bool(card["is_resolving"])
        assert ("is-face-down" in node.classes) == bool(card.get("face_down"))
        owner = node.find("small", cls="pile__owner").text
        assert owner == card["bandit"]["character"]
        if card["card"] is None:
            # Another's face-down card: a card back, nothing of its face.
            assert "is-hidden" in node.classes
            back = node.find(cls="card-back")
            assert back.attrs["role"] == "img"
            assert back.attrs["aria-label"] == gettext("a face-down card")
            assert node.text == f"✦ {owner}"
        else:
            face = _card_name(card["card"])
            if card.get("face_down"):
                face += f" ({gettext('face down')})"
            assert node.text == f"{face} {owner}"
    pending = view.get("pending")
    lines = pile.find_all("p", cls="pending")
    if not pending:
        assert lines == []
        return
    (line,) = lines
    said = f"{gettext('Resolving')}: {pending['bandit']['name']} · {pending['bandit']['character']}"
    if (pending.get("pile_card") or {}).get("card"):
        said += f" — {_card_name(pending['pile_card']['card'])}"
    if pending["seat"] == view.get("viewer"):
        said += ". " + gettext("Choose how it resolves.")
    else:
        said += ". " + gettext("Waiting for %(name)s to choose.") % {
            "name": pending["bandit"]["name"]
        }
    assert line.text == said


def _check_bandits_table(board: Element, view) -> None:
    table = board.find("table", cls="bandits")
    heads = [th.text for th in table.find("thead").find_all("th")]
    assert heads == [
        gettext("Bandit"),
        gettext("Loot"),
        f"{gettext('Bullets left')} / {gettext('received')}",
        f"{gettext('Hand')} / {gettext('Deck')}",
    ]
    rows = table.find("tbody").kids("tr")
    assert len(rows) == len(view["bandits"])
    for row, bandit in zip(rows, view["bandits"], strict=True):
        seat = bandit["seat"]
        assert (row.attrs.get("class") == "is-me") == (seat == view.get("viewer"))
        head = row.find("th")
        assert head.attrs["scope"] == "row"
        chip = head.kids("span")[0]
        assert f"bandit--{bandit['css']}" in chip.classes
        assert chip.find(cls="bandit__name").text == bandit["character"]
        badges = [b.text for b in head.find_all(cls="badge")]
        expected = []
        if view["phase"] != "over":
            if seat == view.get("first_player"):
                expected.append(gettext("first player"))
            if seat in view.get("to_move", ()):
                expected.append(gettext("to move"))
        bot = [b.text for b in head.find_all(cls="badge--bot")]
        if bandit["stand_in_since"]:
            # A bot plays for this member since a date (formatted by the date filters).
            (since,) = bot
            assert since.startswith(f"{gettext('bot')} · ")
            expected.append(since)
        else:
            assert bot == []
        assert badges == expected
        assert head.text.startswith(f"{bandit['character']} {bandit['name']}")
        loot, bullets, cards = row.kids("td")
        assert loot.attrs["data-mark"] == f"loot-{seat}"
        assert _loot_seen(loot) == _loot_expected(bandit["loot"])
        if bandit.get("loot_value") is None:
            # Another bandit's purses: their worth is a secret.
            assert loot.find_all("small") == []
        else:
            worth = gettext("worth $%(value)s") % {"value": bandit["loot_value"]}
            if bandit.get("purse_values"):
                listed = ", ".join(str(value) for value in bandit["purse_values"])
                worth += f" ({gettext('purses')}: {listed})"
            assert loot.find("small").text == worth
        assert bullets.attrs["data-mark"] == f"bullets-{seat}"
        assert bullets.text == f"{bandit['bullets_left']} / {bandit['bullets_received']}"
        assert cards.text == f"{bandit['hand_size']} / {bandit['deck_size']}"


def _check_meta(board: Element, view) -> None:
    meta = board.find("p", cls="board__meta").text
    phases = {
        "schemin": "Schemin'",
        "stealin": "Stealin'",
        "over": "game over",
        "hide": "Time Machine",
        "pickpocket": "Stealin'",
    }
    round_line = gettext("Round %(round)s of %(rounds)s") % {
        "round": view["round"],
        "rounds": view["rounds_total"],
    }
    cards, bullets = view["round_cards_left"], view["neutral_bullets_left"]
    assert meta.split(" · ") == [
        round_line,
        gettext(phases[view["phase"]]),
        ngettext("%(cards)s round card to come", "%(cards)s round cards to come", cards)
        % {"cards": cards},
        ngettext("%(bullets)s neutral bullet left", "%(bullets)s neutral bullets left", bullets)
        % {"bullets": bullets},
    ]
    round_cards = board.find_all(cls="round-card")
    card = view.get("round_card")
    if not card or view["phase"] == "over":
        assert round_cards == []
        return
    (node,) = round_cards
    assert node.find(cls="round-card__name").text == gettext(ROUND_CARD_NAMES[card["name"]])
    turns = node.find("ol", cls="round-card__turns")
    assert turns.attrs["aria-label"] == gettext("Turns of this round")
    items = turns.kids("li")
    assert [li.text for li in items] == [gettext(TURN_LABELS[turn]) for turn in card["turns"]]
    current = [i for i, li in enumerate(items) if li.attrs.get("aria-current") == "step"]
    assert current == [i for i in range(len(items)) if i == card["turn_index"]]
    assert [i for i, li in enumerate(items) if "is-current" in li.classes] == current
    events = node.find_all(cls="round-card__event")
    if card.get("event"):
        (event,) = events
        assert event.text == f"{gettext('At the end of the round')}: {gettext(card['event'])}"
    else:
        assert events == []


def _check_hints(board: Element, view) -> None:
    hints = [p.text for p in board.kids("div")[0].kids("p") if "hint" in p.classes]
    expected = []
    if view.get("hidden_bandits"):
        chips = " ".join(b["character"] for b in view["hidden_bandits"])
        travelled = gettext(
            "travelled in the Time Machine and hides under a car nobody else knows."
        )
        expected.append(f"{chips} {travelled}")
    spot = view.get("my_hidden_spot")
    if spot:
        if spot.get("is_locomotive"):
            expected.append(
                gettext(
                    "You hide under the locomotive until Stealin' begins; nobody else knows where."
                )
            )
        else:
            expected.append(
                gettext(
                    "You hide under car %(car)s until Stealin' begins; nobody else knows where."
                )
                % {"car": spot["name"]}
            )
    assert hints == expected


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("time_machine", [False, True], ids=["plain", "time-machine"])
def test_the_board_shows_every_piece_where_the_view_puts_it(language, time_machine):
    seen: dict[str, set] = {"phase": set(), "parts": set(), "face_down": set()}
    with translation.override(language):
        for view in _boards(time_machine):
            board = parse(_render(BOARD, {"view": view}))
            (root,) = board.kids("div")
            assert "colt-board" in root.classes
            scroll = root.find(cls="train-scroll")
            assert ("train-scroll--machine" in scroll.classes) == bool(view.get("time_machine"))
            _check_meta(board, view)
            _check_train(board, view)
            _check_hints(board, view)
            _check_pile(board, view)
            _check_bandits_table(board, view)
            assert board.find(cls="train-legend").text == gettext(
                "Each car: roof above, inside below."
            )
            seen["phase"].add(view["phase"])
            seen["face_down"].update(card["card"] is None for card in view["pile"])
            seen["parts"].update(
                part
                for part in ("pending", "hidden_bandits", "my_hidden_spot", "time_machine")
                if view.get(part)
            )
    assert {"schemin", "stealin"} <= seen["phase"]
    assert "pending" in seen["parts"] and seen["face_down"] == {True, False}
    if time_machine:
        assert {"time_machine", "hidden_bandits"} <= seen["parts"]


@pytest.mark.parametrize("time_machine", [False, True], ids=["plain", "time-machine"])
def test_a_hidden_bandit_and_anothers_face_down_card_never_reach_the_board(time_machine):
    # The engine's view names neither; the board must not find them anywhere else either.
    hidden_seen = 0
    for view in _boards(time_machine):
        html = _render(BOARD, {"view": view})
        for bandit in view.get("hidden_bandits") or ():
            assert f'data-mark="bandit-{bandit["seat"]}"' not in html
            hidden_seen += 1
        board = parse(html)
        for node, card in zip(board.find_all("li", cls="pile__card"), view["pile"], strict=True):
            if card["card"] is None:
                names = {_card_name(c) for c in CARD_LABELS}
                assert not any(name in node.text for name in names)
    assert hidden_seen > 0 if time_machine else hidden_seen == 0


def _hand_context(view, number: int) -> dict:
    context = {"view": view, "act_url": "/games/7/act/?a&b", "game": {"version": number}}
    if number % 2:
        context["csrf_token"] = "t0k3n<&>"
        # What the Jinja2 backend gives a template rendered with the request.
        context["csrf_input"] = format_html(
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', context["csrf_token"]
        )
    return context


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("time_machine", [False, True], ids=["plain", "time-machine"])
def test_the_hand_offers_each_card_the_viewer_may_play(language, time_machine):
    seen = {"face_down": 0, "draw": 0, "idle": 0}
    with translation.override(language):
        for number, view in enumerate(_boards(time_machine)):
            context = _hand_context(view, number)
            hand = parse(_render(HAND, context))
            (root,) = hand.kids("div")
            assert root.classes == ["hand", "hand--colt"]
            assert root.find("h2").text == gettext("Your hand")
            hints = [p.text for p in root.kids("p") if "hint" in p.classes]
            entries = view.get("hand_cards") or []
            assert hints == (
                [gettext("Choose a card to play it.")] if view["is_my_turn"] and entries else []
            )
            if not entries:
                assert gettext("No cards in hand.") in [p.text for p in root.kids("p")]
                assert root.find_all("ul") == []
            else:
                cards = root.find("ul", cls="hand__cards")
                assert cards.attrs["aria-label"] == gettext("Your cards")
                for node, entry in zip(cards.kids("li"), entries, strict=True):
                    _check_hand_card(node, entry, context)
                    seen["face_down"] += len(entry["plays"]) == 2
                    seen["idle"] += not entry["plays"]
            draws = root.find_all("form", cls="hand__draw")
            if view["draw_action"]:
                (draw,) = draws
                _check_form(draw, view["draw_action"], context)
                assert draw.find("button").text == gettext("Draw cards instead")
                assert draw.find("button").classes == ["button", "button--quiet", "button--small"]
                seen["draw"] += 1
            else:
                assert draws == []
    assert seen["face_down"] > 10 and seen["draw"] > 0 and seen["idle"] > 0


def _check_form(form: Element, action: str, context) -> None:
    """A move's form posts the action with the page's version (and CSRF token) to the table."""
    assert form.attrs["method"] == "post"
    assert form.attrs["action"] == form.attrs["hx-post"] == context["act_url"]
    assert form.attrs["hx-target"] == "#game-live" and form.attrs["hx-swap"] == "outerHTML"
    fields = {node.attrs["name"]: node.attrs["value"] for node in form.find_all("input")}
    expected = {"action": action, "version": str(context["game"]["version"])}
    if "csrf_token" in context:
        expected["csrfmiddlewaretoken"] = context["csrf_token"]
    assert fields == expected


def _check_hand_card(node: Element, entry, context) -> None:
    assert node.attrs["data-flip"] == f"hand-{entry['position']}"
    assert ("action-card--bullet" in node.classes) == entry["is_bullet"]
    assert ("is-playable" in node.classes) == bool(entry["plays"])
    name = _card_name(entry["card"])
    forms = node.kids("form")
    if not entry["plays"]:
        assert forms == [] and node.find(cls="action-card__name").text == name
        return
    assert len(forms) == len(entry["plays"])
    for index, (form, play_) in enumerate(zip(forms, entry["plays"], strict=True)):
        _check_form(form, play_["json"], context)
        assert json.loads(form.find("input", name="action").attrs["value"]) == {
            "card": entry["card"],
            "face_down": play_["face_down"],
            "type": "play",
        }
        button = form.find("button")
        label = (
            gettext("Play %(card)s face down") if play_["face_down"] else gettext("Play %(card)s")
        )
        assert button.attrs["aria-label"] == label % {"card": name}
        if index == 0:
            assert "class" not in form.attrs
            assert button.classes == ["action-card__play"]
            assert button.find(cls="action-card__name").text == name
            shown = name + (gettext("face down") if play_["face_down"] else "")
            assert button.text == shown
        else:
            assert form.classes == ["action-card__also"]
            assert button.classes == ["button", "button--play"]
            assert button.text == gettext("face down")


# Cars and a board an organiser's names or an odd state could put on the page.
ODD_CARS = [
    {
        "index": 0,
        "is_locomotive": True,
        "name": "<b>L</b>",
        "marshal": True,
        "roof": {"mark": 'r"0', "bandits": [], "loot": {"strongbox": 1, "purse": 0}},
        "inside": {
            "mark": "i0",
            "bandits": [{"css": "x", "seat": 1, "character": "<i>Belle</i>", "name": "A&B"}],
            "loot": {"jewel": 2, "purse": 3},
        },
    },
    {"index": None, "is_caboose": True, "name": "<5>", "roof": {}, "inside": None},
    {"name": 3},
]
ODD_VIEW = {
    "phase": "<phase>",
    "round": "<1>",
    "rounds_total": 5,
    "round_cards_left": 2,
    "neutral_bullets_left": 1,
    "round_card": {"name": "<card>", "turns": ["N", "<X>", "S"], "turn_index": 1, "event": "<e>"},
    "time_machine": {"bandits": [{"css": "a&b", "seat": 1, "character": "<C>", "name": "n"}]},
    "train": ODD_CARS,
    "hidden_bandits": [{"css": "<x>", "character": "Ch & co"}],
    "my_hidden_spot": {"name": "<3>"},
    "pile": [{"card": "<c>", "bandit": {"css": '"', "character": "<o>"}, "index": 0}],
    "pending": {"bandit": {"name": "<b>N</b>", "character": "&"}, "seat": 2, "pile_card": {}},
    "viewer": 1,
    "bandits": [
        {"seat": 1, "css": "<c>", "character": "<C>", "name": "<b>me</b>", "loot": {"purse": 1},
         "loot_value": "<9>", "purse_values": ["<250>", 300], "stand_in_since": None},
    ],
    "hand_cards": [{"card": "<h>", "name": "<h>", "is_bullet": False, "position": "<p>", "plays": [
        {"json": '{"a": "<b>"}', "face_down": False, "label": "<l>", "first": True},
        {"json": "'x'", "face_down": True, "label": "<l>", "first": False}]}],
    "is_my_turn": True,
    "draw_action": '{"type": "<draw>"}',
}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "pl"])
def test_odd_values_stay_text(language):
    with translation.override(language):
        board = parse(_render(BOARD, {"view": ODD_VIEW}))
        hand = parse(_render(HAND, _hand_context(ODD_VIEW, 1)))
        # Nothing the data holds became an element.
        for tree in (board, hand):
            assert not tree.find_all("b") and not tree.find_all("i") and not tree.find_all("card")
        cars = board.find("ol", cls="colt-train").kids("li")
        assert cars[1].find(cls="car__spot--roof").attrs["data-mark"] == 'r"0'
        assert cars[2].find(cls="car__label").text.endswith("<5>")
        assert cars[1].find(cls="bandit").attrs["title"] == "<i>Belle</i> — A&B"
        assert board.find(cls="round-card__name").text == "<card>"
        assert "<phase>" in board.find(cls="board__meta").text
        assert board.find(cls="pending").text.startswith(f"{gettext('Resolving')}: <b>N</b> · &")
        assert "<b>me</b>" in board.find("tbody").text and "<250>, 300" in board.find("tbody").text
        assert board.find(cls="pile__card").classes[1] == 'bandit-edge--"'
        forms = hand.find_all("form")
        assert forms[0].find("input", name="action").attrs["value"] == '{"a": "<b>"}'
        assert forms[1].find("input", name="action").attrs["value"] == "'x'"
        assert forms[2].find("input", name="action").attrs["value"] == '{"type": "<draw>"}'
        assert hand.find("li").attrs["data-flip"] == "hand-<p>"


def test_the_board_speaks_polish():
    with translation.override("pl"):
        html = _render(BOARD, {"view": {**ODD_VIEW, "phase": "schemin"}})
    board = parse(html)
    cars = board.find("ol", cls="colt-train").kids("li")
    assert cars[1].find(cls="car__label").text == "Lokomotywa"
    assert cars[2].find(cls="car__label").text == "Wagon <5>"
    assert cars[2].find(cls="car__caboose").text == "ostatni wagon"
    assert cars[1].find(cls="car__spot--roof").attrs["aria-label"] == "dach"
    assert cars[1].find(cls="car__spot--inside").attrs["aria-label"] == "wnętrze"
    assert cars[1].find(cls="marshal").text == "★ Szeryf"
    for english in ('"roof"', '"inside"', ">caboose<", '"The marshal"', "strongbox (", "jewel ("):
        assert english not in html


@pytest.mark.django_db
def test_the_replay_shows_the_live_tables_board(alice, bob):
    """The replay's last step and the live table render the same partials: the same train,
    pile and bandits for the same seat."""
    game = colt_game(alice, bob, "colt-express-time-machine")
    engine = get_engine("colt")
    for _ in range(5):
        mover = game.seats.get(position=game.to_move[0]).player.user
        state = engine.from_json(game.state)
        action = engine.legal_actions(state, game.to_move[0])[0]
        result = play.move_submit(
            game_id=game.pk, user=mover, action=action, expected_version=game.version
        )
        assert result.ok, result.message
        game.refresh_from_db()
    client = client_for(alice)
    live = parse(client.get(f"/games/{game.pk}/").content.decode())
    replay = parse(client.get(f"/games/{game.pk}/replay?step={game.version}").content.decode())
    for part in ("colt-train", "bandits"):
        (shown_live,) = live.find_all(cls=part)
        (shown_replay,) = replay.find_all(cls=part)
        assert _outline(shown_replay) == _outline(shown_live)
    # The replay's hand is the live hand's cards, without buttons (nothing is played there).
    live_cards = [
        li.find(cls="action-card__name").text for li in live.find_all("li", cls="action-card")
    ]
    replay_hand = replay.find(cls="hand--colt")
    assert [n.text for n in replay_hand.find_all(cls="action-card__name")] == live_cards
    assert replay_hand.find_all("form") == []


def _outline(node: Element) -> tuple:
    return (
        node.tag,
        tuple(sorted(node.attrs.items())),
        node.text,
        tuple(_outline(child) for child in node.kids()),
    )
