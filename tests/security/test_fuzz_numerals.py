"""Odd numerals in every parameter that takes a number, on the site and on the API: Unicode
digits ("٣", "१", "１", "𝟙"), superscripts and fractions ("²", "½"), Roman numerals ("Ⅻ"),
and text Python's ``int()`` reads although nobody typed a number ("+1", " 1", "1_0"), or
cannot read at all ("1e2", "0x1", NUL, thirty nines).

Whatever is sent: never a 5xx, and nothing changes — no move, no "+24 h", no standing order,
no notification marked read, no table or season created — because the site reads numbers
with one strict parser (games/text/parsing.py), and none of these is a number in ASCII digits."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import get_engine
from games.models import Game, League, Membership, Notification
from games.services.api_tokens import api_token_create
from games.services.notifications import notification_send
from games.services.rulesets import rulesets_install_defaults
from games.text.parsing import strict_int
from tests.gamekit import started_game
from tests.personakit import member

pytestmark = pytest.mark.django_db

ASCII_INTEGER = re.compile(r"-?[0-9]+")
KNOWN_ODD = [
    "²", "٣", "١٢", "१", "١", "٠", "０", "１", "𝟙", "𝟘", "Ⅻ", "ⅷ", "½", "⁰", "₃", "〇", "௰",
    " 1", "1 ", "\t0", "0\n", "+1", "+0", "1_0", "0_0", "0x1", "1e2", "1.0", "0.0", "-0.0",
    "1\x00", "\x00", "", " ", "9" * 30, "-" + "9" * 30, "NaN", "∞", "1,2", "1/2", "true", "[1]",
]  # fmt: skip
odd_numerals = st.one_of(
    st.sampled_from(KNOWN_ODD),
    st.text(alphabet=st.characters(categories=("Nd", "No", "Nl")), min_size=1, max_size=4),
    st.tuples(
        st.integers(0, 9999).map(str), st.characters(categories=("Nd", "No", "Zs", "Pd"))
    ).map("".join),
).filter(lambda text: not ASCII_INTEGER.fullmatch(text))


def test_the_parser_reads_ascii_digits_and_nothing_else():
    assert strict_int("42") == 42 and strict_int("-3") == -3 and strict_int(7) == 7
    assert strict_int("0", minimum=0) == 0
    for odd in KNOWN_ODD:
        assert strict_int(odd) is None, repr(odd)
    assert strict_int(True) is None and strict_int(1.0) is None and strict_int(None) is None
    assert strict_int(str(2**31)) is None and strict_int("5", minimum=6) is None


def _member(username: str, **extra):
    user = member(username)
    for name, value in extra.items():
        setattr(user, name, value)
    user.save()
    return user


def _started(creator, other, slug: str, *, first_player: int) -> Game:
    bots = {} if slug.startswith("napad") else {2: "heuristic"}
    return started_game(creator, other, slug=slug, bots=bots, first_player=first_player)


@pytest.fixture
def club(db):
    """alice (staff, superuser, organiser) and bob at a Napad table where bob is to move and
    a Colt Express table in Schemin'; alice has unread notifications; a league with one
    member-made season; an API token for alice."""
    rulesets_install_defaults()
    alice = _member("alice", is_staff=True, is_superuser=True)
    bob = _member("bob")
    napad = _started(alice, bob, "napad-designed-default", first_player=1)
    colt = _started(alice, bob, "colt-express", first_player=0)
    for number in range(3):
        notification_send(player=alice.player, kind="test", text="Hello", key=f"n{number}")
    league = League.objects.create(name="Club", slug="club", kind="napad", ruleset=napad.ruleset)
    # Named on it: staff status alone organises no league (docs/roles.md).
    league.organisers.add(alice.player)
    for user in (alice, bob):
        Membership.objects.create(league=league, player=user.player)
    client = Client()
    client.force_login(alice)
    token = api_token_create(user=alice, name="fuzz")[1]
    api = Client(headers={"Authorization": f"Bearer {token}"})
    return {"alice": alice, "napad": napad, "colt": colt, "league": league,
            "client": client, "api": api}  # fmt: skip


def _legal(game: Game) -> dict:
    engine = get_engine(game.kind)
    action = engine.legal_actions(engine.from_json(game.state), game.to_move[0])[0]
    return {k: v for k, v in action.items() if k != "label"}


def _targets(club) -> dict:
    """Each numeric parameter, as a request that odd numeral ``n`` fills in."""
    napad, colt, league = club["napad"], club["colt"], club["league"]
    client, api = club["client"], club["api"]
    ruleset = napad.ruleset
    tomorrow = (timezone.localdate() + timedelta(days=1)).isoformat()

    def json_post(path, body):
        return api.post(path, data=json.dumps(body), content_type="application/json")

    return {
        "act version": lambda n: client.post(
            f"/games/{colt.pk}/act",
            {"action": json.dumps(_legal(colt)), "version": n},
            headers={"HX-Request": "true"},
        ),
        "extend seat": lambda n: client.post(
            f"/games/{napad.pk}/extend", {"seat": n}, headers={"HX-Request": "true"}
        ),
        "orders pile_index": lambda n: client.post(
            f"/games/{colt.pk}/orders",
            {"pile_index": n, "choice": "move:locomotive"},
            headers={"HX-Request": "true"},
        ),
        "notifications id": lambda n: client.post("/notifications/read", {"id": n}),
        "notifications page": lambda n: client.get("/notifications/", {"page": n}),
        "replay step and seat": lambda n: client.get(
            f"/games/{napad.pk}/replay", {"step": n, "seat": n}
        ),
        "league season": lambda n: client.get(f"/leagues/{league.slug}/", {"season": n}),
        "lobby page": lambda n: client.get("/games/", {"page": n}),
        "new table seats": lambda n: client.post(
            "/games/new", {"ruleset": ruleset.pk, "seats": n, "turn_time_limit": "24h"}
        ),
        "new season rounds": lambda n: client.post(
            f"/leagues/{league.slug}/seasons/new", {"starts_on": tomorrow, "rounds": n}
        ),
        "club night place": lambda n: client.post(
            f"/leagues/{league.slug}/results/new",
            {
                "played_on": timezone.localdate().isoformat(),
                "player_1": club["alice"].player.pk,
                "place_1": n,
                "player_2": napad.seats.get(position=1).player_id,
                "place_2": "2",
            },
        ),
        "admin ruleset diff": lambda n: client.get(
            f"/admin/games/ruleset/{ruleset.pk}/diff/", {"against": n}
        ),
        "admin changelist page": lambda n: client.get("/admin/games/game/", {"p": n, "o": n}),
        "api move expected_version": lambda n: json_post(
            f"/api/games/{colt.pk}/actions", {"action": _legal(colt), "expected_version": n}
        ),
        "api game id": lambda n: api.get(f"/api/games/{n}"),
        "api table id": lambda n: api.post(f"/api/tables/{n}/join"),
        "api log since and limit": lambda n: api.get(
            f"/api/games/{napad.pk}/log", {"since": n, "limit": n}
        ),
        "api new table": lambda n: json_post(
            "/api/tables", {"kind": "napad", "seats": n, "bot_seats": {n: "random"}}
        ),
        "api new table ruleset": lambda n: json_post("/api/tables", {"ruleset_id": n, "seats": 2}),
        "api new table bot seat": lambda n: json_post(
            "/api/tables", {"kind": "napad", "seats": 2, "bot_seats": {n: "random"}}
        ),
        "api standings": lambda n: api.get(f"/api/leagues/{n}/standings", {"season": n}),
        "api ratings limit": lambda n: api.get("/api/ratings/napad", {"limit": n}),
    }


def _fingerprint() -> tuple:
    """Rows of every model, every game's version, and how many notifications are unread."""
    counts = tuple(m.objects.count() for m in [User, *apps.get_app_config("games").get_models()])
    versions = tuple(Game.objects.order_by("pk").values_list("pk", "version"))
    unread = Notification.objects.filter(read_at__isnull=True).count()
    return counts, versions, unread


