"""To jest napad!'s seats and hand (``{% napad_seats %}``, ``{% napad_hand_cards %}``, in
games/templatetags/napad_board.py) are drawn exactly as the template loops they replaced
drew them — names, gangs, badges, a bot's "since", the counts, captured wagons and played
cards by colour, the hand's buttons with the page's CSRF token, every value escaped — on real
boards of played games (each seat's view and a spectator's), in every language the club
speaks."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

from games.boards import DECORATORS, action_key
from games.engines import get_engine

# The loop the tag replaced, as it was.
SEATS_LOOP = """{% load i18n l10n board_labels napad_board when_tags %}{% localize off %}    {% for seat in view.seats %}
      <li class="napad-seat{% if seat.is_turn and not view.over %} is-turn{% endif %}{% if seat.is_viewer %} is-me{% endif %}{% if seat.passed and not view.over %} has-passed{% endif %}" data-mark="seat-{{ seat.seat }}">
        <h3 class="napad-seat__name">
          {{ seat.name }} <small class="gang">{{ seat.gang|gang_name }}</small>
          {% if not view.over %}
            {% if seat.is_marker %}<span class="badge badge--marker" title="{% translate 'Starting player marker' %}">★ {% translate "marker" %}</span>{% endif %}
            {% if seat.is_turn %}<span class="badge badge--turn">{% translate "to move" %}</span>{% endif %}
            {% if seat.passed %}<span class="badge badge--passed">{% translate "passed" %}</span>{% endif %}
          {% endif %}
          {% if seat.stand_in_since %}<span class="badge badge--bot">{% translate "bot" %} · {% blocktranslate with since=seat.stand_in_since|on_date %}since {{ since }}{% endblocktranslate %}</span>{% endif %}
        </h3>
        <p class="napad-seat__counts" data-mark="captured-{{ seat.seat }}">
          {{ seat.hand_size|cards_in_hand }}
          · {{ seat.hideout_size|cards_in_hideout }}
          · {{ seat.captured_count|wagons_captured }}
          {% if seat.captured_count %}<span class="napad-seat__by-colour">({% for colour, count in seat.captured_by_colour.items %}{% if count %}<span class="by-colour"><span class="dot dot--{{ colour }}"></span>{{ count }}</span>{% endif %}{% endfor %})</span>{% endif %}
        </p>
        {% if seat.captured %}
          <p class="napad-seat__loot">{% if seat.is_viewer %}{% translate "Your wagons" %}{% else %}{% translate "Wagons" %}{% endif %}:
            {% for wagon in seat.captured %}<span class="chip chip--{{ wagon.colour }}" data-flip="wagon-{{ wagon.id }}">{{ wagon.value }}</span> {% endfor %}
          </p>
        {% endif %}
        {% if seat.played_by_colour %}
          <div class="played">
            {% for group in seat.played_by_colour %}
              <div class="played__group played__group--{{ group.colour }}" data-mark="played-{{ seat.seat }}-{{ group.colour }}">
                <span class="played__total">{{ group.cargo|cargo_name }}: {{ group.total }}</span>
                {% napad_played_cards group.cards seat.seat %}
              </div>
            {% endfor %}
          </div>
        {% endif %}
      </li>
    {% endfor %}
{% endlocalize %}"""  # noqa: E501 (the template's lines as they were)
TAG = "{% load napad_board l10n %}{% localize off %}    {% napad_seats view %}\n{% endlocalize %}"

# Names a member may choose: escaped, never markup.
NAMES = ["Ala", "<b>Bob</b>", 'Ćma & "Co"', "O'Neil"]
SINCE = datetime(2026, 11, 30, 18, 5, tzinfo=UTC)


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
        yield engine.view(state, 0)  # the end: no badges


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_seats_are_drawn_as_the_loop_drew_them(language):
    loop, tag = Template(SEATS_LOOP), Template(TAG)
    boards = 0
    with translation.override(language):
        for view in _boards():
            context = {"view": view}
            assert tag.render(Context(context)) == loop.render(Context(context))
            boards += 1
    assert boards > 300


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
        # Every board but the end's, which _boards leaves undecorated.
        for view in (view for view in _boards(games=2) if not view["over"]):
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


def test_member_names_are_escaped():
    view = next(_boards(games=1))
    drawn = Template(TAG).render(Context({"view": view}))
    assert "<b>Bob</b>" not in drawn and "&lt;b&gt;Bob&lt;/b&gt;" in drawn
    assert "O&#x27;Neil" in drawn


def test_the_seats_speak_polish():
    # The tag's own words come from the catalogue, as the template's did.
    view = next(v for v in _boards(games=1) if v["viewer"] == 0 and v["seats"][0]["captured"])
    with translation.override("pl"):
        drawn = Template(TAG).render(Context({"view": view}))
    assert "Twoje wagony" in drawn and "Wagony:" not in drawn.replace("Twoje wagony:", "")
    assert "Znacznik gracza rozpoczynającego" in drawn and "znacznik" in drawn
    assert "Starting player" not in drawn and "Your wagons" not in drawn


# The train's loop, as it was.
TRAIN_LOOP = (
    "{% load i18n l10n board_labels %}{% localize off %}    "
    + """{% for wagon in view.train %}
      <li class="wagon wagon--{{ wagon.colour }}" data-flip="wagon-{{ wagon.id }}" data-mark="wagon-{{ wagon.id }} wagons-{{ wagon.colour }}">
        <svg viewBox="0 0 70 56" width="70" height="56" aria-hidden="true" focusable="false">
          <rect x="2" y="8" width="66" height="34" rx="4" class="wagon__body"/>
          <circle cx="16" cy="47" r="7" fill="#222"/><circle cx="54" cy="47" r="7" fill="#222"/>
          <text x="35" y="33" text-anchor="middle" class="wagon__value">{{ wagon.value }}</text>
        </svg>
        <span class="wagon__label">{{ wagon.cargo|cargo_name }} {{ wagon.value }}{% if wagon.bullets %} · {{ wagon.bullets|bullets_count }}{% endif %}</span>
      </li>
    {% empty %}
      <li class="train__empty">{% translate "No wagons on the train." %}</li>
    {% endfor %}"""  # noqa: E501 (the template's lines as they were)
    + "\n{% endlocalize %}"
)
TRAIN_TAG = (
    "{% load napad_board l10n %}{% localize off %}    {% napad_train_wagons view %}\n"
    "{% endlocalize %}"
)


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_train_is_drawn_as_the_loop_drew_it(language):
    loop, tag = Template(TRAIN_LOOP), Template(TRAIN_TAG)
    trains = set()
    with translation.override(language):
        for view in _boards():
            context = {"view": view}
            assert tag.render(Context(context)) == loop.render(Context(context))
            trains.add(len(view["train"]))
        # An odd wagon (an organiser's cargo, markup in its words) is escaped as the loop did.
        odd = {"train": [{"colour": 'x"y', "id": "<1>", "value": 4, "cargo": "<b>", "bullets": 2}]}
        assert tag.render(Context({"view": odd})) == loop.render(Context({"view": odd}))
        assert "<b>" not in tag.render(Context({"view": odd}))
    # Trains of every length were drawn, the empty one too.
    assert 0 in trains and len(trains) > 3


def test_the_train_speaks_polish():
    view = next(v for v in _boards(games=1) if v["train"])
    view["train"][0]["bullets"] = 2  # a variant's wagon with bullets
    with translation.override("pl"):
        drawn = Template(TRAIN_TAG).render(Context({"view": view}))
        empty = Template(TRAIN_TAG).render(Context({"view": {"train": []}}))
    assert "złoto" in drawn or "dynamit" in drawn or "pieniądze" in drawn
    assert " kul" in drawn  # "2 kule", "1 kula"
    assert "gold" not in drawn and "bullet" not in drawn
    assert "W pociągu nie ma wagonów." in empty


# The hand's loop, as it was.
HAND_LOOP = """      {% for card in view.hand %}
        <li class="gang-card" data-flip="card-{{ view.viewer }}-{{ card.id }}">
          {% for half in card.halves %}
            {% if half.action %}
              <form method="post" action="{{ act_url }}" hx-post="{{ act_url }}" hx-target="#game-live" hx-swap="outerHTML" class="gang-card__half gang-card__half--{{ half.colour }}">{% csrf_token %}<input type="hidden" name="action" value="{{ half.action }}"><input type="hidden" name="version" value="{{ game.version }}"><button class="gang-card__send" aria-label="{{ half|napad_send_label }}" data-names="wagons-{{ half.colour }} played-{{ view.viewer }}-{{ half.colour }}"><span class="gang-card__value">{{ half.value }}</span><span class="gang-card__cargo">{{ half.cargo|cargo_name }}</span>{% if half.bullets %}<span class="gang-card__bullets" aria-hidden="true">• {{ half.bullets }}</span>{% endif %}</button></form>
            {% else %}
              <div class="gang-card__half gang-card__half--{{ half.colour }}"><span class="gang-card__value">{{ half.value }}</span><span class="gang-card__cargo">{{ half.cargo|cargo_name }}</span>{% if half.bullets %}<span class="gang-card__bullets" title="{{ half.bullets|bullets_count }}">• {{ half.bullets }}</span>{% endif %}</div>
            {% endif %}
          {% endfor %}
        </li>
      {% endfor %}
