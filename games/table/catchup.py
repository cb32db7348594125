"""What happened at a table since a member's last visit, grouped by round and phase.

Input: the game's last events (``GameEvent`` rows, oldest first, read with one bounded query),
the version the panel starts from, and the viewer. Output: plain data for the "since your last
visit" panel (``templates/jinja2/games/_since.html``) —

- groups by round and phase, each with short lines in the viewer's language (the texts come
  from ``games.selectors.gamelog``; what the viewer may read is decided there, as for the log);
- for To jest napad!, the cards each gang sent and who passed, and each loot division as a
  small table (colour, total per gang, who captured how many wagons, ties kept on the train);
- the keys of the board's pieces and spots that changed (``data-mark`` on the boards), which
  the page marks until the member acts or dismisses the panel.

Everything is read from the events' ``type`` and ``args`` (the engines' contract), never from
their English texts, and nothing here reads the game's state: the cost is the window's length,
not the game's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.models import GameEvent
from games.selectors.gamelog import event_text

# How many actions the panel shows at most (older ones: "see the whole log").
SINCE_ACTIONS = 40
# Actions read before the panel's start, so a loot division can show every gang's total.
CONTEXT_ACTIONS = 40

PHASE_TITLES = {
    "robbery": _("It's a robbery!"),
    "division": _("Dividing the loot"),
    "reinforcements": _("Arrival of reinforcements"),
    "schemin": _("Schemin'"),
    "stealin": _("Stealin'"),
    "round_end": _("End of the round"),
    "time_machine": _("Time Machine"),
    "end": _("The end of the game"),
}

# Event types that open a phase (the others stay in the phase they happen in). Coarser than
# the log's phases (the engines' ``Wording.phases``) on purpose: the panel shows a Napad
# round's new wagons with the robbery they are robbed in, not as a heading of their own.
_OPENS = {
    "napad": {
        "card_played": "robbery",
        "passed": "robbery",
        "wagons_attached": "robbery",
        "captured": "division",
        "tie": "division",
        "unclaimed": "division",
        "loot_taken": "division",
        "reinforcements": "reinforcements",
        "marker_passed": "reinforcements",
        "game_over": "end",
    },
    "colt": {
        "card_played": "schemin",
        "card_played_secret": "schemin",
        "draw": "schemin",
        "schemin_over": "stealin",
        "card_resolved": "stealin",
        "reappears": "stealin",
        "round_event": "round_end",
        "round_over": "round_end",
        "time_travel": "time_machine",
        "hidden": "time_machine",
        "hideout": "time_machine",
        "time_machine_bonus": "end",
        "game_over": "end",
    },
}
# A new round: its number is in these args.
_ROUND_STARTED = {"napad": ("round_started", "round"), "colt": ("round_started", "number")}
# Private events belong to the phase of their kind, wherever the engine lists them.
_PRIVATE_PHASE = {
    "napad": {"loot_taken": "division", "cards_drawn": "reinforcements"},
    "colt": {"cards_drawn": "schemin", "card_played_secret": "schemin", "hideout": "time_machine"},
}
# A line of its own starts at each of these (a Stealin' card resolving, an end-of-round event).
_LINE_STARTS = {"card_resolved", "round_event", "round_started", "time_travel", "schemin_over"}
# Colt Express events that put a bandit somewhere: args seat, car, level.
_COLT_PLACED = {"move", "floor", "pushed", "punched", "flee_marshal", "bandit_moved", "reappears"}
_COLT_LOOT = {
    "rob",
    "cheyenne_takes",
    "drop",
    "pickpocket",
    "ransom",
    "purse_lost",
    "time_machine_bonus",
}
COLOURS = ("yellow", "red", "green")


def spot_key(car: Any, level: Any) -> str:
    """The ``data-mark`` of a spot on the Colt Express train."""
    if level == "time_machine":
        return "spot-tm"
    return f"spot-{car}-{level}"


@dataclass
class Group:
    """One round's phase in the panel."""

    round: int | None
    phase: str
    lines: list[str] = field(default_factory=list)
    # To jest napad!: seat → the cards sent (colour, value) and whether the gang passed.
    sent: dict[int, dict[str, Any]] = field(default_factory=dict)
    new_wagons: list[dict[str, Any]] = field(default_factory=list)
    division: list[dict[str, Any]] = field(default_factory=list)
    # The seats whose totals a division shows, in seat order, and their names.
    seats: list[int] = field(default_factory=list)
    seat_names: list[str] = field(default_factory=list)
    sent_list: list[dict[str, Any]] = field(default_factory=list)

    @property
    def title(self) -> str:
        return str(PHASE_TITLES.get(self.phase, self.phase))


