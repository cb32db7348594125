"""The game log for people (games/selectors/gamelog.py, games/text/wording.py): one line per event
with its icon, under round / phase headings, members beside their gangs and bandits, plurals in
every language, your own private lines as "You ...", the other seats' under their names after the
end, and old logged events read with today's words."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engines import get_engine
from games.engines.base import phrase
from games.models import GameEvent
from games.selectors.gamelog import event_text, log_entries, log_groups
from games.text.wording import action_label, phrase_format

NAMES = {0: "Alice", 1: "Bob", 2: "Carol"}


def _logged(kind: str, players: int = 3, moves: int = 40, seed: str = "log") -> list[GameEvent]:
    """A game played by taking each seat's first action, logged as the site logs it."""
    engine = get_engine(kind)
    state = engine.setup(engine.default_config(), players, seed=seed)
    logged = []
    for seq in range(1, moves + 1):
        if engine.is_over(state):
            break
        seat = engine.to_move(state)[0]
        actions = engine.legal_actions(state, seat)
        action = actions[-1] if kind == "napad" and seq % 3 == 0 else actions[0]
        state, events = engine.apply(state, seat, action)
        logged.append(
            GameEvent(
                seq=seq,
                seat=seat,
                action=action,
                public_events=[e for e in events if "private_to" not in e],
                private_events=[{**e, "at": i} for i, e in enumerate(events) if "private_to" in e],
            )
        )
    return logged


def _lines(entries):
    return [line for entry in entries for line in entry["lines"]]


def test_a_napad_move_names_the_member_the_gang_and_the_card_as_printed():
    entries = log_entries(_logged("napad", moves=1), 0, names=NAMES, kind="napad")
    line = entries[0]["lines"][0]
    assert line["icon"] == "card" and not line["private"]
    # "Carol (Mexicans) sends dynamite 6 (card dynamite 6 / money 3)."
    assert line["text"].startswith(f"{NAMES[entries[0]['seat']]} (")
    assert " sends " in line["text"] and " (card " in line["text"] and " / " in line["text"]
    assert "send card" not in line["text"] and "red" not in line["text"]


def test_the_log_groups_lines_under_round_and_phase_headings():
    entries = log_entries(_logged("napad", moves=40), 0, names=NAMES, kind="napad")
    groups = log_groups(entries, "napad")
    titles = [group["title"] for group in groups]
    assert titles[:4] == [
        "Round 1 · It's a robbery!",
        "Round 1 · Divide the loot",
        "Round 1 · Arrival of reinforcements",
        "Round 2 · Attach 3 new wagons",
    ]
    # The last pass of round 1 runs the division and the next round's start: its lines
    # appear under each heading they belong to.
    crossing = {entry["seq"] for group in groups[:4] for entry in group["entries"]}
    assert len(crossing) < sum(len(group["entries"]) for group in groups[:4])
    with translation.override("pl"):
        assert log_groups(entries, "napad")[1]["title"] == "Runda 1 · Podział łupów"


def test_a_window_of_the_log_numbers_its_rounds_from_the_round_now():
    logged = _logged("napad", moves=40)
    whole = log_entries(logged, 0, kind="napad")
    window = log_entries(logged[-5:], 0, kind="napad", round_now=whole[-1]["lines"][-1]["round"])
    assert [e["round"] for e in window] == [e["round"] for e in whole[-5:]]
    assert log_entries(logged[-5:], 0, kind="napad")[0]["round"] is None


def test_your_private_lines_say_you_and_after_the_end_the_others_read_under_their_names():
    logged = _logged("colt", moves=3)
    mine = [line for line in _lines(log_entries(logged, 0, names=NAMES, kind="colt"))]
    private = [line for line in mine if line["private"]]
    assert private and all(line["text"].startswith("You draw ") for line in private)
    # During the game nobody reads another seat's private line.
    assert not any(
        "Bob draws Move" in line["text"] or "Bob draws Fire" in line["text"] for line in mine
    )
    everything = _lines(log_entries(logged, 0, names=NAMES, kind="colt", everything=True))
    theirs = [line for line in everything if line["private"] and not line["text"].startswith("You")]
    assert {line["text"].split(" draws ")[0] for line in theirs} == {"Bob", "Carol"}
    assert sum(line["text"].startswith("You draw ") for line in everything) == len(private)