def test_odd_numerals_in_any_numeric_parameter_answer_clearly_and_change_nothing(club):
    targets = _targets(club)
    names = sorted(targets)
    before = _fingerprint()

    # Each example sends its own odd numeral to every parameter.
    @settings(max_examples=40)
    @given(numerals=st.lists(odd_numerals, min_size=len(names), max_size=len(names)))
    def send(numerals):
        # Each example starts from the same club, even after one that failed (shrinking).
        savepoint = transaction.savepoint()
        try:
            for name, numeral in zip(names, numerals):
                response = targets[name](numeral)
                assert response.status_code < 500, (name, numeral, response.content[:500])
                if response["Content-Type"].startswith("application/json"):
                    assert response.json()["detail"], (name, numeral)
                assert _fingerprint() == before, (name, numeral)
        finally:
            transaction.savepoint_rollback(savepoint)

    send()


@pytest.mark.parametrize("digits", ["٠", "०", "０"])
def test_a_move_made_on_version_zero_in_other_digits_is_not_played(club, digits):
    colt = club["colt"]
    assert colt.version == 0
    response = club["client"].post(
        f"/games/{colt.pk}/act",
        {"action": json.dumps(_legal(colt)), "version": digits},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert "which version of the game" in response.content.decode()
    colt.refresh_from_db()
    assert colt.version == 0