@dataclass
class Catchup:
    since: int
    version: int
    groups: list[Group]
    changed: list[str]
    # Actions after ``since`` that the window did not reach (the whole log has them).
    older: int

    @property
    def actions(self) -> int:
        return self.version - self.since


def _visible_events(event: GameEvent, position: int | None, everything: bool):
    """(event, is_private) in the engine's order: public first, then the viewer's own."""
    for item in event.public_events:
        yield item, False
    for item in event.private_events:
        if everything or (position is not None and position in item.get("private_to", ())):
            yield item, True


def _start(kind: str, events: list[GameEvent], current_round: int | None) -> tuple[int, str]:
    """The round and phase the first event of the window happens in."""
    started_type, key = _ROUND_STARTED[kind]
    later_rounds = 0
    first_phase = None
    for event in events:
        for item in event.public_events:
            kind_of = item.get("type")
            if kind_of == started_type:
                number = item.get("args", {}).get(key)
                if isinstance(number, int):
                    return number - 1 - later_rounds, first_phase or _OPENS[kind].get(
                        "card_played", "robbery"
                    )
                later_rounds += 1
            elif first_phase is None and kind_of in _OPENS[kind]:
                first_phase = _OPENS[kind][kind_of]
    round_number = current_round if current_round is not None else 1
    return round_number, first_phase or next(iter(_OPENS[kind].values()))


def catchup_build(
    kind: str,
    events: list[GameEvent],
    *,
    since: int,
    version: int,
    position: int | None,
    names: dict[int, str],
    everything: bool = False,
    current_round: int | None = None,
) -> Catchup:
    """The panel's data for the events after ``since`` (``events`` may start earlier: those
    only complete the loot divisions' totals)."""
    opens = _OPENS.get(kind, {})
    started_type, round_key = _ROUND_STARTED.get(kind, ("", ""))
    private_phase = _PRIVATE_PHASE.get(kind, {})
    round_number, phase = _start(kind, events, current_round) if opens else (None, "")
    groups: list[Group] = []
    changed: dict[str, None] = {}
    # To jest napad!: totals per (round, seat, colour), from every card sent in the window.
    totals: dict[tuple[int | None, int, str], int] = {}
    rounds_complete: set[int | None] = set()
    if events and events[0].seq == 1:
        rounds_complete.add(round_number)

    def group_for(round_of: int | None, phase_of: str) -> Group:
        if not groups or (groups[-1].round, groups[-1].phase) != (round_of, phase_of):
            groups.append(Group(round=round_of, phase=phase_of))
        return groups[-1]

    shown = [event for event in events if event.seq > since][-SINCE_ACTIONS:]
    first_shown = shown[0].seq if shown else version + 1
    for event in events:
        in_panel = event.seq >= first_shown
        segments: dict[str, Group] = {}
        line_open = False
        for item, private in _visible_events(event, position, everything):
            item_type = item.get("type", "")
            args = item.get("args") if isinstance(item.get("args"), dict) else {}
            if not private:
                if item_type == started_type:
                    number = args.get(round_key)
                    round_number = number if isinstance(number, int) else (round_number or 0) + 1
                    rounds_complete.add(round_number)
                    phase = "robbery" if kind == "napad" else "schemin"
                    line_open = False
                elif item_type in opens and opens[item_type] != phase:
                    phase = opens[item_type]
                    line_open = False
            if kind == "napad" and item_type == "card_played" and not private:
                key = (round_number, args.get("seat"), args.get("colour"))
                totals[key] = totals.get(key, 0) + (args.get("value") or 0)
            if not in_panel:
                continue
            target_phase = private_phase.get(item_type, phase) if private else phase
            group = segments.get(target_phase) if private else None
            if group is None:
                group = group_for(round_number, target_phase)
            segments[target_phase] = group
            _marks(kind, item_type, args, changed)
            if kind == "napad" and _napad_item(group, item_type, args, private, names):
                continue
            # After the end, another seat's private line reads under their name.
            others = private and position not in item.get("private_to", ())
            text = event_text(item, names, kind=kind, others=others)
            if not text:
                continue
            if line_open and group.lines and item_type not in _LINE_STARTS and group is groups[-1]:
                group.lines[-1] = f"{group.lines[-1]} {text}"
            else:
                group.lines.append(text)
                line_open = True
        if in_panel and event.by_clock and groups and groups[-1].lines:
            groups[-1].lines[-1] = f"{groups[-1].lines[-1]} ({_('out of time')})"
    if kind == "napad":
        _napad_totals(groups, totals, rounds_complete)
        _napad_named(groups, names)
    older = max(0, version - since - len(shown))
    return Catchup(since=since, version=version, groups=groups, changed=list(changed), older=older)


