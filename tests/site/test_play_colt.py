"""Colt Express at the club: its rulesets, the table form's options, the board, a whole game."""

from __future__ import annotations

import re

import pytest
from playkit import colt_game, first_legal, user_to_move

from games.engines import get_engine
from games.models import Game, Ruleset
from games.selectors.tables import game_events
from games.services import play
from games.services.replay import game_verify
from games.services.rulesets import rulesets_install_defaults
from tests.personakit import client_for

pytestmark = pytest.mark.django_db


def _move(game: Game, users) -> None:
    result = play.move_submit(
        game_id=game.pk,
        user=user_to_move(game, users),
        action=first_legal(game),
        expected_version=game.version,
    )
    assert result.ok, result.message
    game.refresh_from_db()


def test_it_installs_the_three_colt_rulesets(db):
    rulesets_install_defaults()
    published = Ruleset.objects.get(slug="colt-express").config
    assert published["time_machine"] is False and published["round_deck"] == "published"
    assert Ruleset.objects.get(slug="colt-express-time-machine").config["time_machine"] is True
    assert Ruleset.objects.get(slug="colt-express-5-of-7").config["round_deck"] == "guide"


def test_the_table_form_folds_colt_options_in(alice):
    rulesets_install_defaults()
    ruleset = Ruleset.objects.get(slug="colt-express")
    response = client_for(alice).post(
        "/games/new",
        {
            "ruleset": ruleset.pk,
            "seats": 3,
            "turn_time_limit": "24h",
            "option_colt_time_machine": "on",
            "option_colt_round_deck": "guide",
            "bot_2": "random",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get()
    assert game.config["time_machine"] is True and game.config["round_deck"] == "guide"
    assert game.seats.get(position=2).bot_kind == "random"
    assert game.seats.get(position=0).player == alice.player
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert "Time Machine: on" in page and "Round cards: 5 of the 7 round cards, no station" in page


def test_the_board_shows_the_train_round_card_and_only_my_hand(alice, bob, charlie):
    game = colt_game(alice, bob, "colt-express-time-machine")
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert "Locomotive" in page and "Time Machine" in page and "round-card" in page
    assert "is-current" in page  # the turn being played is highlighted
    assert page.count("Your hand") == 1
    # Only my own loot's value (the $250 starting purse) is shown.
    assert page.count("worth $") == 1
    assert game.seed not in page
    spectator = client_for(charlie).get(f"/games/{game.pk}/").content.decode()
    assert "Your hand" not in spectator and "worth $" not in spectator
    mover = client_for(user_to_move(game, [alice, bob])).get(f"/games/{game.pk}/").content.decode()
    # Each playable card is its own button, labelled with what it does.
    assert 'aria-label="Play ' in mover and ">Draw cards instead</button>" in mover


def test_face_down_cards_are_card_backs_to_everyone_but_their_owner(alice, bob, charlie):
    game = colt_game(alice, bob)
    engine = get_engine("colt")
    for _ in range(60):
        state = engine.from_json(game.state)
        if any(card["card"] is None for card in engine.view(state, None)["pile"]):
            break
        _move(game, [alice, bob])
    else:
        pytest.fail("no face-down card was played")
    for user in (alice, bob):
        position = game.seats.get(player__user=user).position
        hidden = sum(card["card"] is None for card in engine.view(state, position)["pile"])
        page = client_for(user).get(f"/games/{game.pk}/").content.decode()
        assert page.count(" is-hidden") == hidden
    hidden = sum(card["card"] is None for card in engine.view(state, None)["pile"])
    assert (
        client_for(charlie).get(f"/games/{game.pk}/").content.decode().count(" is-hidden") == hidden
    )


def test_a_whole_colt_game_ends_with_the_breakdown_and_verifies(alice, bob):
    game = colt_game(alice, bob)
    for _ in range(1000):
        if game.status != Game.Status.RUNNING:
            break
        _move(game, [alice, bob])
    assert game.status == Game.Status.FINISHED
    page = client_for(bob).get(f"/games/{game.pk}/").content.decode()
    assert "Gunslinger" in page and "Bullets received" in page and game.seed in page
    assert game_verify(game, game_events(game)).ok
    replay = client_for(alice).get(f"/games/{game.pk}/replay?step=5&seat=1")
    assert replay.status_code == 200 and "Your hand" in replay.content.decode()
    everyone = client_for(alice).get(f"/games/{game.pk}/replay?step=5").content.decode()
    assert "Every hand at this step" in everyone and "action-card" in everyone


def test_a_hidden_time_machine_traveller_is_shown_to_his_owner_only(alice, bob, charlie):
    game = colt_game(alice, bob, "colt-express-time-machine")
    alice_seat = game.seats.get(player__user=alice).position
    state = dict(game.state)
    # As after a round ending with alice's bandit alone in the Time Machine: he hides under
    # the caboose until Stealin' starts.
    caboose = len(state["cars"]) - 1
    state["level"] = list(state["level"])
    state["car"] = list(state["car"])
    state["level"][alice_seat] = "hidden"
    state["car"][alice_seat] = caboose
    Game.objects.filter(pk=game.pk).update(state=state)
    own = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert f"You hide under car {state['cars'][caboose]} until" in own
    for user in (bob, charlie):
        page = client_for(user).get(f"/games/{game.pk}/").content.decode()
        assert "hides under a car nobody else knows" in page
        assert "You hide under" not in page
        caboose_html = page[page.index("car--caboose") :]
        caboose_html = caboose_html[: caboose_html.index("car__wheels")]
        character = game.seats.get(position=alice_seat).identity
        assert f">{character}<" not in caboose_html


def test_watching_a_colt_table_again_reads_in_colt_express_words(alice, bob):
    # "Watch it" (games/views/since.py) captions each move as the log does, in the game's own
    # words: Colt Express lists the cards a member draws "A, B and C".
    game = colt_game(alice, bob)
    for _ in range(4):
        _move(game, [alice, bob])
    html = client_for(alice).get(f"/games/{game.pk}/watch?from=0").content.decode()
    draws = re.findall(r'data-caption="[^"]*You draw ([^".]*)\.', html)
    many = [cards for cards in draws if "," in cards]
    assert many, draws
    assert all(re.fullmatch(r"[^,]+(, [^,]+)* and [^,]+", cards) for cards in many), many
