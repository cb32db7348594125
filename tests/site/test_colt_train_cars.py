"""Colt Express's cars, action pile, bandits' table and hand (``{% colt_train_cars %}``,
``{% colt_pile_cards %}``, ``{% colt_bandit_rows %}``, ``{% colt_hand_cards %}``,
games/templatetags/colt_board.py) are
drawn exactly as the template loops they replaced drew them — bandits, loot, the marshal, the
locomotive and the caboose, face-down cards, badges, a bot's "since", every value escaped — on
real boards of played games, every seat's and a spectator's, with and without the Time
Machine, in every language the club speaks."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

from games.boards import action_key, colt_decorate
from games.engines import get_engine

BOARD = Path(settings.BASE_DIR) / "templates" / "games" / "colt" / "board.html"
_SOURCE = BOARD.read_text()
# The board's own partials for a bandit (on the train, in the table) and a spot's loot.
PARTIALS = "".join(
    _SOURCE[_SOURCE.index(f"{{% partialdef {name} %}}") :].split("{% endpartialdef %}")[0]
    + "{% endpartialdef %}"
    for name in ("bandit", "bandit_chip", "loot")
)
# The loop the tag replaced, as it was.
CARS_LOOP = """    {% for car in view.train %}
      <li class="car{% if car.is_locomotive %} car--locomotive{% endif %}{% if car.is_caboose %} car--caboose{% endif %}" data-mark="car-{{ car.index }}">
        <div class="car__name">{% if car.is_locomotive %}<span class="car__label">{% translate "Locomotive" %}</span>{% else %}<span class="car__label">{% blocktranslate with name=car.name %}Car {{ name }}{% endblocktranslate %}</span>{% endif %}{% if car.is_caboose %} <span class="car__caboose">{% translate "caboose" %}</span>{% endif %}</div>
        <div class="car__spot car__spot--roof" data-mark="{{ car.roof.mark }}" aria-label="{% translate 'roof' %}">
          {% for bandit in car.roof.bandits %}{% partial bandit %}{% endfor %}
          {% with loot=car.roof.loot %}{% partial loot %}{% endwith %}
        </div>
        <div class="car__spot car__spot--inside" data-mark="{{ car.inside.mark }}" aria-label="{% translate 'inside' %}">
          {% if car.marshal %}<span class="marshal" data-flip="marshal" data-mark="marshal" title="{% translate 'The marshal' %}">★<span class="marshal__name"> {% translate "Marshal" %}</span></span>{% endif %}
          {% for bandit in car.inside.bandits %}{% partial bandit %}{% endfor %}
          {% with loot=car.inside.loot %}{% partial loot %}{% endwith %}
        </div>
        <svg class="car__wheels" viewBox="0 0 100 14" preserveAspectRatio="none" aria-hidden="true" focusable="false"><circle cx="20" cy="7" r="6" fill="#222"/><circle cx="80" cy="7" r="6" fill="#222"/></svg>
      </li>
    {% endfor %}
"""  # noqa: E501 (the template's lines as they were)
LOOP = "{% load i18n l10n partials %}" + PARTIALS
LOOP += "{% localize off %}" + CARS_LOOP + "{% endlocalize %}"
TAG = (
    "{% load colt_board l10n %}{% localize off %}"
    "    {% colt_train_cars view.train %}\n{% endlocalize %}"
)
# The pile's and the bandits' table's loops, as they were.
PILE_LOOP = """        {% for card in view.pile %}
          <li class="pile__card bandit-edge--{{ card.bandit.css }}{% if card.resolved %} is-resolved{% endif %}{% if card.is_resolving %} is-resolving{% endif %}{% if card.face_down %} is-face-down{% endif %}{% if not card.card %} is-hidden{% endif %}" data-flip="pile-{{ card.index }}"{% if card.is_resolving %} aria-current="step"{% endif %}>
            {% if card.card %}{{ card.card|colt_card_name }}{% if card.face_down %} <small>({% translate "face down" %})</small>{% endif %}{% else %}<span class="card-back" role="img" aria-label="{% translate 'a face-down card' %}">✦</span>{% endif %}
            <small class="pile__owner">{{ card.bandit.character }}</small>
          </li>
        {% endfor %}
