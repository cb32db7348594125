"""Helpers for the translated-pages test: what a person reads on a page, the English that must
not be there, and games at the moments worth looking at.

``visible_texts(html)`` is every text node a person reads (plus the attributes a screen reader
says: ``title``, ``aria-label``, ``alt``, ``placeholder``), skipping scripts, styles, code
(seeds and hashes) and anything marked with another ``lang``. ``english_leftovers`` finds, in
those texts, an English message of the catalogue whose translation differs (a string that was
never translated where it is shown), or an English game term (a card, cargo, gang, round card,
event, bot kind, place on the train) — what the catalogues' statistics never see: a term passed
as an argument and shown as it is.
"""

from __future__ import annotations

import ast
import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.test import Client
from django.utils.translation import to_locale

from games.engines import get_engine
from games.models import Game, Seat
from games.services.play import move_play_for_seat
from tests import gamekit
from tests.markupkit import Element, parse, squash
from tests.personakit import client_for

# The Colt position helpers of the engine tests (a table with bandits and loot where we want).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engines" / "colt"))
import colt_positions  # noqa: E402

LOCALE_DIR = Path(settings.BASE_DIR) / "games" / "locale"
LANGUAGES = ("pl", "pt-br")


def reader(user, language: str) -> Client:
    """A logged-in client whose member reads ``language`` (profile and cookie, as after a
    log-in)."""
    user.player.language = language
    user.player.save(update_fields=["language"])
    client = client_for(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


# English game terms no Polish or Portuguese page may show. Word-bounded, case-insensitive.
# Words that read the same in a translation ("Normal", "Colt Express", the bandits' names) are
# not here; the catalogue check catches a whole untranslated label anyway.
GAME_TERMS = (
    # Colt Express: cards, phases, turns, round cards and stations, loot, the train
    "Floor change",
    "Robbery",
    "Punch",
    "Marshal",
    "Bullet",
    "bullets",
    "Schemin",
    "Stealin",
    "Speeding-up",
    "Switching",
    "Tunnel",
    "Tunnels",
    "Angry Marshal",
    "Swivel Arm",
    "Braking",
    "Take It All",
    "Passengers",
    "Speed-up",
    "Pickpocketing",
    "Hostage-Taking",
    "Conductor",
    "purse",
    "purses",
    "jewel",
    "jewels",
    "strongbox",
    "strongboxes",
    "caboose",
    "locomotive",
    "roof",
    "Time Machine",
    "Gunslinger",
    "loot",
    # To jest napad!: gangs, cargo, colours, the table
    "cowboys",
    "Mexicans",
    "deserters",
    "Indians",
    "gold",
    "dynamite",
    "money",
    "yellow",
    "green",
    "wagon",
    "wagons",
    "hideout",
    "treasury",
    "reinforcements",
    "robbery",
    "starting player",
    # bots
    "heuristic",
    "random",
    "Bot (",
)
_TERMS = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(term) for term in GAME_TERMS) + r")(?![\w-])",
    re.IGNORECASE,
)
_SAID_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")
_SKIPPED = {"script", "style", "code", "template", "noscript"}


def visible_texts(html: str, language: str) -> list[str]:
    texts: list[str] = []

    def read(element: Element) -> None:
        for child in element.children:
            if isinstance(child, str):
                if text := squash(child):
                    texts.append(text)
                continue
            lang = child.attrs.get("lang")
            if child.tag in _SKIPPED or (
                lang is not None and lang.split("-")[0] != language.split("-")[0]
            ):
                continue
            for name in _SAID_ATTRIBUTES:
                if child.attrs.get(name):
                    texts.append(squash(child.attrs[name]))
            value = child.attrs.get("value")
            if child.tag == "input" and child.attrs.get("type") in ("submit", "button") and value:
                texts.append(squash(value))
            read(child)

    read(parse(html))
    return texts


def plain_texts(body: str) -> list[str]:
    """An email's lines (plain text)."""
    return [squash(line) for line in body.splitlines() if line.strip()]


# --- the catalogue ----------------------------------------------------------------------------


def _po_entries(path: Path) -> list[dict]:
    """msgctxt / msgid / msgid_plural / msgstr[n] of a .po file (no fuzzy entries are left)."""
    entries, entry, key = [], {}, None
    for raw in path.read_text().splitlines() + [""]:
        line = raw.strip()
        if not line:
            if entry:
                entries.append(entry)
            entry, key = {}, None
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            entry[key] += ast.literal_eval(line)
            continue
        key, _space, value = line.partition(" ")
        entry[key] = ast.literal_eval(value)
    return entries


