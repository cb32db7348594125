"""Standing orders for Colt Express' Stealin': while planning, a player tells the site how
each card they played should be carried out when it resolves — Move toward the locomotive,
the caboose or the richest spot; Fire at the richest bandit or a chosen one; Robbery in a
loot order; Punch the richest (or a chosen) victim toward a side; the Marshal toward a side.

When the card resolves and its owner is asked to choose (the engine's pending choice), the
order is matched against the legal actions (:func:`standing_order_due`): if it names one, the
play service makes that move (``games.services.play.standing_orders_apply``, ``by_clock=False``;
the order records the move's ``seq`` so the log can mark it "standing order"); if not, the
player is asked as usual. Asking is batched: one
notification per player per resolution window (the round's Stealin'), not one per card.

Works over the engine contract only: ``view`` (public positions and loot counts — "richest"
never uses a secret purse value) and ``legal_actions``; the engine is not changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.engines import get_engine
from games.models import Game, Seat, StandingOrder
from games.selectors.tables import clock_known_empty, game_state, read_once
from games.text.parsing import strict_int

from .followups import auto_move_settled
from .notifications import notification_send
from .presence import is_present

CARD_KINDS = ("move", "floor", "fire", "rob", "punch", "marshal")
# Public worth of loot for "richest": purses are face down, so each counts as the smallest.
PUBLIC_LOOT_VALUE = {"strongbox": 1000, "jewel": 500, "purse": 250}
ROB_ORDERS = (
    ("strongbox", "jewel", "purse"),
    ("jewel", "strongbox", "purse"),
    ("purse", "jewel", "strongbox"),
)
SIDES = ("locomotive", "caboose")


class StandingOrderError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# -- the choices offered on the game page -----------------------------------------------------


def order_choices(card: str, view: dict[str, Any], seat: int) -> list[tuple[str, str]]:
    """``(value, label)`` pairs a player can pick for one played card."""
    others = [b for b in view.get("bandits", []) if b["seat"] != seat]
    if card == "move":
        return [
            ("move:locomotive", _("Move toward the locomotive")),
            ("move:caboose", _("Move toward the caboose")),
            ("move:loot", _("Move to the spot with the most loot")),
        ]
    if card == "fire":
        choices = [("fire:richest", _("Shoot the richest bandit"))]
        for bandit in others:
            choices.append(
                (
                    f"fire:seat:{bandit['seat']}",
                    _("Shoot %(name)s") % {"name": bandit["character"]},
                )
            )
        return choices
    if card == "rob":
        labels = {"strongbox": _("strongbox"), "jewel": _("jewel"), "purse": _("purse")}
        return [
            ("rob:" + ",".join(order), " > ".join(labels[kind] for kind in order))
            for order in ROB_ORDERS
        ]
    if card == "punch":
        choices = []
        for side in SIDES:
            side_label = (
                _("toward the locomotive") if side == "locomotive" else _("toward the caboose")
            )
            choices.append(
                (
                    f"punch:richest:{side}",
                    _("Punch the richest victim, %(side)s") % {"side": side_label},
                )
            )
            for bandit in others:
                choices.append(
                    (
                        f"punch:seat:{bandit['seat']}:{side}",
                        _("Punch %(name)s, %(side)s")
                        % {"name": bandit["character"], "side": side_label},
                    )
                )
        return choices
    if card == "marshal":
        return [
            ("marshal:locomotive", _("Move the marshal toward the locomotive")),
            ("marshal:caboose", _("Move the marshal toward the caboose")),
        ]
    return []


def _seat_number(text: str) -> int:
    number = strict_int(text, minimum=0)
    if number is None:
        raise ValueError(text)
    return number


def preference_from_choice(card: str, choice: str) -> dict[str, Any]:
    """The stored preference for a choice value from the form; refuses anything else."""
    parts = (choice or "").split(":")
    if parts[0] != card:
        raise StandingOrderError(_("That order does not fit this card."))
    try:
        if card == "move" and len(parts) == 2 and parts[1] in ("locomotive", "caboose", "loot"):
            return {"toward": parts[1]}
        if card == "fire" and parts[1:] == ["richest"]:
            return {"target": "richest"}
        if card == "fire" and len(parts) == 3 and parts[1] == "seat":
            return {"target": _seat_number(parts[2])}
        if card == "rob" and len(parts) == 2:
            order = parts[1].split(",")
            if order and set(order) <= set(PUBLIC_LOOT_VALUE) and len(set(order)) == len(order):
                return {"order": order}
        if card == "punch" and len(parts) == 3 and parts[1] == "richest" and parts[2] in SIDES:
            return {"victim": "richest", "direction": parts[2], "take": True}
        if card == "punch" and len(parts) == 4 and parts[1] == "seat" and parts[3] in SIDES:
            return {"victim": _seat_number(parts[2]), "direction": parts[3], "take": True}
        if card == "marshal" and len(parts) == 2 and parts[1] in SIDES:
            return {"direction": parts[1]}
    except ValueError:
        pass
    raise StandingOrderError(_("That order does not fit this card."))


# -- matching an order against the legal actions ----------------------------------------------


def _worth(counts: dict[str, int]) -> int:
    return sum(PUBLIC_LOOT_VALUE.get(kind, 0) * n for kind, n in counts.items())


def _spot_worth(view: dict[str, Any], to: dict[str, Any]) -> int:
    if to.get("level") == "time_machine":
        machine = view.get("time_machine") or {}
        return _worth(machine.get("loot", {}))
    car = view["train"][to["car"]]
    return _worth(car.get(to["level"], {}).get("loot", {}))


def _bandit_worth(view: dict[str, Any], seat: int) -> int:
    return _worth(view["bandits"][seat]["loot"])


def _richest(view: dict[str, Any], seats: list[int]) -> int | None:
    """The seat with the most public loot; ``None`` on a tie (the player decides)."""
    if not seats:
        return None
    ranked = sorted(seats, key=lambda s: -_bandit_worth(view, s))
    if len(ranked) > 1 and _bandit_worth(view, ranked[0]) == _bandit_worth(view, ranked[1]):
        return None
    return ranked[0]


def standing_order_match(
    card: str,
    preference: dict[str, Any],
    options: list[dict[str, Any]],
    view: dict[str, Any],
    seat: int,
) -> dict[str, Any] | None:
    """The legal action the order names, or ``None`` if it names none (ask the player)."""
    options = [{k: v for k, v in option.items() if k != "label"} for option in options]
    if not options:
        return None
    if card == "move":
        here = view["bandits"][seat]["car"]
        if here is None:
            return None
        here = -1 if view["bandits"][seat]["level"] == "time_machine" else here
        toward = preference.get("toward")
        if toward == "loot":
            worth = {id(o): _spot_worth(view, o["to"]) for o in options}
            best = max(worth.values())
            top = [o for o in options if worth[id(o)] == best]
            if best == 0:
                return None
            # The nearest of the richest spots; the locomotive side on a tie.
            return min(top, key=lambda o: (abs(o["to"]["car"] - here), o["to"]["car"]))
        if toward == "locomotive":
            ahead = [o for o in options if o["to"]["car"] < here]
            return min(ahead, key=lambda o: here - o["to"]["car"]) if ahead else None
        if toward == "caboose":
            behind = [o for o in options if o["to"]["car"] > here]
            return min(behind, key=lambda o: o["to"]["car"] - here) if behind else None
        return None
    if card == "fire":
        targets = [o["target"] for o in options]
        wanted = preference.get("target")
        target = _richest(view, targets) if wanted == "richest" else wanted
        return next((o for o in options if o["target"] == target), None)
    if card == "rob":
        for kind in preference.get("order", []):
            found = next((o for o in options if o["loot"] == kind), None)
            if found is not None:
                return found
        return None
    if card == "punch":
        victims = sorted({o["victim"] for o in options})
        wanted = preference.get("victim")
        victim = _richest(view, victims) if wanted == "richest" else wanted
        fitting = [
            o
            for o in options
            if o["victim"] == victim and o["direction"] == preference.get("direction")
        ]
        if "take" in preference:
            taking = [o for o in fitting if o.get("take", preference["take"]) == preference["take"]]
            fitting = taking or fitting
        # The engine lists the victim's loot most valuable first: drop that one.
        return fitting[0] if fitting else None
    if card == "marshal":
        return next((o for o in options if o["direction"] == preference.get("direction")), None)
    return None


# -- setting orders ---------------------------------------------------------------------------


def _planning_view(game: Game, position: int) -> dict[str, Any]:
    # The state the board drew from (parsed once per copy of the game).
    return get_engine(game.kind).view(game_state(game), position)


def standing_order_save(
    *, game_id: int, user: AbstractBaseUser, pile_index: int, choice: str
) -> StandingOrder | None:
    """Attach (or replace) the order for one of the member's cards still to resolve; an
    empty ``choice`` removes it (the member will be asked). Saves only: the card may be
    waiting for this very choice, so the member's request (games/services/turns/orders.py)
    then has the play service carry it out."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.kind != "colt" or game.status != Game.Status.RUNNING:
        raise StandingOrderError(_("Standing orders are for running Colt Express games."))
    seat = (
        Seat.objects.filter(game=game, player__user=user).first() if user.is_authenticated else None
    )
    if seat is None:
        raise StandingOrderError(_("You have no seat at this table."))
    view = _planning_view(game, seat.position)
    pile = view.get("pile") or []
    if not 0 <= pile_index < len(pile):
        raise StandingOrderError(_("There is no such card on the pile."))
    entry = pile[pile_index]
    if entry["seat"] != seat.position or entry["card"] is None:
        raise StandingOrderError(_("That card is not yours."))
    if view.get("phase") not in ("schemin", "stealin"):
        raise StandingOrderError(_("Orders can be given while cards are planned or resolving."))
    if _carried_out(view, pile_index):
        raise StandingOrderError(_("That card has already resolved."))
    if not choice:
        StandingOrder.objects.filter(
            game=game, round=view["round"] - 1, pile_index=pile_index, applied_seq__isnull=True
        ).delete()
        return None
    preference = preference_from_choice(entry["card"], choice)
    order, _created = StandingOrder.objects.update_or_create(
        game=game,
        round=view["round"] - 1,
        pile_index=pile_index,
        defaults={"seat": seat.position, "card": entry["card"], "preference": preference},
    )
    return order


