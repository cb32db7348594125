"""Property-based fuzzing of the site's own endpoints (the API's move endpoint is fuzzed in
tests/api/test_fuzz.py, and the whole API against its schema in tests/api/test_schema.py):
the HTMX/form move endpoint, the create-a-table form, chat and the profile form. Whatever
is posted: never a 5xx, and input that is refused changes nothing.
"""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import get_engine
from games.models import ChatMessage, Game, Player, Ruleset, Seat
from tests.gamekit import started_game
from tests.personakit import client_for

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))

json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
# Form fields arrive as text: any text, numbers as text, and text that is almost right.
form_text = st.one_of(
    st.text(max_size=40),
    st.integers(-5, 10**6).map(str),
    st.sampled_from(["", " ", "0", "-1", "1e9", "null", "true", "\x00", "2", "24h", "on"]),
)


def _counts() -> dict[str, int]:
    return {
        m.__name__: m.objects.count() for m in [User, *apps.get_app_config("games").get_models()]
    }


def _game_snapshot(game_id: int):
    game = Game.objects.get(pk=game_id)
    return game.version, json.dumps(game.state, sort_keys=True), _counts()


@pytest.fixture
def running(alice, bob):
    return started_game(alice, bob)


def test_the_htmx_move_endpoint_never_fails_and_refusals_change_nothing(running, alice, bob):
    clients = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    applied = []

    # Weighted towards real moves (sampled_from picks evenly), so that some are applied
    # between the refusals.
    @FUZZ
    @given(
        action_kind=st.sampled_from(["legal", "legal", "legal", "json", "text"]),
        action_json=json_values.map(json.dumps),
        action_text=form_text,
        version_kind=st.sampled_from(["current", "current", "current", "text"]),
        version_text=form_text,
        htmx=st.booleans(),
        mover=st.sampled_from([True, True, True, False]),
        pick=st.integers(0, 100),
        extra=st.sampled_from([None, None, "x", "card", "colour"]),
        extra_value=json_values,
    )
    def post(
        action_kind,
        action_json,
        action_text,
        version_kind,
        version_text,
        htmx,
        mover,
        pick,
        extra,
        extra_value,
    ):
        action = {"legal": "legal", "json": action_json, "text": action_text}[action_kind]
        version = version_text if version_kind == "text" else "current"
        game = Game.objects.get(pk=running.pk)
        legal = []
        if game.status == Game.Status.RUNNING:
            engine = get_engine(game.kind)
            legal = [
                {k: v for k, v in a.items() if k != "label"}
                for a in engine.legal_actions(engine.from_json(game.state), game.to_move[0])
            ]
            to_move = Seat.objects.get(game=game, position=game.to_move[0]).player.user_id
        else:
            to_move = alice.pk
        user_id = to_move if mover else next(pk for pk in clients if pk != to_move)
        if action == "legal" and legal:
            # Which legal move, chosen without a draw that depends on the game's state (the
            # game moves on between examples; hypothesis replays them).
            chosen = dict(legal[pick % len(legal)])
            if extra is not None:
                # A real move with a field tacked on or changed.
                chosen[extra] = extra_value
            action = json.dumps(chosen)
        if version == "current":
            version = str(game.version)
        before = _game_snapshot(game.pk)

        response = clients[user_id].post(
            f"/games/{game.pk}/act",
            {"action": action, "version": version},
            headers={"HX-Request": "true"} if htmx else {},
        )

        assert response.status_code < 500
        after = _game_snapshot(game.pk)
        if after[0] == before[0]:
            assert after == before
        else:
            assert after[0] == before[0] + 1
            assert json.loads(action) in legal and user_id == to_move
            applied.append(action)

    post()
    assert applied  # some real moves went through among the refusals