"""  # noqa: E501 (the template's lines as they were)
HAND_TAGS = (
    "{% load i18n l10n board_labels napad_board %}{% localize off %}"
    + HAND_LOOP
    + "{% endlocalize %}",
    "{% load napad_board l10n %}{% localize off %}"
    "      {% napad_hand_cards view act_url game.version %}\n{% endlocalize %}",
)
# The page's CSRF token as {% csrf_token %} finds it (escaped), or none at all.
CSRF_TOKENS = ["t0k3n<&>", None]


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_hand_is_drawn_as_the_loop_drew_it(language):
    loop, tag = (Template(source) for source in HAND_TAGS)
    buttons = 0
    with translation.override(language):
        for number, view in enumerate(_boards(games=2)):
            context = {"view": view, "act_url": "/games/7/act/?a&b", "game": {"version": number}}
            if (token := CSRF_TOKENS[number % 2]) is not None:
                context["csrf_token"] = token
            drawn = tag.render(Context(context))
            assert drawn == loop.render(Context(context))
            buttons += drawn.count("<button")
    assert buttons > 100


# The board's ``board`` partial that ``{% napad_board %}`` replaced, as it was.
BOARD_PARTIAL = '\n{% localize off %}<div class="napad-board">\n  <p class="board__meta">\n    {% blocktranslate with round=view.round rounds=view.rounds %}Round {{ round }} of {{ rounds }}{% endblocktranslate %}\n    · {% if view.over %}{% translate "game over" %}{% elif view.phase == "robbery" %}{% translate "It\'s a robbery!" %}{% else %}{{ view.phase|phase_name:"napad" }}{% endif %}\n    · {% translate "Wagons left in the treasury" %}: {% for cargo, count in view.treasury.items %}{{ cargo|cargo_name }} {{ count }}{% if not forloop.last %}, {% endif %}{% endfor %}\n  </p>\n\n  <div class="train-scroll">\n  <ol class="train" aria-label="{% translate \'The train, locomotive first\' %}">\n    <li class="train__loco" aria-label="{% translate \'Locomotive\' %}">\n      <svg viewBox="0 0 80 56" width="80" height="56" aria-hidden="true" focusable="false">\n        <rect x="6" y="14" width="44" height="28" rx="3" fill="#3a3a3a"/>\n        <rect x="48" y="6" width="26" height="36" rx="3" fill="#555"/>\n        <rect x="53" y="11" width="16" height="11" fill="#f7e7b4"/>\n        <rect x="14" y="4" width="9" height="12" fill="#3a3a3a"/>\n        <circle cx="18" cy="46" r="7" fill="#222"/><circle cx="40" cy="46" r="7" fill="#222"/><circle cx="63" cy="46" r="7" fill="#222"/>\n      </svg>\n    </li>\n    {% napad_train_wagons view %}\n  </ol>\n  </div>\n\n  <ul class="napad-seats">\n    {% napad_seats view %}\n  </ul>\n</div>\n{% endlocalize %}'  # noqa: E501
BOARD_LOADS = "{% load i18n l10n board_labels napad_board %}"


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_whole_board_is_drawn_as_its_partial_drew_it(language):
    partial = Template(BOARD_LOADS + BOARD_PARTIAL)
    tag = Template(BOARD_LOADS + "\n{% napad_board view %}")
    phases = set()
    with translation.override(language):
        for view in _boards():
            context = {"view": view}
            assert tag.render(Context(context)) == partial.render(Context(context))
            phases.add("over" if view["over"] else view["phase"])
    assert {"robbery", "over"} <= phases  # the odd board below has another phase


def test_an_odd_board_is_escaped_as_its_partial_escaped_it():
    view = {"round": "<1>", "rounds": 3, "phase": "<p>", "treasury": {"gold": 2, "<x>": 1}}
    for language in ("en", "pl"):
        with translation.override(language):
            drawn = Template(BOARD_LOADS + "\n{% napad_board view %}").render(
                Context({"view": view})
            )
            assert drawn == Template(BOARD_LOADS + BOARD_PARTIAL).render(Context({"view": view}))
    assert "<p>" not in drawn and "<x>" not in drawn


# The board's ``hand`` partial that ``{% napad_hand %}`` replaced, as it was.
HAND_PARTIAL = '\n{% localize off %}<div class="hand hand--napad">\n  <h2 class="decision__title">{% translate "Your hand" %}</h2>\n  {% if view.hand %}\n    <ul class="hand__cards" aria-label="{% translate \'Your cards: send one with the half you choose up\' %}">\n      {% napad_hand_cards view act_url game.version %}\n    </ul>\n  {% else %}\n    <p>{% translate "No cards in hand." %}</p>\n  {% endif %}\n  {% if view.pass_action %}\n    {% translate "Pass" as pass_label %}{% move_button view.pass_action pass_label button_class="button--quiet button--small" form_class="hand__pass" %}\n  {% endif %}\n</div>\n{% endlocalize %}'  # noqa: E501
HAND_LOADS = "{% load i18n l10n board_labels napad_board move_buttons %}"


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_whole_hand_is_drawn_as_its_partial_drew_it(language):
    partial = Template(HAND_LOADS + HAND_PARTIAL)
    tag = Template(HAND_LOADS + "\n{% napad_hand view act_url game.version %}")
    seen = set()
    with translation.override(language):
        for number, view in enumerate(_boards(games=2)):
            context = {"view": view, "act_url": "/games/7/act/?a&b", "game": {"version": number}}
            if number % 2:
                context["csrf_token"] = "t0k3n<&>"  # as {% csrf_token %} finds it: escaped
            assert tag.render(Context(context)) == partial.render(Context(context))
            seen.update(
                key for key in ("hand", "hand_cards", "pass_action", "draw_action") if view.get(key)
            )
    assert len(seen) >= 2  # hands with cards and with a pass / draw button were among them
