"""The secrets scanner: what one seat must not know at one moment, and a search of anything
the site sent that seat (HTML pages, fragments, API JSON, WebSocket messages) for it.

Secrets are taken from the true, stored state at that moment, minus whatever the seat may
legitimately see (its own ``engine.view``, its own private log lines), and searched for in
forms that cannot occur in an honest page, so a hit is a leak and not a coincidence:

- To jest napad!: other seats' hand cards as the card markup draws an unplayed card (the
  card's id *and* its first half's colour and value), and as the card's JSON; the texts of
  other seats' private log lines (what they drew, what they captured).
- Colt Express: other seats' hands (the hand markup may list only the seat's own cards; a
  JSON ``hand`` may only be its own), the kind of a face-down card still hidden (the pile's
  markup and JSON, position by position), purse values of other bandits (a loot's worth in
  any row of the bandits table but the viewer's own, ``purse_values``/``loot_value`` of
  another seat in JSON) and the raw purse tokens the engine keeps
  on the floors and in others' loot, the hidden Time Machine spot (the hidden bandit drawn
  in a car, a JSON ``car`` for a hidden bandit, "You hide under …"), other seats' private
  log lines, and the round cards still to come.
- Both: the seed before the end, and keys only the stored engine state has (a serialised
  state).
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from markupsafe import escape

from games.engines import get_engine
from games.models import Game, GameEvent
from games.selectors.gamelog import event_text, event_texts
from games.selectors.naming import seat_names
from games.templatetags.board_labels import colt_card_name

# Keys of a stored engine state that no view has (views say "hand", "hand_size", ...).
STATE_ONLY_KEYS = ('"hands": [', '"decks": [', '"hideouts": [', '"round_deck": [', '"tm_loot": [')

_SPACE = re.compile(r"\s+")
_PILE_ITEM = re.compile(r'<li class="pile__card([^"]*)"[^>]*>(.*?)</li>', re.S)
# An unplayed gang card as the markup draws it (games/napad/cards.html hand_card): the hand on
# the table page (each half a form or a plain half) and the replay's hands: id, first colour,
# value.
_NAPAD_HAND_CARD = re.compile(
    r'<li class="gang-card" data-flip="card-\d+-(\d+)">\s*<(?:form|div)[^>]*'
    r'class="gang-card__half gang-card__half--(\w+)".*?<span class="gang-card__value">(\d+)</span>',
    re.S,
)
_BANDIT_ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)
_ACTION_CARD_NAME = re.compile(r'<span class="action-card__name">(.*?)</span>', re.S)


def _squash(text: str) -> str:
    return _SPACE.sub(" ", text)


def _colt_card_name(card: str) -> str:
    # As the table's templates (Jinja2) write it.
    return _squash(str(escape(colt_card_name(card)))).strip()


@dataclass
class Secrets:
    """What ``viewer`` (a seat, or ``None`` for a spectator) must not find anywhere."""

    viewer: int | None
    needles: list[tuple[str, str]] = field(default_factory=list)  # (what, exact text)
    # Colt Express structure: pile positions whose kind is hidden from the viewer, the
    # viewer's own hand (names), the hidden bandits (seat, css class), other seats.
    hidden_pile: set[int] = field(default_factory=set)
    own_hand: list[str] | None = None
    own_hand_json: str | None = None
    own_css: str | None = None
    own_napad_cards: Counter | None = None
    hidden_bandits: list[tuple[int, str]] = field(default_factory=list)
    others: set[int] = field(default_factory=set)

    def add(self, what: str, needle: str) -> None:
        """``needle`` is searched for as it is; an empty one only names what is checked."""
        self.needles.append((what, needle))

    def categories(self) -> set[str]:
        found = {what for what, _needle in self.needles}
        if self.hidden_pile:
            found.add("face-down card")
        if self.hidden_bandits:
            found.add("hidden Time Machine spot")
        return found


def secrets_for(game: Game, viewer: int | None, state: dict | None = None) -> Secrets:
    """The secrets of ``viewer`` in ``game`` as it is stored now (or, with ``state``, at
    that earlier moment of the game: what a board of that moment must not show)."""
    engine = get_engine(game.kind)
    state = engine.from_json(game.state) if state is None else state
    secrets = Secrets(viewer=viewer, others=set(range(game.seats_count)) - {viewer})
    if game.status != Game.Status.FINISHED:
        secrets.add("seed", game.seed)
    if engine.is_over(state):
        return secrets
    for key in STATE_ONLY_KEYS:
        secrets.add("serialised state", key)
    _private_log_lines(game, viewer, secrets)
    if game.kind == "napad":
        _napad_secrets(engine, state, viewer, secrets)
    else:
        _colt_secrets(engine, state, viewer, secrets)
    return secrets


def _private_log_lines(game: Game, viewer: int | None, secrets: Secrets) -> None:
    """Another seat's private line, as its seat reads it ("You draw ...") and as the others
    read it once the game is over ("Bob draws ..."), with and without the members' names."""
    events = list(GameEvent.objects.filter(game=game).order_by("seq"))
    names = seat_names(game)
    allowed = {
        text
        for event in events
        for who in (None, names)
        for text in event_texts(event, viewer, names=who, kind=game.kind)
    }
    for event in events:
        for private in event.private_events:
            if viewer in private.get("private_to", ()):
                continue
            for who in (None, names):
                for others in (False, True):
                    text = event_text(private, who, kind=game.kind, others=others)
                    if text not in allowed:
                        secrets.add("another seat's private log line", text)


