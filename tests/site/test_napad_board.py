"""To jest napad!'s board and hand as a member sees them (templates/games/napad/board.html and
hands.html): the round line, the train, each gang's seat — name, gang, badges, a bot's "since",
counts, captured wagons, the cards it played by colour — and the hand's buttons with the page's
CSRF token, every value escaped, in every language the club speaks. The HTML is parsed and its
texts, structure and accessible names compared with the board's data, on real boards of played
games (each seat's view and a spectator's)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext, ngettext

from games.engines import get_engine
from games.table.boards import DECORATORS, action_key, hand_named
from games.templatetags.board_labels import cargo_name, gang_name, phase_name
from games.templatetags.when_tags import on_date
from tests.markupkit import Element, csrf_field, parse, squash

LANGUAGES = [code for code, _name in settings.LANGUAGES]
BOARD = "games/napad/board.html"
HAND = "games/napad/hand.html"
# Names a member may choose: shown as they are, never markup.
NAMES = ["Ala", "<b>Bob</b>", 'Ćma & "Co"', "O'Neil"]
SINCE = datetime(2026, 11, 30, 18, 5, tzinfo=UTC)
ACT_URL = "/games/7/act/?a&b"
TOKEN = "t0k3n<&>"


# -- boards of played games ------------------------------------------------------------------


def _boards(games: int = 3, players: int = 4):
    """Every seat's (and a spectator's) decorated board view at each step of a few games
    played at random, one seat played by a bot since ``SINCE``."""
    engine = get_engine("napad")
    config = engine.default_config()
    for number in range(games):
        rng = random.Random(f"seats-{number}")
        state = engine.setup(config, players, seed=f"seats-{number}")
        while not engine.is_over(state):
            for viewer in [None, *range(players)]:
                view = engine.view(state, viewer)
                for seat_view in view["seats"]:
                    seat_view["name"] = NAMES[seat_view["seat"]]
                    seat_view["stand_in_since"] = SINCE if seat_view["seat"] == 2 else None
                legal = engine.legal_actions(state, viewer) if viewer is not None else []
                DECORATORS["napad"](view, {action_key(action): action for action in legal})
                yield view
            mover = engine.to_move(state)[0]
            action = rng.choice(engine.legal_actions(state, mover))
            state, _events = engine.apply(state, mover, action)
        end = engine.view(state, 0)  # the end: no badges
        for seat_view in end["seats"]:
            seat_view["name"] = NAMES[seat_view["seat"]]
        DECORATORS["napad"](end, {})
        yield end


def _hand_context(view, number):
    context = {"view": view, "act_url": ACT_URL, "game": {"version": number}}
    if number % 2:
        context["csrf_input"] = csrf_field(TOKEN)  # as the backend gives it with the request
    return context


# -- the seats -------------------------------------------------------------------------------


def _check_played_card(element: Element, card: dict, seat: int) -> None:
    assert element.tag == "div"
    assert element.classes == ["gang-card", "gang-card--played", f"gang-card--up-{card['colour']}"]
    assert element.attrs["data-flip"] == f"card-{seat}-{card['id']}"
    assert element.attrs["role"] == "img" and element.attrs["aria-label"] == card["label"]
    halves = element.kids()
    assert len(halves) == len(card["halves"])
    for drawn, half in zip(halves, card["halves"]):
        down = [] if half["colour"] == card["colour"] else ["is-down"]
        assert drawn.classes == ["gang-card__half", f"gang-card__half--{half['colour']}", *down]
        assert drawn.find("span", cls="gang-card__value").text == str(half["value"])
        bullets = drawn.find_all("span", cls="gang-card__bullets")
        if half.get("bullets"):
            assert bullets[0].text == f"• {half['bullets']}"
            assert bullets[0].attrs["aria-hidden"] == "true"
        else:
            assert bullets == []


def _check_seat(element: Element, seat: dict, over: bool) -> None:
    number = seat["seat"]
    assert element.attrs["data-mark"] == f"seat-{number}"
    expected = ["napad-seat"]
    expected += ["is-turn"] if seat["is_turn"] and not over else []
    expected += ["is-me"] if seat["is_viewer"] else []
    expected += ["has-passed"] if seat["passed"] and not over else []
    assert element.classes == expected
    heading = element.find("h3", cls="napad-seat__name")
    assert heading.children[0].strip() == seat["name"]
    assert heading.find("small", cls="gang").text == gang_name(seat["gang"])
    badges = {b.classes[1]: b for b in heading.find_all("span", cls="badge")}
    shown = {
        "badge--marker": seat["is_marker"] and not over,
        "badge--turn": seat["is_turn"] and not over,
        "badge--passed": seat["passed"] and not over,
        "badge--bot": bool(seat.get("stand_in_since")),
    }
    assert set(badges) == {badge for badge, on in shown.items() if on}
    if "badge--marker" in badges:
        assert badges["badge--marker"].attrs["title"] == gettext("Starting player marker")
        assert badges["badge--marker"].text == f"★ {gettext('marker')}"
    if "badge--turn" in badges:
        assert badges["badge--turn"].text == gettext("to move")
    if "badge--passed" in badges:
        assert badges["badge--passed"].text == gettext("passed")
    if "badge--bot" in badges:
        # The moment as the site's dates show it (a <time> element, games/templatetags/when_tags).
        moment = parse(on_date(seat["stand_in_since"]))
        since = gettext("since %(since)s") % {"since": moment.text}
        assert badges["badge--bot"].text == squash(f"{gettext('bot')} · {since}")
        assert badges["badge--bot"].find("time").attrs == moment.find("time").attrs
    counts = element.find("p", cls="napad-seat__counts")
    assert counts.attrs["data-mark"] == f"captured-{number}"
    words = [
        ngettext("%(cards)s card in hand", "%(cards)s cards in hand", seat["hand_size"])
        % {"cards": seat["hand_size"]},
        ngettext("%(cards)s in the hideout", "%(cards)s in the hideout", seat["hideout_size"])
        % {"cards": seat["hideout_size"]},
        ngettext("%(wagons)s wagon captured", "%(wagons)s wagons captured", seat["captured_count"])
        % {"wagons": seat["captured_count"]},
    ]
    by_colour = [(c, n) for c, n in seat["captured_by_colour"].items() if n]
    tail = f" ({''.join(str(n) for _c, n in by_colour)})" if seat["captured_count"] else ""
    assert counts.text == squash(" · ".join(words) + tail)
    dots = [
        (s.find("span", cls="dot").classes[1], s.text)
        for s in counts.find_all("span", cls="by-colour")
    ]
    assert dots == [(f"dot--{c}", str(n)) for c, n in by_colour]
    loot = element.find_all("p", cls="napad-seat__loot")
    if seat["captured"]:
        whose = gettext("Your wagons") if seat["is_viewer"] else gettext("Wagons")
        assert loot[0].children[0].strip() == f"{whose}:"
        chips = [(c.classes, c.attrs["data-flip"], c.text) for c in loot[0].find_all("span")]
        assert chips == [
            (["chip", f"chip--{w['colour']}"], f"wagon-{w['id']}", str(w["value"]))
            for w in seat["captured"]
        ]
    else:
        assert loot == []
    groups = element.find_all("div", cls="played__group")
    assert len(groups) == len(seat["played_by_colour"])
    for drawn, group in zip(groups, seat["played_by_colour"]):
        assert drawn.classes == ["played__group", f"played__group--{group['colour']}"]
        assert drawn.attrs["data-mark"] == f"played-{number}-{group['colour']}"
        assert drawn.find("span", cls="played__total").text == (
            f"{cargo_name(group['cargo'])}: {group['total']}"
        )
        cards = drawn.kids("div")
        assert len(cards) == len(group["cards"])
        for card_element, card in zip(cards, group["cards"]):
            _check_played_card(card_element, card, number)
    if not seat["played_by_colour"]:
        assert element.find_all("div", cls="played") == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_seat_shows_its_gang_badges_counts_loot_and_played_cards(language):
    boards = 0
    badges = set()
    with translation.override(language):
        for view in _boards():
            board = parse(render_to_string(BOARD, {"view": view}, using="jinja2"))
            seats = board.find("ul", cls="napad-seats").kids("li")
            assert len(seats) == len(view["seats"])
            for element, seat in zip(seats, view["seats"]):
                _check_seat(element, seat, view["over"])
                badges.update(b.classes[1] for b in element.find_all("span", cls="badge"))
            boards += 1
    assert boards > 300
    assert badges == {"badge--marker", "badge--turn", "badge--passed", "badge--bot"}


# What a screen reader hears of a card played with its gold half up (value 6).
GOLD_6_UP = {"en": "gold 6 up", "pl": "złoto 6 do góry"}


@pytest.mark.parametrize("language", ["en", "pl"])
def test_each_seats_played_cards_are_grouped_by_colour_and_named_by_the_half_up(language):
    """The groups the seats show (yellow, red, green; each with its cargo, its cards in the
    order played, and its total) and each played card's name for a screen reader, said in
    the reader's language with the value of the half sent up, on every board of played
    games."""
    labels = set()
    with translation.override(language):
        for view in _boards(games=2):
            for seat in view["seats"]:
                expected = []
                for colour in ("yellow", "red", "green"):
                    cards = [card for card in seat["played"] if card["colour"] == colour]
                    if cards:
                        up = [h for h in cards[0]["halves"] if h["colour"] == colour][0]
                        total = sum(card["value"] for card in cards)
                        expected.append((colour, up["cargo"], [c["id"] for c in cards], total))
                groups = [
                    (group["colour"], group["cargo"], [c["id"] for c in group["cards"]])
                    for group in seat["played_by_colour"]
                ]
                totals = [group["total"] for group in seat["played_by_colour"]]
                assert [(*group, total) for group, total in zip(groups, totals)] == expected
                for card in seat["played"]:
                    up = [h for h in card["halves"] if h["colour"] == card["colour"]][0]
                    assert str(up["value"]) in card["label"]
                    labels.add(card["label"])
    assert GOLD_6_UP[language] in labels
    assert len(labels) >= 15  # of 18: three cargoes, values 2 to 7


def test_member_names_are_shown_as_text_never_markup():
    view = next(_boards(games=1))
    html = render_to_string(BOARD, {"view": view}, using="jinja2")
    assert "<b>Bob</b>" not in html and "&lt;b&gt;Bob&lt;/b&gt;" in html
    names = [h.children[0].strip() for h in parse(html).find_all("h3", cls="napad-seat__name")]
    assert names == NAMES


def test_the_seats_speak_polish():
    view = next(v for v in _boards(games=1) if v["viewer"] == 0 and v["seats"][0]["captured"])
    with translation.override("pl"):
        board = parse(render_to_string(BOARD, {"view": view}, using="jinja2"))
    loot = [p.children[0].strip() for p in board.find_all("p", cls="napad-seat__loot")]
    assert loot[0] == "Twoje wagony:" and all(text == "Wagony:" for text in loot[1:])
    marker = board.find("span", cls="badge--marker")
    assert marker.attrs["title"] == "Znacznik gracza rozpoczynającego"
    assert marker.text == "★ znacznik"
    text = board.text
    assert "w ręce" in text and "Starting player" not in text and "Your wagons" not in text


# A played card an organiser's deck may name anything: escaped, never markup.
ODD_PLAYED = {
    "id": 7,
    "colour": 'bl"ue',
    "label": "<b>złoto</b> & 5",
    "halves": [
        # As games/table/boards.py napad_decorate marks them: the half not up is down.
        {"colour": 'bl"ue', "value": "<5>", "bullets": None, "down": False},
        {"colour": "red", "value": 1200, "bullets": 2, "down": True},
    ],
}


def test_an_odd_played_card_is_shown_as_text():
    seat = {
        "seat": 2,
        "name": "Ala",
        "gang": "<i>gang</i>",
        "is_turn": False,
        "is_viewer": False,
        "passed": False,
        "is_marker": False,
        "hand_size": 1,
        "hideout_size": 0,
        "captured_count": 0,
        "captured_by_colour": {},
        "captured": [],
        "played_by_colour": [
            {"colour": 'bl"ue', "cargo": "<x>", "cards": [ODD_PLAYED], "total": 5}
        ],
    }
    view = {"round": 1, "rounds": 3, "phase": "play", "seats": [seat], "train": []}
    html = render_to_string(BOARD, {"view": view}, using="jinja2")
    assert "<b>" not in html and "<5>" not in html and "<x>" not in html and "<i>" not in html
    board = parse(html)
    _check_seat(board.find("li", cls="napad-seat"), seat, over=False)
    # Numbers as they are: the site groups no thousands.
    assert board.find_all("span", cls="gang-card__value")[1].text == "1200"


# -- the train and the round line ------------------------------------------------------------


def _check_train(board: Element, view: dict) -> None:
    train = board.find("ol", cls="train")
    assert train.attrs["aria-label"] == gettext("The train, locomotive first")
    loco, *wagons = train.kids("li")
    assert loco.classes == ["train__loco"] and loco.attrs["aria-label"] == gettext("Locomotive")
    if not view["train"]:
        assert [w.classes for w in wagons] == [["train__empty"]]
        assert wagons[0].text == gettext("No wagons on the train.")
        return
    assert len(wagons) == len(view["train"])
    for element, wagon in zip(wagons, view["train"]):
        assert element.classes == ["wagon", f"wagon--{wagon['colour']}"]
        assert element.attrs["data-flip"] == f"wagon-{wagon['id']}"
        assert element.attrs["data-mark"] == f"wagon-{wagon['id']} wagons-{wagon['colour']}"
        assert element.find("svg").attrs["aria-hidden"] == "true"
        assert element.find("text", cls="wagon__value").text == str(wagon["value"])
        label = f"{cargo_name(wagon['cargo'])} {wagon['value']}"
        if wagon.get("bullets"):
            bullets = wagon["bullets"]
            label += " · " + ngettext("%(bullets)s bullet", "%(bullets)s bullets", bullets) % {
                "bullets": bullets
            }
        assert element.find("span", cls="wagon__label").text == label


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_round_line_and_the_train_show_the_board(language):
    trains, phases = set(), set()
    with translation.override(language):
        for view in _boards():
            board = parse(render_to_string(BOARD, {"view": view}, using="jinja2"))
            root = board.find("div", cls="napad-board")
            meta = root.kids()[0]
            assert meta.classes == ["board__meta"]
            if view["over"]:
                phase = gettext("game over")
            elif view["phase"] == "robbery":
                phase = gettext("It's a robbery!")
            else:
                phase = phase_name(view["phase"], "napad")
            treasury = ", ".join(f"{cargo_name(c)} {n}" for c, n in view["treasury"].items())
            round_text = gettext("Round %(round)s of %(rounds)s") % {
                "round": view["round"],
                "rounds": view["rounds"],
            }
            wagons_left = gettext("Wagons left in the treasury")
            assert meta.text == squash(f"{round_text} · {phase} · {wagons_left}: {treasury}")
            _check_train(board, view)
            trains.add(len(view["train"]))
            phases.add("over" if view["over"] else view["phase"])
    assert 0 in trains and len(trains) > 3  # the empty train too
    assert {"robbery", "over"} <= phases


def test_an_odd_board_and_wagon_are_shown_as_text():
    odd_wagon = {"colour": 'x"y', "id": "<1>", "value": 4, "cargo": "<b>", "bullets": 2}
    view = {
        "round": "<1>",
        "rounds": 3,
        "phase": "<p>",
        "treasury": {"gold": 2, "<x>": 1},
        "train": [odd_wagon],
        "seats": [],
    }
    for language in ("en", "pl"):
        with translation.override(language):
            html = render_to_string(BOARD, {"view": view}, using="jinja2")
            board = parse(html)
            _check_train(board, view)
    assert "<p>" not in html and "<x>" not in html and "<b>" not in html and "<1>" not in html
    assert board.find("p", cls="board__meta").text.startswith("Runda <1> z 3 · <p> ·")


def test_the_train_speaks_polish():
    view = next(v for v in _boards(games=1) if v["train"])
    view["train"][0]["bullets"] = 2  # a variant's wagon with bullets
    with translation.override("pl"):
        board = parse(render_to_string(BOARD, {"view": view}, using="jinja2"))
        empty = parse(render_to_string(BOARD, {"view": {"train": [], "seats": []}}, using="jinja2"))
    labels = " ".join(s.text for s in board.find_all("span", cls="wagon__label"))
    assert "złoto" in labels or "dynamit" in labels or "pieniądze" in labels
    assert labels.split(" · ")[1].startswith("2 kule")
    assert "gold" not in labels and "bullet" not in labels
    assert empty.find("li", cls="train__empty").text == "W pociągu nie ma wagonów."
    assert board.find("ol", cls="train").attrs["aria-label"] != "The train, locomotive first"


# -- the hand --------------------------------------------------------------------------------


def _check_hand_card(element: Element, card: dict, viewer, csrf: str | None) -> int:
    """One card of a hand; returns how many of its halves are buttons."""
    assert element.tag == "li" and element.classes == ["gang-card"]
    assert element.attrs["data-flip"] == f"card-{viewer}-{card['id']}"
    halves = element.kids()
    assert len(halves) == len(card["halves"])
    buttons = 0
    for drawn, half in zip(halves, card["halves"]):
        assert drawn.classes == ["gang-card__half", f"gang-card__half--{half['colour']}"]
        assert drawn.find("span", cls="gang-card__value").text == str(half["value"])
        assert drawn.find("span", cls="gang-card__cargo").text == cargo_name(half["cargo"])
        bullets = drawn.find_all("span", cls="gang-card__bullets")
        assert len(bullets) == (1 if half.get("bullets") else 0)
        if bullets:
            assert bullets[0].text == f"• {half['bullets']}"
        if half.get("action"):
            buttons += 1
            assert drawn.tag == "form" and drawn.attrs["method"] == "post"
            assert drawn.attrs["action"] == drawn.attrs["hx-post"] == ACT_URL
            assert drawn.attrs["hx-target"] == "#game-live"
            assert drawn.attrs["hx-swap"] == "outerHTML"
            inputs = {i.attrs["name"]: i.attrs["value"] for i in drawn.find_all("input")}
            assert inputs.pop("action") == half["action"]
            assert inputs.pop("version").isdigit()
            assert inputs == ({"csrfmiddlewaretoken": csrf} if csrf else {})
            button = drawn.find("button", cls="gang-card__send")
            label = gettext("Send it with %(cargo)s %(value)s up") % {
                "cargo": cargo_name(half["cargo"]),
                "value": half["value"],
            }
            assert button.attrs["aria-label"] == label
            assert button.attrs["data-names"] == (
                f"wagons-{half['colour']} played-{viewer}-{half['colour']}"
            )
            if bullets:
                assert bullets[0].attrs["aria-hidden"] == "true"
        else:
            assert drawn.tag == "div" and drawn.find_all("button") == []
            if bullets:
                assert bullets[0].attrs["title"] == ngettext(
                    "%(bullets)s bullet", "%(bullets)s bullets", half["bullets"]
                ) % {"bullets": half["bullets"]}
    return buttons


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hand_shows_each_card_a_button_on_each_half_that_may_be_sent(language):
    buttons = passes = empty = 0
    with translation.override(language):
        for number, view in enumerate(_boards(games=2)):
            context = _hand_context(view, number)
            hand = parse(render_to_string(HAND, context, using="jinja2")).find("div", cls="hand")
            assert hand.classes == ["hand", "hand--napad"]
            assert hand.find("h2", cls="decision__title").text == gettext("Your hand")
            if view.get("hand"):
                cards = hand.find("ul", cls="hand__cards")
                assert cards.attrs["aria-label"] == gettext(
                    "Your cards: send one with the half you choose up"
                )
                assert len(cards.kids("li")) == len(view["hand"])
                for element, card in zip(cards.kids("li"), view["hand"]):
                    buttons += _check_hand_card(
                        element, card, view["viewer"], TOKEN if "csrf_input" in context else None
                    )
            else:
                assert hand.find_all("ul") == []
                assert hand.find("p").text == gettext("No cards in hand.")
                empty += 1
            forms = hand.find_all("form", cls="hand__pass")
            if view.get("pass_action"):
                inputs = {i.attrs["name"]: i.attrs["value"] for i in forms[0].find_all("input")}
                assert inputs["action"] == view["pass_action"]
                assert inputs["version"] == str(number)
                assert forms[0].attrs["hx-post"] == ACT_URL
                button = forms[0].find("button")
                assert button.classes == ["button", "button--quiet", "button--small"]
                assert button.text == gettext("Pass")
                passes += 1
            else:
                assert forms == []
            # No move the viewer may not make has a button: every form is a legal move.
            assert len(hand.find_all("form")) == sum(
                1 for card in view.get("hand") or () for half in card["halves"] if half["action"]
            ) + bool(view.get("pass_action"))
    assert buttons > 100 and passes > 0 and empty > 0


def test_the_csrf_token_and_the_url_are_escaped():
    view = next(v for v in _boards(games=1) if v.get("hand") and v["is_my_turn"])
    html = render_to_string(HAND, _hand_context(view, 1), using="jinja2")
    assert "t0k3n&lt;&amp;&gt;" in html and TOKEN not in html
    assert 'action="/games/7/act/?a&amp;b"' in html


def test_the_replays_every_hand_shows_the_tables_hand_cards():
    """After the end, the replay shows each seat's hand with the same cards as the table's
    hand, without a button."""
    engine = get_engine("napad")
    state = engine.setup(engine.default_config(), 3, seed="replay-hands")
    for seat in range(3):
        hand = hand_named("napad", engine.view(state, seat)["hand"])
        html = render_to_string(
            "games/napad/hands.html",
            {"hand": hand, "seat": {"viewer": seat, "hand": hand}},
            using="jinja2",
        )
        cards = parse(html).find("ul", cls="hand__cards").kids("li")
        assert len(cards) == len(hand) > 0
        for element, card in zip(cards, hand):
            assert _check_hand_card(element, card, seat, None) == 0
    with translation.override("en"):
        nothing = parse(
            render_to_string("games/napad/hands.html", {"hand": [], "seat": {}}, using="jinja2")
        )
    assert nothing.find("p").text == "No cards in hand."
