"""Helpers for the clock tests: started tables with a known clock, sweeps, Colt positions,
standing orders."""

from __future__ import annotations

from datetime import timedelta

from games.engines import get_engine
from games.models import Game, Seat
from games.services.play import move_play_for_seat
from games.services.turns import standing_order_set, turns_sweep
from tests import gamekit

NAPAD = "napad-designed-default"
COLT = "colt-express"


def started_game(
    creator, *others, slug: str = NAPAD, limit: timedelta = timedelta(hours=10), bot_seats=None
) -> Game:
    """A started game created by ``creator`` and joined by ``others`` (and bots at
    ``bot_seats``), its clock ``limit`` a turn."""
    return gamekit.started_game(creator, *others, slug=slug, limit=limit, bots=bot_seats)


def seat_of(game: Game, user) -> Seat:
    return Seat.objects.get(game=game, player__user=user)


def user_to_move(game: Game, users):
    game.refresh_from_db()
    seat = Seat.objects.select_related("player").get(game=game, position=game.to_move[0])
    return next((u for u in users if seat.player and u.pk == seat.player.user_id), None)


def legal(game: Game) -> list[dict]:
    game.refresh_from_db()
    engine = get_engine(game.kind)
    return engine.legal_actions(engine.from_json(game.state), game.to_move[0])


def play_first_legal(game: Game) -> None:
    """The seat to move plays its first legal action as the member would (not the clock)."""
    game.refresh_from_db()
    action = legal(game)[0]
    seat = Seat.objects.select_related("player__user").get(game=game, position=game.to_move[0])
    result = move_play_for_seat(
        game_id=game.pk,
        position=None,
        action={k: v for k, v in action.items() if k != "label"},
        expected_version=game.version,
        user=seat.player.user,
    )
    assert result.ok, result.message


def first_choice(game: Game) -> dict:
    """The first legal action of the seat to move, as its form sends it (no label)."""
    return {k: v for k, v in legal(game)[0].items() if k != "label"}


def sweep(now, capture) -> dict:
    """One sweep at ``now`` with on-commit work (emails, pushes) carried out."""
    with capture(execute=True):
        return turns_sweep(now=now)


def state_set(game: Game, state: dict) -> None:
    """Put a hand-made position into a running game (tests only)."""
    engine = get_engine(game.kind)
    to_move = engine.to_move(state)
    Game.objects.filter(pk=game.pk).update(state=engine.to_json(state), to_move=to_move)
    game.refresh_from_db()


def colt_stealin(game: Game, *, at: dict, pile: list, floor=None, loot=None, marshal=None):
    """Put a running Colt Express game into Stealin' with ``pile`` ([(seat, card), ...], face
    up) about to resolve: bandits ``at`` {seat: (car, level)}, loot on the ``floor``
    {(car, level): tokens}, bandits' ``loot`` {seat: tokens}. Resolves up to the first real
    choice, as the engine would."""
    from games.engines.colt import flow
    from games.engines.colt.state import clone

    engine = get_engine("colt")
    state = clone(engine.from_json(game.state))
    # Characters without powers that change these rules (Belle, Tuco, Django).
    state["characters"] = ["Doc", "Ghost", "Cheyenne", "Doc", "Ghost", "Cheyenne"][
        : state["players"]
    ]
    cars = len(state["cars"])
    state["inside"] = [[] for _ in range(cars)]
    state["roof"] = [[] for _ in range(cars)]
    state["loot"] = [[] for _ in range(state["players"])]
    for seat, (car, level) in at.items():
        state["car"][seat], state["level"][seat] = car, level
    for (car, level), tokens in (floor or {}).items():
        state[level][car] = list(tokens)
    for seat, tokens in (loot or {}).items():
        state["loot"][seat] = list(tokens)
    if marshal is not None:
        state["marshal"] = marshal
    for seat in range(state["players"]):
        state["deck"][seat] = state["deck"][seat] + state["hand"][seat]
        state["hand"][seat] = []
    state["pile"] = [[seat, card, False, 0] for seat, card in pile]
    state["phase"] = "stealin"
    state["resolving"] = 0
    state["pending"] = None
    flow.advance(state, [])
    state_set(game, state)
    return state


def stealin_his_move_then_hers(game: Game, her: int, him: int, third: int) -> dict:
    """Stealin' with two Move cards face up: ``him``'s resolves first (his choice is asked),
    ``her``'s second (pile index 1); the two on car 2's roof, ``third`` inside car 1."""
    return colt_stealin(
        game,
        at={her: (2, "roof"), him: (2, "roof"), third: (1, "inside")},
        pile=[(him, "move"), (her, "move")],
    )


def standing_order(game: Game, user, choice: str, capture, pile_index: int = 0):
    """``user`` gives a standing order for their card at ``pile_index``, on-commit work
    carried out."""
    with capture(execute=True):
        return standing_order_set(game_id=game.pk, user=user, pile_index=pile_index, choice=choice)