def _napad_card_signature(card: dict) -> str:
    """How the card markup starts for an unplayed card (a hand): id, first colour, value."""
    first = card["halves"][0]
    return f"{card['id']}/{first['colour']}/{first['value']}"


def _napad_secrets(engine, state: dict, viewer: int | None, secrets: Secrets) -> None:
    # Every gang may hold the same cards, so one card id says nothing on its own: the hand
    # markup in a page may draw exactly the viewer's own hand, and nothing more.
    seen = engine.view(state, viewer)
    secrets.own_hand_json = json.dumps(seen["hand"], sort_keys=True)
    secrets.own_napad_cards = Counter(_napad_card_signature(c) for c in seen["hand"] or [])
    if any(state["hands"][other] for other in secrets.others):
        secrets.add("another seat's hand", "")


def _colt_secrets(engine, state: dict, viewer: int | None, secrets: Secrets) -> None:
    from games.engines.colt.data import LOCOMOTIVE
    from games.engines.colt.view import revealed_cards

    seen = engine.view(state, viewer)
    secrets.own_hand_json = json.dumps(seen["hand"], sort_keys=True)
    secrets.own_hand = sorted(_colt_card_name(card) for card in seen["hand"] or [])
    if viewer is not None:
        secrets.own_css = state["characters"][viewer].lower()
    own_purses = (
        sorted(t for t in state["loot"][viewer] if t[0] == "p") if viewer is not None else []
    )
    for other in secrets.others:
        purses = sorted(int(t[6:]) for t in state["loot"][other] if t[0] == "p")
        if purses and purses != sorted(int(t[6:]) for t in own_purses):
            secrets.add("another bandit's purses", f"(purses: {', '.join(map(str, purses))})")
        for token in state["loot"][other]:
            if token[0] == "p":
                secrets.add("purse token", f'"{token}"')
        if state["level"][other] == "hidden":
            css = state["characters"][other].lower()
            secrets.hidden_bandits.append((other, css))
            car = state["cars"][state["car"][other]]
            mine = viewer is not None and state["level"][viewer] == "hidden"
            if car != LOCOMOTIVE and not (mine and state["car"][viewer] == state["car"][other]):
                secrets.add("hidden Time Machine spot", f"You hide under car {car} ")
    for spot in [*state["inside"], *state["roof"], state["tm_loot"]]:
        for token in spot:
            if token[0] == "p":
                secrets.add("purse token", f'"{token}"')
    revealed = revealed_cards(state)
    for index, (seat, _card, face_down, _turn) in enumerate(state["pile"]):
        if face_down and index >= revealed and seat != viewer:
            secrets.hidden_pile.add(index)
    shown = set(state["round_deck"][: state["round"] + 1])
    for name in state["round_deck"][state["round"] + 1 :]:
        if name not in shown:
            secrets.add("a round card still to come", html.escape(name))


