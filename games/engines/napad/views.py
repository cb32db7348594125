"""What one seat (or a spectator) may see of a To jest napad! table.

Public: the train, played cards with the half that is up, totals per colour, passes, hand,
hideout and treasury sizes, cards in the box, captured-wagon counts, the marker and the turn,
and the table's components (every gang's printed cards and the wagons, as the ruleset lists
them: what is in the box, not where it is).
Private to a seat: its hand and the values of its own captured wagons. Never shown: other
hands, the order of any hideout or treasury stack, the seed.
"""

from __future__ import annotations

from typing import Any

from .config import CARGO_OF_COLOUR, CARGOES, COLOURS

State = dict[str, Any]


def card_public(deck: list[list[list[Any]]], card: int) -> dict[str, Any]:
    """A gang card with both halves, as its owner (or the table, once played) sees it."""
    return {
        "id": card,
        "halves": [
            {"colour": colour, "cargo": CARGO_OF_COLOUR[colour], "value": value, "bullets": bullets}
            for colour, value, bullets in deck[card]
        ],
    }


def wagon_public(state: State, wagon_id: int) -> dict[str, Any]:
    """A wagon face up, as it stands on the train (or in a hand of loot that may be seen)."""
    colour, value, bullets = state["wagons"][wagon_id]
    return {
        "id": wagon_id,
        "colour": colour,
        "cargo": CARGO_OF_COLOUR[colour],
        "value": value,
        "bullets": bullets,
    }


def _played_card(deck: list[list[list[Any]]], card: int, colour: str) -> dict[str, Any]:
    """A played card: both halves (``card_public``), and the colour, value and bullets of the
    half it was sent with."""
    shown = card_public(deck, card)
    for half in shown["halves"]:
        if half["colour"] == colour:
            shown.update(colour=colour, value=half["value"], bullets=half["bullets"])
            return shown
    raise ValueError(f"card {card} has no {colour} half")


def view(engine: Any, state: State, seat: int | None, *, for_board: bool = False) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) may see. ``for_board``: without what the board
    never draws — the faces of the cards out of the game and the table's ``components``,
    material for search bots and the API (``NapadEngine.board_view``)."""
    players = state["players"]
    rules = state["rules"]
    over = state["phase"] == "over"
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < players):
        raise ValueError(f"seat must be 0..{players - 1} or None")
    wagons = state["wagons"]
    seats = []
    totals_by_colour = {colour: [0] * players for colour in COLOURS}
    for index in range(players):
        deck = state["decks"][index]
        played = [_played_card(deck, card, colour) for card, colour in state["played"][index]]
        totals = dict.fromkeys(COLOURS, 0)
        for card in played:
            totals[card["colour"]] += card["value"]
        for colour in COLOURS:
            totals_by_colour[colour][index] = totals[colour]
        loot = state["captured"][index]
        by_colour = dict.fromkeys(COLOURS, 0)
        for wagon_id in loot:
            by_colour[wagons[wagon_id][0]] += 1
        # Everyone saw the wagons on the train, but only the owner may look at them afterwards
        # unless the table opened captures (or the game is over and the end screen shows all).
        sees_loot = index == seat or rules["public_captures"] or over
        shown_seat = {
            "seat": index,
            "gang": state["gangs"][index],
            "is_viewer": index == seat,
            "is_marker": index == state["marker"],
            "is_turn": index == state["turn"],
            "passed": state["passed"][index],
            "hand_size": len(state["hands"][index]),
            "hideout_size": len(state["hideouts"][index]),
            "played": played,
            "totals": totals,
            "captured_count": len(loot),
            "captured_by_colour": by_colour,
            "captured": [wagon_public(state, w) for w in loot] if sees_loot else None,
        }
        if not for_board:
            # Late in a game three dozen cards, each with its halves: not for every board.
            out = sorted(state["out"][index])
            shown_seat["out_of_game"] = [card_public(deck, card) for card in out]
        seats.append(shown_seat)
    hand = None
    legal = []
    if seat is not None:
        deck = state["decks"][seat]
        hand = [card_public(deck, card) for card in state["hands"][seat]]
        legal = engine.legal_actions(state, seat)
    shown = {
        "game": "napad",
        "viewer": seat,
        "players": players,
        "round": state["round"],
        "rounds": rules["rounds"],
        "phase": state["phase"],
        "over": over,
        "marker": state["marker"],
        "marker_must_play": state["marker_must_play"],
        "turn": state["turn"],
        "to_move": engine.to_move(state),
        "rules": dict(rules),
        "train": [wagon_public(state, w) for w in state["train"]],
        "treasury": {cargo: len(stack) for cargo, stack in zip(CARGOES, state["treasury"])},
        "totals": totals_by_colour,
        "seats": seats,
        "hand": hand,
        "legal_actions": legal,
    }
    if not for_board:
        shown["components"] = components(state)
    return shown


def components(state: State) -> dict[str, Any]:
    """The printed gang cards of every seat and the wagon table, as ``[colour, value, bullets]``
    lists (copies): public game material, needed by anyone (a search bot) who wants to reason
    about which cards and wagons are still unseen."""
    return {
        "gang_cards": [[[list(half) for half in card] for card in deck] for deck in state["decks"]],
        "wagons": [list(wagon) for wagon in state["wagons"]],
    }