def _carried_out(view: dict[str, Any], pile_index: int) -> bool:
    """Whether a pile card is done with: before it, Stealin' has moved past it (the card whose
    choice is pending is turned over but not carried out yet, so an order still helps)."""
    if view.get("phase") == "schemin":
        return False
    if view.get("phase") != "stealin":
        return True
    return pile_index < (view.get("resolving") or 0)


def _round_orders(game: Game, round_index: int) -> list[StandingOrder]:
    # Every seat's orders of the round in one query per copy of the game: the fragments of
    # one broadcast (one per seated member) share it; none when the game's own query found
    # no order at all (games/selectors/tables.py _clock_hints).
    if clock_known_empty(game, "orders"):
        return []
    return read_once(
        game,
        ("standing_orders", round_index),
        lambda: list(StandingOrder.objects.filter(game=game, round=round_index)),
    )


def standing_orders_preload(game: Game) -> None:
    """Read now what ``standing_orders_for`` will need for any seat of this copy of the game
    (games/realtime/consumers.py reads a broadcast's data before its renders)."""
    if game.kind == "colt" and game.status == Game.Status.RUNNING and game.state:
        _round_orders(game, get_engine(game.kind).view(game_state(game), None)["round"] - 1)


def standing_orders_for(
    game: Game, position: int, *, view: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The member's cards still to resolve this round, each with its choices and order.

    ``view``: the engine's view for ``position`` when the caller has it already (the game
    page draws its board from it), so it is not made twice; only read here."""
    if game.kind != "colt" or game.status != Game.Status.RUNNING or not game.state:
        return []
    if view is None:
        view = _planning_view(game, position)
    round_index = view["round"] - 1
    orders = {o.pile_index: o for o in _round_orders(game, round_index) if o.seat == position}
    rows = []
    for index, entry in enumerate(view.get("pile") or []):
        if entry["seat"] != position or entry["card"] not in CARD_KINDS:
            continue
        if _carried_out(view, index):
            continue
        choices = order_choices(entry["card"], view, position)
        if not choices:
            continue
        order = orders.get(index)
        chosen = ""
        if order is not None:
            chosen = next(
                (
                    value
                    for value, _label in choices
                    if _safe_preference(entry["card"], value) == order.preference
                ),
                "",
            )
        rows.append(
            {
                "pile_index": index,
                "card": entry["card"],
                # The engine's English label (marked), in the player's language.
                "card_label": _(entry["card_label"]) if entry["card_label"] else "",
                "choices": choices,
                "chosen": chosen,
            }
        )
    return rows


def _safe_preference(card: str, value: str) -> dict[str, Any] | None:
    try:
        return preference_from_choice(card, value)
    except StandingOrderError:
        return None


def standing_order_seqs(game: Game) -> set[int]:
    """The GameEvent seqs that standing orders made (the log marks them)."""
    return set(
        StandingOrder.objects.filter(game=game, applied_seq__isnull=False).values_list(
            "applied_seq", flat=True
        )
    )


# -- applying them ----------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingOrderDue:
    """The move a standing order makes now: ``action`` for the seat at ``position``, on the
    game at ``version``."""

    game_id: int
    version: int
    position: int
    action: dict[str, Any]
    order_id: int


def standing_order_due(game_id: int) -> StandingOrderDue | None:
    """If the game waits on a member's Stealin' choice that a standing order answers, the move
    it makes; otherwise ``None``, having asked the member (batched) or found nothing to do —
    nothing more is owed for the decision then. The play service makes the move
    (``games.services.play.standing_orders_apply``)."""
    game = Game.objects.filter(pk=game_id, kind="colt", status=Game.Status.RUNNING).first()
    if game is None or not game.to_move:
        return None
    position = game.to_move[0]
    seat = Seat.objects.filter(game=game, position=position).select_related("player").first()
    if seat is None or seat.is_bot or seat.player is None:
        # A bot's decision: the bot's own task (or the followups sweep) makes it.
        return None
    engine = get_engine(game.kind)
    state = engine.from_json(game.state)
    view = engine.view(state, position)
    pending = view.get("pending")
    if view.get("phase") == "schemin" or not pending:
        auto_move_settled(game.pk, game.version)
        return None
    round_index = view["round"] - 1
    order = None
    if pending["kind"] in CARD_KINDS:
        order = StandingOrder.objects.filter(
            game=game,
            round=round_index,
            pile_index=pending["card"],
            seat=position,
            applied_seq__isnull=True,
        ).first()
    choice = None
    if order is not None:
        options = engine.legal_actions(state, position)
        choice = standing_order_match(order.card, order.preference, options, view, position)
    if choice is None:
        _choice_ask(game, seat, round_index)
        # Asked: the decision is the member's now, nothing more is owed for it.
        auto_move_settled(game.pk, game.version)
        return None
    return StandingOrderDue(
        game_id=game.pk,
        version=game.version,
        position=position,
        action=choice,
        order_id=order.pk,
    )


def standing_order_carried_out(due: StandingOrderDue, seq: int) -> None:
    """The order's move was saved as ``seq`` (inside that move's transaction): the log marks it."""
    StandingOrder.objects.filter(pk=due.order_id, applied_seq__isnull=True).update(applied_seq=seq)


def _choice_ask(game: Game, seat: Seat, round_index: int) -> None:
    """One "your cards are resolving" notification per member per round's Stealin'."""
    if is_present(game.pk, seat.player.user_id):
        return
    notification_send(
        player=seat.player,
        game=game,
        kind="stealin_choice",
        text=gettext_noop("Game #%(game)s: your cards are resolving and need your choices."),
        args={"game": game.pk},
        key=f"stealin:{game.pk}:{round_index}:{seat.position}",
    )