def _marks(kind: str, item_type: str, args: dict[str, Any], changed: dict[str, None]) -> None:
    """The board's pieces and spots an event changed (``data-mark`` keys)."""
    seat = args.get("seat")
    if kind == "colt":
        if item_type in _COLT_PLACED and "car" in args:
            changed[f"bandit-{seat}"] = None
            changed[spot_key(args.get("car"), args.get("level"))] = None
        elif item_type == "marshal_moved":
            changed["marshal"] = None
            changed[spot_key(args.get("car"), "inside")] = None
        elif item_type in _COLT_LOOT:
            changed[f"loot-{seat}"] = None
        elif item_type == "fire":
            changed[f"bullets-{args.get('target')}"] = None
        elif item_type == "neutral_bullet":
            changed[f"bullets-{seat}"] = None
        elif item_type == "strongbox_placed":
            changed[spot_key(args.get("car"), "inside")] = None
        elif item_type in ("card_played", "card_played_secret", "draw"):
            changed["pile"] = None
    elif kind == "napad":
        if item_type == "wagons_attached":
            for wagon in args.get("wagons") or ():
                if isinstance(wagon, dict):
                    changed[f"wagon-{wagon.get('id')}"] = None
        elif item_type == "card_played":
            changed[f"played-{seat}-{args.get('colour')}"] = None
        elif item_type == "captured":
            changed[f"captured-{seat}"] = None
        elif item_type == "passed":
            changed[f"seat-{seat}"] = None


def _napad_item(
    group: Group, item_type: str, args: dict[str, Any], private: bool, names: dict[int, str]
) -> bool:
    """Fold a To jest napad! event into the group's structured parts; True if it needs no
    line of its own."""
    seat = args.get("seat")
    if item_type == "card_played":
        entry = group.sent.setdefault(seat, {"seat": seat, "cards": [], "passed": False})
        entry["cards"].append({"colour": args.get("colour"), "value": args.get("value")})
        return True
    if item_type == "passed":
        entry = group.sent.setdefault(seat, {"seat": seat, "cards": [], "passed": False})
        entry["passed"] = True
        return True
    if item_type == "wagons_attached":
        group.new_wagons = [w for w in args.get("wagons") or () if isinstance(w, dict)]
        return True
    if item_type in ("captured", "tie", "unclaimed"):
        row = {
            "colour": args.get("colour"),
            "cargo": args.get("cargo"),
            "result": item_type,
            "seat": seat,
            "total": args.get("total"),
            "count": args.get("count"),
            "wagons": args.get("wagons"),
            "tied": list(args.get("seats") or ()),
        }
        group.division.append(row)
        return True
    if item_type == "loot_taken" and private:
        # The viewer's own capture: its values, shown on their row of the division.
        for row in group.division:
            if row["seat"] == seat and row["wagons"] is None:
                mine = [w for w in args.get("wagons") or () if w.get("colour") == row["colour"]]
                if mine:
                    row["wagons"] = mine
        return True
    return False


def _napad_totals(
    groups: list[Group],
    totals: dict[tuple[int | None, int, str], int],
    complete: set[int | None],
) -> None:
    """Give each division row every gang's total in its colour (when the window holds the
    whole round; otherwise the totals the events name)."""
    for group in groups:
        if group.phase != "division":
            continue
        seats = sorted({seat for (rnd, seat, _c) in totals if rnd == group.round})
        for row in group.division:
            row["complete"] = group.round in complete
            known = {seat: totals.get((group.round, seat, row["colour"]), 0) for seat in seats}
            if not row["complete"]:
                known = {}
                if row["result"] == "captured":
                    known[row["seat"]] = row["total"]
                for seat in row["tied"]:
                    known[seat] = row["total"]
            row["totals"] = known
        group.division.sort(key=lambda row: _colour_order(row["colour"]))
        group.seats = seats or sorted({seat for row in group.division for seat in row["totals"]})


def _napad_named(groups: list[Group], names: dict[int, str]) -> None:
    """Lists in seat order with the members' names, ready for the template."""
    for group in groups:
        group.sent_list = [
            {**entry, "name": names.get(seat, "")} for seat, entry in sorted(group.sent.items())
        ]
        group.seat_names = [names.get(seat, "") for seat in group.seats]
        for row in group.division:
            row["cells"] = [row["totals"].get(seat) for seat in group.seats]
            row["name"] = names.get(row["seat"], "")
            row["tied_names"] = ", ".join(names.get(seat, "") for seat in row["tied"])


def _colour_order(colour: Any) -> int:
    return COLOURS.index(colour) if colour in COLOURS else len(COLOURS)