def test_a_private_line_stays_where_the_engine_put_it():
    """ "Bob draws 3 cards." then "You draw ..." — not at the end of the action's lines."""
    logged = _logged("colt", moves=12)
    for entry in log_entries(logged, 0, names=NAMES, kind="colt"):
        texts = entry["texts"]
        for index, text in enumerate(texts):
            if text.startswith("You draw ") and index and " draws " in texts[index - 1]:
                assert texts[index - 1].startswith("Alice (")


@pytest.mark.parametrize(
    ("count", "english", "polish", "portuguese"),
    [
        (1, "draws 1 card.", "dobiera 1 kartę.", "compra 1 carta."),
        (3, "draws 3 cards.", "dobiera 3 karty.", "compra 3 cartas."),
        (5, "draws 5 cards.", "dobiera 5 kart.", "compra 5 cartas."),
        (22, "draws 22 cards.", "dobiera 22 karty.", "compra 22 cartas."),
    ],
)
def test_plurals_in_every_language(count, english, polish, portuguese):
    event = {
        "type": "draw",
        "text": "%(name)s draws %(count)s card.",
        "plural": "%(name)s draws %(count)s cards.",
        "args": {"name": "Doc", "seat": 0, "count": count},
    }
    for language, expected in (("en", english), ("pl", polish), ("pt-br", portuguese)):
        with translation.override(language):
            assert event_text(event, NAMES, kind="colt").endswith(expected)


def test_events_logged_before_the_rewording_read_with_todays_words():
    old_napad = {
        "type": "card_played",
        "text": "%(gang)s send card %(card)s with %(colour)s %(value)s up.",
        "args": {"seat": 0, "gang": "mexicans", "card": 8, "colour": "red", "value": 5},
    }
    old_colt = {
        "type": "draw",
        "text": "%(name)s draws %(count)s cards.",
        "args": {"name": "Doc", "seat": 1, "count": 1},
    }
    old_secret = {
        "type": "card_played_secret",
        "text": "You play %(card)s face down.",
        "args": {"seat": 0, "card": "floor"},
        "private_to": [0],
    }
    assert event_text(old_napad, NAMES, kind="napad") == "Alice (Mexicans) sends dynamite 5."
    assert event_text(old_colt, NAMES, kind="colt") == "Bob (Doc) draws 1 card."
    assert event_text(old_secret, NAMES, kind="colt") == "You play Floor change face down."
    with translation.override("pl"):
        assert event_text(old_napad, NAMES, kind="napad") == "Alice (Meksykanie) wysyła: dynamit 5."
        assert event_text(old_secret, NAMES, kind="colt", others=True) == (
            "Alice zagrywa zakrytą kartę: Zmiana poziomu."
        )


def test_places_on_the_train_are_said_as_each_sentence_needs_them():
    move = {
        "type": "move",
        "text": "%(name)s moves %(to_place)s.",
        "args": {"name": "Doc", "seat": 0, "to_place": "onto the roof of car E"},
        "terms": {"to_place": phrase("onto the roof of car %(car)s", car="E")},
    }
    assert event_text(move, NAMES, kind="colt") == "Alice (Doc) moves onto the roof of car E."
    with translation.override("pl"):
        assert event_text(move, NAMES, kind="colt") == "Alice (Doc) przechodzi na dach wagonu E."
    with translation.override("pt-br"):
        assert event_text(move, NAMES, kind="colt") == (
            "Alice (Doc) se move para o teto do vagão E."
        )