"""  # noqa: E501 (the template's lines as they were)
ROWS_LOOP = """      {% for bandit in view.bandits %}
        <tr{% if bandit.seat == view.viewer %} class="is-me"{% endif %}>
          <th scope="row">{% partial bandit_chip %} {{ bandit.name }}{% if view.phase != "over" %}{% if bandit.seat == view.first_player %} <span class="badge">{% translate "first player" %}</span>{% endif %}{% if bandit.seat in view.to_move %} <span class="badge badge--turn">{% translate "to move" %}</span>{% endif %}{% endif %}{% if bandit.stand_in_since %} <span class="badge badge--bot">{% translate "bot" %} · {% blocktranslate with since=bandit.stand_in_since|on_date %}since {{ since }}{% endblocktranslate %}</span>{% endif %}</th>
          <td data-mark="loot-{{ bandit.seat }}">{% with loot=bandit.loot %}{% partial loot %}{% endwith %}{% if bandit.loot_value is not None %}<br><small>{% blocktranslate with value=bandit.loot_value %}worth ${{ value }}{% endblocktranslate %}{% if bandit.purse_values %} ({% translate "purses" %}: {{ bandit.purse_values|join:", " }}){% endif %}</small>{% endif %}</td>
          <td data-mark="bullets-{{ bandit.seat }}">{{ bandit.bullets_left }} / {{ bandit.bullets_received }}</td>
          <td>{{ bandit.hand_size }} / {{ bandit.deck_size }}</td>
        </tr>
      {% endfor %}
"""  # noqa: E501 (the template's lines as they were)
LOOPS = {
    "pile": (
        "{% load i18n l10n board_labels %}{% localize off %}" + PILE_LOOP + "{% endlocalize %}",
        "{% load colt_board l10n %}{% localize off %}"
        "        {% colt_pile_cards view.pile %}\n{% endlocalize %}",
    ),
    "bandits": (
        "{% load i18n l10n partials board_labels when_tags %}"
        + PARTIALS
        + "{% localize off %}"
        + ROWS_LOOP
        + "{% endlocalize %}",
        "{% load colt_board l10n %}{% localize off %}"
        "      {% colt_bandit_rows view %}\n{% endlocalize %}",
    ),
}
NAMES = ["Ala", "<b>Bob</b>", 'Ćma & "Co"', "O'Neil"]
SINCE = datetime(2026, 11, 30, 18, 5, tzinfo=UTC)

# Cars an organiser's names or an odd state could put on the board: escaped, never markup.
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


def _boards(time_machine: bool, games: int = 3, players: int = 4):
    """Every seat's decorated board view at each step of a few games played at random."""
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


def _render(source: str, view) -> str:
    return Template(source).render(Context({"view": view}))


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("time_machine", [False, True], ids=["plain", "time-machine"])
def test_the_cars_are_drawn_as_the_loop_drew_them(language, time_machine):
    loop, tag = Template(LOOP), Template(TAG)
    boards = 0
    with translation.override(language):
        for view in _boards(time_machine):
            assert tag.render(Context({"view": view})) == loop.render(Context({"view": view}))
            boards += 1
    assert boards > 100


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("time_machine", [False, True], ids=["plain", "time-machine"])
@pytest.mark.parametrize("part", sorted(LOOPS))
def test_the_pile_and_the_bandits_are_drawn_as_the_loops_drew_them(language, time_machine, part):
    loop, tag = (Template(source) for source in LOOPS[part])
    seen = set()
    with translation.override(language):
        for view in _boards(time_machine):
            assert tag.render(Context({"view": view})) == loop.render(Context({"view": view}))
            seen.update(card["face_down"] for card in view.get("pile") or ())
    assert seen == {True, False}  # face-down cards were among them


@pytest.mark.parametrize("language", ["en", "pl"])
def test_odd_cars_are_escaped_as_the_loop_escaped_them(language):
    with translation.override(language):
        drawn = _render(TAG, {"train": ODD_CARS})
        assert drawn == _render(LOOP, {"train": ODD_CARS})
    assert "<b>" not in drawn and "<i>" not in drawn and "<5>" not in drawn


