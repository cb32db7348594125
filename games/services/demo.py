"""The demo club that ``runclub`` creates on its first run: members, and tables in progress.

The demo members' passwords are random, printed by ``runclub`` and kept in
``var/demo_logins.json`` (readable by the machine's owner only) so later runs can print them
again. A demo organiser (staff, in the "Rules editors" and "Moderators" groups, and named as an
organiser on the demo league: staff alone organises nothing) lets the admin and the league's
organiser pages be tried at once; its login is kept in ``var/demo_organiser.json`` the same way.
Nothing here runs unless ``runclub`` is started without ``--no-demo``.
"""

from __future__ import annotations

import json
import secrets
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from games.models import League, Ruleset

from .accounts import display_name_free, user_sign_up
from .leagues.demo import DEMO_LEAGUE_SLUG, demo_league_ensure
from .organisers import MODERATORS, RULES_EDITORS, organiser_groups_install
from .play import game_create, game_start, seat_join

DEMO_MEMBERS = [
    ("alice", "Alice", "Europe/Warsaw", "pl"),
    ("bob", "Bob", "Europe/London", "en"),
    ("carla", "Carla", "Europe/Lisbon", "pt-br"),
    ("dan", "Dan", "America/New_York", "en"),
]


DEMO_ORGANISER = ("organiser", "Olga (organiser)")


def _logins_file() -> Path:
    return Path(settings.VAR_DIR) / "demo_logins.json"


def _organiser_file() -> Path:
    return Path(settings.VAR_DIR) / "demo_organiser.json"


def _secret_write(path: Path, data) -> None:
    path.write_text(json.dumps(data))
    path.chmod(0o600)


def demo_organiser_login() -> tuple[str, str] | None:
    """The demo organiser's username and password, once created."""
    path = _organiser_file()
    if not path.exists():
        return None
    username, password = json.loads(path.read_text())
    return username, password


def demo_organiser_ensure() -> bool:
    """Create the demo organiser — staff, a rules editor and a moderator — unless it exists
    (also for a demo club made before there was one). True when it was created."""
    username, display_name = DEMO_ORGANISER
    existing = get_user_model().objects.filter(username=username).first()
    if existing is not None:
        _demo_organiser_name_on_leagues(existing)
        return False
    organiser_groups_install()
    password = secrets.token_urlsafe(9)
    with transaction.atomic():
        user = user_sign_up(
            username=username,
            email=f"{username}@example.org",
            password=password,
            display_name=display_name_free(display_name),
        )
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        user.groups.add(*Group.objects.filter(name__in=[RULES_EDITORS, MODERATORS]))
        _demo_organiser_name_on_leagues(user)
    _secret_write(_organiser_file(), [username, password])
    return True


def _demo_organiser_name_on_leagues(user) -> None:
    """Name the demo organiser on the demo league (once it exists), beside its member."""
    player = getattr(user, "player", None)
    if player is None:
        return
    for league in League.objects.filter(slug=DEMO_LEAGUE_SLUG):
        league.organisers.add(player)


def demo_logins() -> list[tuple[str, str]]:
    """The demo members' usernames and passwords, as created on the first run."""
    path = _logins_file()
    if not path.exists():
        return []
    return [tuple(pair) for pair in json.loads(path.read_text())]


def _published(slug_prefix: str, kind: str) -> Ruleset | None:
    return (
        Ruleset.objects.filter(kind=kind, status=Ruleset.Status.PUBLISHED, slug=slug_prefix)
        .order_by("-version")
        .first()
        or Ruleset.objects.filter(kind=kind, status=Ruleset.Status.PUBLISHED)
        .order_by("slug", "-version")
        .first()
    )


def demo_club_ensure() -> bool:
    """Create the demo club unless a demo member already exists. True when it was created."""
    User = get_user_model()
    if User.objects.filter(username=DEMO_MEMBERS[0][0]).exists():
        return False
    logins: list[tuple[str, str]] = []
    with transaction.atomic():
        users = {}
        for username, display_name, time_zone, language in DEMO_MEMBERS:
            password = secrets.token_urlsafe(9)
            users[username] = user_sign_up(
                username=username,
                email=f"{username}@example.org",
                password=password,
                display_name=display_name_free(display_name),
                time_zone=time_zone,
                language=language,
            )
            logins.append((username, password))
        _demo_tables_create(users)
    _secret_write(_logins_file(), logins)
    demo_league_ensure(list(users.values()))
    return True


def _demo_tables_create(users: dict) -> None:
    """A few tables: some running with bots, one open for members to join."""
    alice, bob, carla, dan = (users[name] for name, *_ in DEMO_MEMBERS)
    napad = _published("napad", "napad")
    if napad is not None:
        # Alice and Bob against two bots, under way.
        game = game_create(
            creator=alice,
            ruleset=napad,
            seats=4,
            turn_time_limit=timedelta(hours=24),
            bot_seats={1: "heuristic", 2: "random"},
        )
        seat_join(game_id=game.pk, user=bob)
        game_start(game_id=game.pk, user=alice)
        # An open table waiting for one more member.
        open_table = game_create(
            creator=carla, ruleset=napad, seats=3, turn_time_limit=timedelta(hours=12)
        )
        seat_join(game_id=open_table.pk, user=dan)
    colt = _published("colt-express", "colt")
    if colt is not None:
        game = game_create(
            creator=bob,
            ruleset=colt,
            seats=4,
            turn_time_limit=timedelta(hours=24),
            bot_seats={2: "heuristic", 3: "random"},
        )
        seat_join(game_id=game.pk, user=carla)
        game_start(game_id=game.pk, user=bob)
