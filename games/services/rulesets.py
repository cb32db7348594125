"""The rulesets every club starts with, installed idempotently at each start.

``rulesets_install_defaults()`` creates each default (slug + version) that is missing and
never touches one that exists: a published version never changes, and an organiser's edits
make new versions. Kinds whose engine cannot be imported yet are skipped, so a site running
before an engine lands still starts, and picks the rulesets up at a later start.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engines import get_engine
from games.models import Ruleset, RulesText

from . import rules_texts as texts

logger = logging.getLogger(__name__)


def pgettext_noop(context: str, message: str) -> str:
    """Mark a message with a context for translation, as it is (Django has no such helper;
    the club's makemessages knows this keyword)."""
    return message


NAPAD_RULES = """\
**To jest napad!** (Nasza Księgarnia, 2021; after Michael Schacht's *Caramba!*), 2–4 players.

> **Designed default card data.** The published card-by-card values are not known. Every gang
> has the same balanced 15 cards (each colour has ten halves worth 2, 3, 3, 4, 4, 5, 5, 6, 6, 7)
> and each cargo has wagons worth 2, 2, 3, 3, 4, 5. Organisers can replace these numbers with
> their own copy's in a new ruleset version.

**Setup.** Three face-down stacks of wagons (gold = yellow, dynamite = red, money = green).
Each player shuffles their gang's 15 cards into a hideout and draws 5.

**A round (6 rounds).**
1. Three new wagons join the train, one of each cargo.
2. *It's a robbery!* From the marker holder, in seat order, each player plays one card with the
   half of their choice up (that half's colour is what it bids on) or passes. Who passed is out
   of this round's bidding. The marker holder may not pass on their first turn.
3. *Divide the loot*, per colour: the single highest total captures **all** wagons of that
   colour and those cards leave the game; everyone else's cards of that colour return to hand.
   A tie at the top: nobody captures, all those cards return to hand.
4. Everyone draws 2 cards from their hideout; the marker passes to the next seat.

**Scoring.** The sum of the values of your captured wagons. A tie is broken by more cards left
in hand; after that the place is shared.
"""

NAPAD_VARIANT_A_RULES = """\
**Variant A: scoring with bullets.** For each colour: *n* = your captured wagons of that colour,
*h* = the highest value among them; whoever has the most bullets of that colour (on the halves
of the cards that captured it, plus the wagons' own bullets; at least one) adds 1 to *h*.
Score for the colour = *n* × *h*.
"""

NAPAD_VARIANT_B_RULES = """\
**Variant B: bonus for wagons of value 2.** Whoever captured the most wagons worth 2 (any
colour; at least one) scores +1 for each of them; tied players all do.
"""

COLT_RULES = """\
**Colt Express** (Ludonaute, 2014), 2–6 players, 5 rounds.

**Setup.** The locomotive and one car per player (two cars with 2 players), loot inside each
car (purses face down, jewels), the marshal and a strongbox in the locomotive. Each bandit has
10 action cards, 6 bullets and a $250 purse.

**Schemin'.** Everyone draws 6 cards (Doc 7). For each turn on the round card, each player plays
one action card on the common pile or draws 3. Normal turns are played face up, tunnels face
down; a speeding-up turn is two turns in a row; a switching turn goes counter-clockwise.

**Stealin'.** The pile resolves first played, first resolved. *Move* (inside: one car; roof: 1–3
cars), *Floor change*, *Fire* (give a bullet card to a bandit in line of sight), *Robbery* (take
one loot from your spot), *Punch* (a bandit in your spot drops a loot and is pushed one car),
*Marshal* (move him one car). A bandit can never be inside the marshal's car: he takes a
neutral bullet and climbs to the roof. The card's owner makes each choice as it resolves.

**End of a round.** The round card's event happens; the first player passes to the left.

**Scoring.** Your loot, plus $1000 to every player tied for the most bullets fired (the
*Gunslinger*). A tie goes to whoever received fewer bullet cards; after that it is shared.

**Characters.** Belle is not targeted when another bandit could be; Cheyenne keeps a purse she
punches loose; Django's shots push the target a car away; Doc draws 7; Ghost may play his first
card of a round face down; Tuco may shoot through the roof of his own car.
"""

COLT_ROUND_DECK_PUBLISHED = """\
**Round deck (as published).** Four random round cards for the number of players, then one
train station card as the fifth round.
"""

COLT_ROUND_DECK_GUIDE = """\
**Round deck: "5 of 7".** Five random round cards out of the seven for the number of players,
and no train station card (the Portuguese rules guide's wording).
"""

COLT_TIME_MACHINE_RULES = """\
**Time Machine.** A single spot in front of the locomotive, next to both its roof and its
inside. A move may enter it (a roof move counts it as one step beyond the locomotive); the
marshal never enters it. From it you can shoot roofs in line of sight and the locomotive's
inside. After Braking, bandits on the locomotive's roof go into it. If exactly one bandit is in
it at the end of a round, he secretly hides under a car and reappears inside it when Stealin'
starts; at the end of the game a lone bandit in it gets $500 and the loot lying there.
"""


@dataclass(frozen=True)
class DefaultRuleset:
    kind: str
    slug: str
    name: str
    rules_text: str
    # Settings that differ from the engine's default config.
    overrides: dict[str, Any] = field(default_factory=dict)
    version: int = 1
    # The same rules in other languages (games/services/rules_texts.py): parts to join.
    translated_parts: tuple[dict[str, str], ...] = ()


DEFAULT_RULESETS = (
    DefaultRuleset(
        kind="napad",
        slug="napad-designed-default",
        name=pgettext_noop("ruleset name", "To jest napad! (designed default cards)"),
        rules_text=NAPAD_RULES,
        translated_parts=(texts.NAPAD_RULES,),
    ),
    DefaultRuleset(
        kind="napad",
        slug="napad-variant-a",
        name=pgettext_noop(
            "ruleset name", "To jest napad! variant A: bullets (designed default cards)"
        ),
        rules_text=NAPAD_RULES + "\n" + NAPAD_VARIANT_A_RULES,
        overrides={"variant_a_bullets": True},
        translated_parts=(texts.NAPAD_RULES, texts.NAPAD_VARIANT_A_RULES),
    ),
    DefaultRuleset(
        kind="napad",
        slug="napad-variant-b",
        name=pgettext_noop(
            "ruleset name", "To jest napad! variant B: wagons of value 2 (designed default cards)"
        ),
        rules_text=NAPAD_RULES + "\n" + NAPAD_VARIANT_B_RULES,
        overrides={"variant_b_twos": True},
        translated_parts=(texts.NAPAD_RULES, texts.NAPAD_VARIANT_B_RULES),
    ),
    DefaultRuleset(
        kind="colt",
        slug="colt-express",
        name=pgettext_noop("ruleset name", "Colt Express"),
        rules_text=COLT_RULES + "\n" + COLT_ROUND_DECK_PUBLISHED,
        translated_parts=(texts.COLT_RULES, texts.COLT_ROUND_DECK_PUBLISHED),
    ),
    DefaultRuleset(
        kind="colt",
        slug="colt-express-time-machine",
        name=pgettext_noop("ruleset name", "Colt Express + Time Machine"),
        rules_text=COLT_RULES + "\n" + COLT_ROUND_DECK_PUBLISHED + "\n" + COLT_TIME_MACHINE_RULES,
        overrides={"time_machine": True},
        translated_parts=(
            texts.COLT_RULES,
            texts.COLT_ROUND_DECK_PUBLISHED,
            texts.COLT_TIME_MACHINE_RULES,
        ),
    ),
    DefaultRuleset(
        kind="colt",
        slug="colt-express-5-of-7",
        name=pgettext_noop("ruleset name", "Colt Express, “5 of 7” round deck"),
        rules_text=COLT_RULES + "\n" + COLT_ROUND_DECK_GUIDE,
        overrides={"round_deck": "guide"},
        translated_parts=(texts.COLT_RULES, texts.COLT_ROUND_DECK_GUIDE),
    ),
)


def _importable_engine(kind: str):
    try:
        return get_engine(kind)
    except ImportError:
        # The engine is not written yet (or broken): its rulesets wait for a later start.
        logger.info("rulesets: engine %r is not importable yet; its defaults wait", kind)
        return None


def rulesets_install_defaults() -> list[Ruleset]:
    """Create the missing default rulesets (published); return the ones created."""
    created: list[Ruleset] = []
    existing = set(Ruleset.objects.values_list("slug", "version"))
    for default in DEFAULT_RULESETS:
        if (default.slug, default.version) in existing:
            continue
        engine = _importable_engine(default.kind)
        if engine is None:
            continue
        config = engine.validate_config({**engine.default_config(), **default.overrides})
        try:
            with transaction.atomic():
                ruleset = Ruleset.objects.create(
                    kind=default.kind,
                    slug=default.slug,
                    version=default.version,
                    name=default.name,
                    rules_text=default.rules_text,
                    config=config,
                    status=Ruleset.Status.PUBLISHED,
                    published_at=timezone.now(),
                )
        except IntegrityError:
            # Another process (the worker starting beside the web server) created it first.
            continue
        created.append(ruleset)
    _default_rules_texts_install()
    return created


def _default_rules_texts_install() -> None:
    """The default rulesets' rules in Polish and Portuguese, where no text in that language
    exists yet or where it is still a superseded default text (an organiser's own translation
    is never replaced)."""
    wanted = {(d.slug, d.version): d for d in DEFAULT_RULESETS if d.translated_parts}
    rulesets = [
        ruleset
        for ruleset in Ruleset.objects.filter(slug__in={slug for slug, _v in wanted})
        if (ruleset.slug, ruleset.version) in wanted
    ]
    by_id = {ruleset.pk: ruleset for ruleset in rulesets}
    existing = list(RulesText.objects.filter(ruleset__in=rulesets, language__in=texts.LANGUAGES))
    have = {(row.ruleset_id, row.language) for row in existing}
    # A default text shipped before (European Portuguese) and never edited gives way to today's.
    for row in existing:
        if texts.superseded(row.text):
            ruleset = by_id[row.ruleset_id]
            row.text = texts.translated(
                list(wanted[ruleset.slug, ruleset.version].translated_parts), row.language
            )
            row.save(update_fields=["text", "updated_at"])
    missing = [
        RulesText(
            ruleset=ruleset,
            language=language,
            text=texts.translated(
                list(wanted[ruleset.slug, ruleset.version].translated_parts), language
            ),
        )
        for ruleset in rulesets
        for language in texts.LANGUAGES
        if (ruleset.pk, language) not in have
    ]
    if missing:
        RulesText.objects.bulk_create(missing, ignore_conflicts=True)