def test_the_cars_speak_polish():
    # The tag's own words come from the catalogue, as the template's did.
    with translation.override("pl"):
        drawn = _render(TAG, {"train": ODD_CARS})
    for polish in ("dach", "wnętrze", "ostatni wagon", "Szeryf", "Wagon &lt;5&gt;"):
        assert polish in drawn
    for english in ('"roof"', '"inside"', ">caboose<", '"The marshal"', "strongbox (", "jewel ("):
        assert english not in drawn


# The hand's loop, as it was.
HAND_LOOP = """      {% for entry in view.hand_cards %}
        <li class="action-card{% if entry.is_bullet %} action-card--bullet{% endif %}{% if entry.plays %} is-playable{% endif %}" data-flip="hand-{{ entry.position }}">
          {% if entry.plays %}
            {% for play in entry.plays %}
              <form method="post" action="{{ act_url }}" hx-post="{{ act_url }}" hx-target="#game-live" hx-swap="outerHTML"{% if not forloop.first %} class="action-card__also"{% endif %}>{% csrf_token %}<input type="hidden" name="action" value="{{ play.json }}"><input type="hidden" name="version" value="{{ game.version }}"><button class="{% if forloop.first %}action-card__play{% else %}button button--play{% endif %}" aria-label="{% if play.face_down %}{{ entry.card|colt_play_face_down_label }}{% else %}{{ entry.card|colt_play_label }}{% endif %}">{% if forloop.first %}<span class="action-card__name">{{ entry.card|colt_card_name }}</span>{% if play.face_down %}<small>{% translate "face down" %}</small>{% endif %}{% else %}{% translate "face down" %}{% endif %}</button></form>
            {% endfor %}
          {% else %}
            <span class="action-card__name">{{ entry.card|colt_card_name }}</span>
          {% endif %}
        </li>
      {% endfor %}
"""  # noqa: E501 (the template's lines as they were)
HAND_TAGS = (
    "{% load i18n l10n board_labels %}{% localize off %}" + HAND_LOOP + "{% endlocalize %}",
    "{% load colt_board l10n %}{% localize off %}"
    "      {% colt_hand_cards view act_url game.version %}\n{% endlocalize %}",
)


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("time_machine", [False, True], ids=["plain", "time-machine"])
def test_the_hand_is_drawn_as_the_loop_drew_it(language, time_machine):
    loop, tag = (Template(source) for source in HAND_TAGS)
    face_down = 0
    with translation.override(language):
        for number, view in enumerate(_boards(time_machine)):
            context = {"view": view, "act_url": "/games/7/act/?a&b", "game": {"version": number}}
            if number % 2:
                context["csrf_token"] = "t0k3n<&>"  # as {% csrf_token %} finds it: escaped
            drawn = tag.render(Context(context))
            assert drawn == loop.render(Context(context))
            face_down += drawn.count("action-card__also")
    assert face_down > 10  # second, face-down buttons were among them