@dataclass
class Catalogue:
    language: str
    # English text -> its translation, for every message whose translation differs and that
    # is not also the translation of another message (Polish "Start" is "Home").
    untranslated_if_seen: dict[str, str] = field(default_factory=dict)


_CATALOGUES: dict[str, Catalogue] = {}


def catalogue(language: str) -> Catalogue:
    if language in _CATALOGUES:
        return _CATALOGUES[language]
    found = Catalogue(language)
    said = set()
    for entry in _po_entries(LOCALE_DIR / to_locale(language) / "LC_MESSAGES" / "django.po"):
        msgid = entry.get("msgid", "")
        if not msgid:
            continue
        english = [msgid] + ([entry["msgid_plural"]] if "msgid_plural" in entry else [])
        translations = [v for k, v in entry.items() if k.startswith("msgstr")]
        said.update(squash(text) for text in translations)
        for text in english:
            if "%(" in text or "{" in text or "<" in text:
                continue  # a message with placeholders or markup never shows as it is
            if text not in translations:
                found.untranslated_if_seen[squash(text)] = translations[0] if translations else ""
    for text in said:
        found.untranslated_if_seen.pop(text, None)
    _CATALOGUES[language] = found
    return found


# The English terms that are also words of a language ("wagon" is Polish too).
SAME_WORDS = {"pl": {"wagon"}, "pt-br": set()}


def english_leftovers(texts: list[str], language: str) -> list[str]:
    """The texts that are English a translation exists for, or that name an English term."""
    known = catalogue(language).untranslated_if_seen
    same = SAME_WORDS.get(language, set())
    found = []
    for text in texts:
        if text in known:
            found.append(f"untranslated message: {text!r} (should read {known[text]!r})")
            continue
        terms = [t for t in _TERMS.findall(text) if t.lower() not in same]
        if terms:
            found.append(f"English game term {terms[0]!r} in: {text!r}")
    return found


# --- games at the moments worth looking at ----------------------------------------------------

NAPAD = "napad-designed-default"
COLT_TM = "colt-express-time-machine"


def table_started(slug: str, creator, *others, seed: str = "i18n-seed", bots=None) -> Game:
    """A started table whose seed is fixed (so the same moments come every run)."""
    game = gamekit.started_game(creator, *others, slug=slug, bots=bots)
    engine = get_engine(game.kind)
    state = engine.setup(game.config, game.seats_count, seed, **game.setup_args)
    from games.services.play import seed_hash

    Game.objects.filter(pk=game.pk).update(
        seed=seed,
        seed_hash=seed_hash(seed),
        state=engine.to_json(state),
        to_move=engine.to_move(state),
    )
    seats = list(Seat.objects.filter(game=game))
    for seat in seats:
        seat.identity = engine.seat_identity(state, seat.position)
    Seat.objects.bulk_update(seats, ["identity"])
    game.refresh_from_db()
    return game


def play_step(game: Game, chooser) -> dict:
    """The seat to move plays what ``chooser(engine, state, seat, actions)`` picks."""
    game.refresh_from_db()
    engine = get_engine(game.kind)
    state = engine.from_json(game.state)
    seat = game.to_move[0]
    action = chooser(engine, state, seat, engine.legal_actions(state, seat))
    result = move_play_for_seat(
        game_id=game.pk,
        position=seat,
        action=json.dumps({k: v for k, v in action.items() if k != "label"}),
        expected_version=game.version,
    )
    assert result.ok, result.message
    game.refresh_from_db()
    return action


def heuristic(seed: int = 1):
    """The engines' heuristic bot with its own fixed RNG: a plausible, repeatable game."""
    rng = random.Random(seed)

    def choose(engine, state, seat, actions):
        return engine.bots["heuristic"](engine, state, seat, rng)

    return choose


def play_until(game: Game, chooser, done, limit: int = 600) -> None:
    for _step in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return
        engine = get_engine(game.kind)
        if done(engine.from_json(game.state)):
            return
        play_step(game, chooser)
    raise AssertionError("the moment never came")


def state_put(game: Game, state: dict) -> Game:
    """Show ``state`` at this table (the page draws it; the log stays what was played)."""
    engine = get_engine(game.kind)
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_json(state), to_move=engine.to_move(state), version=game.version
    )
    game.refresh_from_db()
    return game


COLT = colt_positions