def test_a_stealin_choice_is_labelled_in_the_players_language():
    from games.engines.colt import flow
    from games.engines.colt.state import clone

    engine = get_engine("colt")
    state = engine.setup(
        engine.default_config(), 3, seed=7, first_player=0, identities=["Doc", "Ghost", "Tuco"]
    )
    state = clone(state)
    state["car"], state["level"] = [2, 1, 3], ["roof", "roof", "roof"]
    state["pile"] = [[0, "fire", False, 0]]
    state["phase"], state["resolving"], state["pending"] = "stealin", 0, None
    flow.advance(state, [])
    actions = engine.legal_actions(state, 0)
    assert len(actions) == 2
    with translation.override("pl"):
        labels = [action_label(engine, state, 0, action, NAMES) for action in actions]
    assert all(label.startswith("Strzał do: ") for label in labels), labels
    assert labels[0].endswith("(miejsce 2)") and "Bob (" in labels[0]


def test_a_refusal_from_an_engine_reads_in_the_players_language():
    engine = get_engine("colt")
    state = engine.setup(engine.default_config(), 2, seed=3)
    seat = engine.to_move(state)[0]
    try:
        engine.apply(state, seat, {"type": "play", "card": "bullet:1", "face_down": False})
    except Exception as error:  # noqa: BLE001
        refusal = error
    with translation.override("pt-br"):
        from games.text.wording import error_text

        assert error_text(refusal) == "As Cartas de Bala não podem ser baixadas."
    assert str(refusal) == "Bullet cards can't be played."


def test_a_phrase_that_cannot_be_said_falls_back_to_english_not_an_error():
    broken = {"type": "x", "text": "%(missing)s moves.", "args": {}}
    assert event_text(broken, NAMES) == "%(missing)s moves."
    assert phrase_format([phrase("gold"), phrase("money")]) == "gold and money"


def test_the_english_places_an_event_keeps_say_what_the_phrases_say():
    from games.engines.base import english
    from games.engines.colt import wording

    cars = ["Locomotive", "A", "B", "C"]
    for car in range(len(cars)):
        for level in ("inside", "roof", "time_machine"):
            assert wording.place_to_english(car, cars[car], level) == english(
                wording.place_to(cars, car, level)
            )
            assert wording.place_at_english(car, cars[car], level) == english(
                wording.place_at(cars, car, level)
            )
        assert wording.under_english(car, cars[car]) == english(wording.under_car(cars, car))


@pytest.mark.parametrize("saved", [False, True], ids=["in-memory", "saved"])
def test_a_log_read_again_says_what_a_first_reading_says_for_every_reader(saved):
    """The log's texts and entries are kept between readings (games/selectors/gamelog.py ``TEXTS``,
    ``ENTRIES``): the same actions read by another seat, after the end, in another language
    or with a seat handed to someone else must read as if said for the first time. A saved
    action is known by its game, place and time; one never saved, by its content."""
    from datetime import UTC, datetime, timedelta

    from games.selectors import gamelog

    logged = _logged("colt", moves=6)
    if saved:
        start = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
        for event in logged:
            event.game_id = 41
            event.created_at = start + timedelta(minutes=event.seq)
    namings = {"members": NAMES, "renamed": {**NAMES, 1: "Bot (hard)"}}
    readings = [
        (language, seat, naming, everything)
        for language in ("en", "pl", "pt-br")
        for seat in (0, 1, None)
        for naming in namings
        for everything in (False, True)
    ]

    def read(language, seat, naming, everything):
        names = namings[naming]
        with translation.override(language):
            entries = log_entries(logged, seat, names=names, kind="colt", everything=everything)
        return [(line["text"], line["private"]) for line in _lines(entries)]

    first = {}
    for reading in readings:
        gamelog.TEXTS.clear()
        gamelog.ENTRIES.clear()
        gamelog.ROUND_STARTS.clear()
        first[reading] = read(*reading)
    for reading in readings + readings[::-1]:
        assert read(*reading) == first[reading], reading
    # The readings differ where they should, so the comparison above can fail.
    assert first[("en", 0, "members", False)] != first[("en", 1, "members", False)]
    assert first[("en", 0, "members", False)] != first[("pl", 0, "members", False)]
    assert first[("en", None, "members", True)] != first[("en", None, "renamed", True)]