# The board's ``board`` partial that ``{% colt_board %}`` replaced, as it was (its own partials
# for a bandit and a spot's loot are still the board file's).
BOARD_PARTIAL = '\n{% localize off %}<div class="colt-board">\n  <p class="board__meta">\n    {% blocktranslate with round=view.round rounds=view.rounds_total %}Round {{ round }} of {{ rounds }}{% endblocktranslate %}\n    · {% if view.phase == "schemin" %}{% translate "Schemin\'" %}{% elif view.phase == "stealin" %}{% translate "Stealin\'" %}{% elif view.phase == "over" %}{% translate "game over" %}{% elif view.phase == "hide" %}{% translate "Time Machine" %}{% elif view.phase == "pickpocket" %}{% translate "Stealin\'" %}{% else %}{{ view.phase|phase_name:"colt" }}{% endif %}\n    · {% blocktranslate count cards=view.round_cards_left %}{{ cards }} round card to come{% plural %}{{ cards }} round cards to come{% endblocktranslate %}\n    · {% blocktranslate count bullets=view.neutral_bullets_left %}{{ bullets }} neutral bullet left{% plural %}{{ bullets }} neutral bullets left{% endblocktranslate %}\n  </p>\n  {% if view.round_card and view.phase != "over" %}\n    <div class="round-card">\n      <strong class="round-card__name">{{ view.round_card.name|colt_round_card }}</strong>\n      <ol class="round-card__turns" aria-label="{% translate \'Turns of this round\' %}">\n        {% for turn in view.round_card.turns %}\n          <li class="turn turn--{{ turn }}{% if forloop.counter0 == view.round_card.turn_index %} is-current{% endif %}"{% if forloop.counter0 == view.round_card.turn_index %} aria-current="step"{% endif %}>{% if turn == "N" %}{% translate "Normal" %}{% elif turn == "T" %}{% translate "Tunnel" %}{% elif turn == "S" %}{% translate "Speeding-up" %}{% elif turn == "R" %}{% translate "Switching" %}{% endif %}</li>\n        {% endfor %}\n      </ol>\n      {% if view.round_card.event %}<p class="round-card__event">{% translate "At the end of the round" %}: {{ view.round_card.event|translated }}</p>{% endif %}\n    </div>\n  {% endif %}\n\n  <div class="train-scroll{% if view.time_machine %} train-scroll--machine{% endif %}">\n  <ol class="colt-train" aria-label="{% translate \'The train, locomotive first\' %}">\n    {% if view.time_machine %}\n      <li class="car car--time-machine" data-mark="spot-tm">\n        <div class="car__name"><svg viewBox="0 0 40 40" width="18" height="18" aria-hidden="true" focusable="false"><circle cx="20" cy="20" r="17" fill="#4b3b8f" stroke="#fff" stroke-width="3"/><path d="M20 8v12l8 5" stroke="#fff" stroke-width="3" fill="none"/></svg> <span class="car__label">{% translate "Time Machine" %}</span></div>\n        <div class="car__spot car__spot--machine" data-mark="spot-tm" aria-label="{% translate \'Time Machine\' %}">\n          {% for bandit in view.time_machine.bandits %}{% partial bandit %}{% endfor %}\n          {% with loot=view.time_machine.loot %}{% partial loot %}{% endwith %}\n        </div>\n      </li>\n    {% endif %}\n    {% colt_train_cars view.train %}\n  </ol>\n  </div>\n  <p class="train-legend muted">{% translate "Each car: roof above, inside below." %}</p>\n  {% if view.hidden_bandits %}<p class="hint">{% for bandit in view.hidden_bandits %}{% partial bandit_chip %} {% endfor %}{% translate "travelled in the Time Machine and hides under a car nobody else knows." %}</p>{% endif %}\n  {% if view.my_hidden_spot %}<p class="hint">{% if view.my_hidden_spot.is_locomotive %}{% translate "You hide under the locomotive until Stealin\' begins; nobody else knows where." %}{% else %}{% blocktranslate with car=view.my_hidden_spot.name %}You hide under car {{ car }} until Stealin\' begins; nobody else knows where.{% endblocktranslate %}{% endif %}</p>{% endif %}\n\n  {% if view.phase != "over" %}\n  <div class="colt-pile" data-mark="pile">\n    <h3>{% translate "Action pile" %} <small>({% translate "first played resolves first" %})</small></h3>\n    {% if view.pile %}\n      <ol class="pile">\n        {% colt_pile_cards view.pile %}\n      </ol>\n    {% else %}\n      <p>{% translate "No cards played yet this round." %}</p>\n    {% endif %}\n    {% if view.pending %}\n      <p class="pending"><strong>{% translate "Resolving" %}:</strong> {{ view.pending.bandit.name }} ({{ view.pending.bandit.character }}){% if view.pending.pile_card.card %} — {{ view.pending.pile_card.card|colt_card_name }}{% endif %}.\n        {% if view.pending.seat == view.viewer %}{% translate "Choose how it resolves." %}{% else %}{% blocktranslate with name=view.pending.bandit.name %}Waiting for {{ name }} to choose.{% endblocktranslate %}{% endif %}\n      </p>\n    {% endif %}\n  </div>\n  {% endif %}\n\n  <table class="bandits">\n    <thead><tr>\n      <th scope="col">{% translate "Bandit" %}</th>\n      <th scope="col">{% translate "Loot" %}</th>\n      <th scope="col">{% translate "Bullets left" %} / {% translate "received" %}</th>\n      <th scope="col">{% translate "Hand" %} / {% translate "Deck" %}</th>\n    </tr></thead>\n    <tbody>\n      {% colt_bandit_rows view %}\n    </tbody>\n  </table>\n</div>\n{% endlocalize %}'  # noqa: E501
BOARD_LOADS = "{% load i18n l10n partials board_labels colt_board %}"


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("time_machine", [False, True], ids=["plain", "time-machine"])
def test_the_whole_board_is_drawn_as_its_partial_drew_it(language, time_machine):
    partial = Template(BOARD_LOADS + PARTIALS + BOARD_PARTIAL)
    tag = Template(BOARD_LOADS + "\n{% colt_board view %}")
    seen: dict[str, set] = {"phase": set(), "parts": set()}
    with translation.override(language):
        for view in _boards(time_machine):
            assert tag.render(Context({"view": view})) == partial.render(Context({"view": view}))
            seen["phase"].add(view["phase"])
            seen["parts"].update(
                part
                for part in ("pending", "hidden_bandits", "my_hidden_spot", "time_machine")
                if view.get(part)
            )
            if (view.get("round_card") or {}).get("event"):
                seen["parts"].add("event")
    assert {"schemin", "stealin"} <= seen["phase"]
    assert "pending" in seen["parts"]
    if time_machine:
        assert {"time_machine", "hidden_bandits"} <= seen["parts"]