def test_the_create_table_form_never_fails_and_refusals_create_nothing(alice):
    from games.services.rulesets import rulesets_install_defaults

    rulesets_install_defaults()
    client = client_for(alice)
    ruleset_ids = [str(pk) for pk in Ruleset.objects.values_list("pk", flat=True)]
    fields = st.fixed_dictionaries(
        {},
        optional={
            "ruleset": st.sampled_from(ruleset_ids) | form_text,
            "seats": form_text,
            "turn_time_limit": st.sampled_from(["5m", "1h", "24h", "72h"]) | form_text,
            "invite_only": form_text,
            "invitees": st.sampled_from(["bob", "alice", "nobody, bob"]) | form_text,
            "option_colt_time_machine": form_text,
            "option_colt_round_deck": form_text,
            "bot_0": st.sampled_from(["random", "heuristic", ""]) | form_text,
            "bot_1": st.sampled_from(["random", "heuristic", ""]) | form_text,
            "bot_5": form_text,
            "bot_9": form_text,
        },
    )

    @FUZZ
    @given(body=fields)
    def post(body):
        before = Game.objects.count()
        response = client.post("/games/new", body)
        assert response.status_code < 500
        if response.status_code == 200:  # the form again, with its errors
            assert Game.objects.count() == before
        else:
            assert response.status_code == 302 and Game.objects.count() == before + 1

    post()


def test_chat_never_fails_and_keeps_only_real_messages(running, alice):
    client = client_for(alice)

    @FUZZ
    @given(text=st.text(max_size=600) | form_text, htmx=st.booleans())
    def post(text, htmx):
        before = ChatMessage.objects.count()
        response = client.post(
            f"/games/{running.pk}/chat",
            {"text": text},
            headers={"HX-Request": "true"} if htmx else {},
        )
        assert response.status_code < 500
        kept = ChatMessage.objects.count() - before
        stripped = text.replace("\x00", "").strip()  # NUL is dropped (PostgreSQL)
        assert kept == (1 if stripped and len(stripped) <= ChatMessage.MAX_LENGTH else 0)

    post()


def test_the_profile_form_never_fails_and_refusals_change_nothing(alice):
    # Fewer examples: each refusal renders the form with every time zone in the world.
    client = client_for(alice)
    fields = st.fixed_dictionaries(
        {
            "display_name": st.just("Alice") | form_text,
            "email": st.just("alice@example.org") | form_text,
            "language": st.sampled_from(["en", "pl", "pt-br"]) | form_text,
            "time_zone": st.sampled_from(["UTC", "Europe/Warsaw"]) | form_text,
        },
        optional={
            "remind_by_email": form_text,
            "quiet_hours_start": st.sampled_from(["22:00", "25:00"]) | form_text,
            "quiet_hours_end": st.sampled_from(["07:00"]) | form_text,
        },
    )

    def profile():
        player = Player.objects.select_related("user").get(user=alice)
        return (
            player.display_name,
            player.user.email,
            player.language,
            player.time_zone,
            player.quiet_hours_start,
            player.quiet_hours_end,
        )

    @settings(FUZZ, max_examples=40)
    @given(body=fields)
    def post(body):
        before = profile()
        response = client.post("/accounts/profile/", body)
        assert response.status_code < 500
        if response.status_code == 200:  # the form again, with its errors
            assert profile() == before
        else:
            assert response.status_code == 302

    post()


@pytest.mark.parametrize("field", ["x", "card", "type"])
def test_a_move_carrying_a_nul_character_is_an_answer_not_a_500(running, alice, bob, field):
    # PostgreSQL cannot store NUL in text or JSON: such a move must never reach a save.
    game = Game.objects.get(pk=running.pk)
    engine = get_engine(game.kind)
    action = dict(engine.legal_actions(engine.from_json(game.state), game.to_move[0])[0])
    action.pop("label", None)
    action[field] = "pass\x00"
    mover = Seat.objects.get(game=game, position=game.to_move[0]).player.user
    before = _game_snapshot(game.pk)
    response = client_for(mover).post(
        f"/games/{game.pk}/act", {"action": json.dumps(action), "version": game.version}
    )
    assert response.status_code == 302
    assert _game_snapshot(game.pk) == before


@pytest.mark.parametrize(
    "path",
    [
        "/members/a%00b/",
        "/members/?q=a%00b",
        "/ratings/a%00b/",
        "/leagues/a%00b/",
        "/rules/a%00/v1/",
        "/games/1/replay?step=%00&seat=%00",
        "/api/ratings/a%00b",
        "/api/leagues/a%00b/standings",
    ],
)
def test_a_nul_character_in_a_url_is_answered_not_a_500(alice, path):
    # On PostgreSQL a NUL reaching a query is a DataError (these were 500s before).
    response = client_for(alice).get(path, headers={"Authorization": "Bearer x"})
    assert response.status_code < 500