# -- the search -------------------------------------------------------------------------------


def scan(body: str | bytes, secrets: Secrets, *, where: str) -> list[str]:
    """Every leak of ``secrets`` in one thing sent to the viewer (HTML or JSON)."""
    text = body.decode() if isinstance(body, bytes) else body
    squashed = _squash(text)
    hits = [
        f"{where}: {what}: {needle[:80]!r}"
        for what, needle in secrets.needles
        if needle and (needle in text or needle in squashed or needle in html.unescape(text))
    ]
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if data is not None:
        hits += [f"{where}: {hit}" for hit in _scan_json(data, secrets)]
    else:
        hits += [f"{where}: {hit}" for hit in _scan_html(squashed, secrets)]
    return hits


def _walk(data: Any):
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from _walk(value)
    elif isinstance(data, list):
        for value in data:
            yield from _walk(value)


def _scan_json(data: Any, secrets: Secrets) -> list[str]:
    hits = []
    hidden = {seat for seat, _css in secrets.hidden_bandits}
    for node in _walk(data):
        seat = node.get("seat")
        if seat in secrets.others and ("purse_values" in node or "loot_value" in node):
            hits.append(f"purse values of seat {seat}")
        if seat in hidden and node.get("level") == "hidden" and node.get("car") is not None:
            hits.append(f"hidden spot of seat {seat}")
        hand = node.get("hand")
        if secrets.own_hand_json is not None and isinstance(hand, list):
            if json.dumps(hand, sort_keys=True) != secrets.own_hand_json:
                hits.append(f"another seat's hand: a hand that is not the viewer's: {hand}")
        pile = node.get("pile")
        if isinstance(pile, list) and secrets.hidden_pile:
            for index in secrets.hidden_pile:
                entry = pile[index] if index < len(pile) else None
                if isinstance(entry, dict) and entry.get("card") is not None:
                    hits.append(f"face-down card {index} of the pile: {entry['card']}")
    return hits


def _scan_html(page: str, secrets: Secrets) -> list[str]:
    hits = []
    if secrets.own_napad_cards is not None:
        found = _NAPAD_HAND_CARD.findall(page)
        drawn = Counter(f"{i}/{c}/{v}" for i, c, v in found)
        if drawn - secrets.own_napad_cards:
            extra = sorted(drawn - secrets.own_napad_cards)
            hits.append(f"another seat's hand: cards drawn as a hand, not the viewer's: {extra}")
    if secrets.own_hand is None:
        return hits
    names = Counter(_squash(n).strip() for n in _ACTION_CARD_NAME.findall(page))
    if names - Counter(secrets.own_hand):
        extra = sorted(names - Counter(secrets.own_hand))
        hits.append(f"another seat's hand: hand cards that are not the viewer's: {extra}")
    # The bandits table: only the viewer's own bandit's row may say what its loot is worth.
    own = f'class="bandit bandit--{secrets.own_css}"' if secrets.own_css else None
    for table in page.split('<table class="bandits">')[1:]:
        for row in _BANDIT_ROW.findall(table.split("</table>")[0]):
            if ("worth $" in row or "(purses:" in row) and (own is None or own not in row):
                hits.append("another bandit's purses: the worth of another bandit's loot")
    piles = page.split('<ol class="pile">')[1:]
    for pile in piles:
        items = _PILE_ITEM.findall(pile.split("</ol>")[0])
        for index in secrets.hidden_pile:
            if index < len(items) and "is-hidden" not in items[index][0]:
                hits.append(f"face-down card {index} of the pile shown")
    if secrets.hidden_bandits:
        train = page.split('class="colt-train"')[1:]
        for part in train:
            # The train ends where the hint about hidden bandits (or the pile) begins.
            cars = part.split('class="colt-pile"')[0].split('<p class="hint">')[0]
            for seat, css in secrets.hidden_bandits:
                if f'class="bandit bandit--{css}"' in cars:
                    hits.append(f"hidden bandit of seat {seat} drawn on the train")
    return hits