def test_an_odd_board_is_escaped_as_its_partial_escaped_it():
    view = {
        "phase": "<phase>",
        "round": "<1>",
        "rounds_total": 5,
        "round_cards_left": 2,
        "neutral_bullets_left": 1,
        "round_card": {
            "name": "<card>",
            "turns": ["N", "<X>", "S"],
            "turn_index": 1,
            "event": "<e>",
        },
        "time_machine": {"bandits": [{"css": "a&b", "seat": 1, "character": "<C>", "name": "n"}]},
        "train": ODD_CARS,
        "hidden_bandits": [{"css": "<x>", "character": "Ch & co"}],
        "my_hidden_spot": {"name": "<3>"},
        "pile": [],
        "pending": {"bandit": {"name": "<b>N</b>", "character": "&"}, "seat": 2, "pile_card": {}},
        "viewer": 1,
        "bandits": [],
    }
    for language in ("en", "pl"):
        with translation.override(language):
            drawn = _render(BOARD_LOADS + "\n{% colt_board view %}", view)
            assert drawn == _render(BOARD_LOADS + PARTIALS + BOARD_PARTIAL, view)
    assert "<b>" not in drawn and "<card>" not in drawn and "<X>" not in drawn


# The board's ``hand`` partial that ``{% colt_hand %}`` replaced, as it was.
HAND_PARTIAL = '\n{% localize off %}<div class="hand hand--colt">\n  <h2 class="decision__title">{% translate "Your hand" %}</h2>\n  {% if view.is_my_turn and view.hand_cards %}<p class="hint">{% translate "Choose a card to play it." %}</p>{% endif %}\n  {% if view.hand_cards %}\n    <ul class="hand__cards" aria-label="{% translate \'Your cards\' %}">\n      {% colt_hand_cards view act_url game.version %}\n    </ul>\n  {% else %}\n    <p>{% translate "No cards in hand." %}</p>\n  {% endif %}\n  {% if view.draw_action %}\n    {% translate "Draw cards instead" as draw_label %}{% move_button view.draw_action draw_label button_class="button--quiet button--small" form_class="hand__draw" %}\n  {% endif %}\n</div>\n{% endlocalize %}'  # noqa: E501
HAND_LOADS = "{% load i18n l10n board_labels colt_board move_buttons %}"


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("time_machine", [False, True], ids=["plain", "time-machine"])
def test_the_whole_hand_is_drawn_as_its_partial_drew_it(language, time_machine):
    partial = Template(HAND_LOADS + HAND_PARTIAL)
    tag = Template(HAND_LOADS + "\n{% colt_hand view act_url game.version %}")
    seen = set()
    with translation.override(language):
        for number, view in enumerate(_boards(time_machine)):
            context = {"view": view, "act_url": "/games/7/act/?a&b", "game": {"version": number}}
            if number % 2:
                context["csrf_token"] = "t0k3n<&>"  # as {% csrf_token %} finds it: escaped
            assert tag.render(Context(context)) == partial.render(Context(context))
            seen.update(
                key for key in ("hand", "hand_cards", "pass_action", "draw_action") if view.get(key)
            )
    assert len(seen) >= 2  # hands with cards and with a pass / draw button were among them
