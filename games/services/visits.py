"""Keeping each member's last visit to a table (``TableVisit``), for "since your last visit".

- A page load is a *visit*: if the member has not seen the current version, the panel opens
  from the version they saw last (``visit_page_open``: read with the game itself, written
  when the table moved on).
- What the open page is shown afterwards is *seen* (``visit_seen``): every change reaches
  the page's socket — HTMX answers too, as the same version is pushed — and the socket
  records the last one when it closes and with its presence refresh, never once per push. So
  moves watched live do not open the panel; while a panel is open, it stays open.
- Dismissing the panel closes it (``visit_close``). Acting closes it without a write: the
  page starts the panel after the member's own last move (games/table/rendering.py), so a move
  costs no query here.

None of these reads the events; each is one or two small queries whatever the game's length.
"""

from __future__ import annotations

import contextlib

from django.db import IntegrityError
from django.db.models import Case, F, PositiveIntegerField, Value, When
from django.utils import timezone

from games.models import Game, Player, TableVisit


def _visit(game_id: int, player_id: int, version: int, now) -> TableVisit:
    """A visit with nothing new to show: seen up to ``version``, its panel closed."""
    return TableVisit(
        game_id=game_id,
        player_id=player_id,
        seen_version=version,
        since_version=version,
        seen_at=now,
    )


def visit_page_open(game: Game, player: Player) -> int | None:
    """Record a page load of ``game`` at its current version; return where the "since your
    last visit" panel starts (a version before the current one), or None for no panel.

    ``game`` comes from ``game_with_seats(..., visit_of=player)``, which read the member's
    visit with the game: a reload with nothing new costs no query, a return one write."""
    now = timezone.now()
    version = game.version
    seen, since = getattr(game, "visit_seen", None), getattr(game, "visit_since", None)
    if not hasattr(game, "visit_seen"):
        visit = TableVisit.objects.filter(game=game, player=player).first()
        seen, since = (visit.seen_version, visit.since_version) if visit else (None, None)
    if seen is None:
        # A first visit (the creator right after opening, a member who just joined): nothing
        # happened that they could have missed.
        # One INSERT, as a later visit is one UPDATE (pages run in autocommit). Two tabs opening
        # at once: the second one's insert fails on the unique pair and changes nothing.
        with contextlib.suppress(IntegrityError):
            _visit(game.pk, player.pk, version, now).save(force_insert=True)
        return None
    if seen < version:
        # They come back to a table that moved on: the panel starts where they left it.
        since = seen
        TableVisit.objects.filter(game=game, player=player).update(
            seen_version=version, since_version=since, seen_at=now
        )
    return since if since < version else None


def visit_seen(game_id: int, player_id: int, version: int) -> None:
    """The member was shown ``version`` (an HTMX answer, a socket push). A closed panel stays
    closed (its start follows); an open one keeps its start."""
    TableVisit.objects.filter(
        game_id=game_id, player_id=player_id, seen_version__lt=version
    ).update(
        since_version=Case(
            When(
                since_version=F("seen_version"),
                then=Value(version, output_field=PositiveIntegerField()),
            ),
            default=F("since_version"),
        ),
        seen_version=version,
        seen_at=timezone.now(),
    )


def visit_close(game_id: int, player_id: int, version: int) -> None:
    """The member dismissed the panel: nothing is new to them up to ``version``, and the
    changed spots are no longer marked. One upsert, row or no row."""
    TableVisit.objects.bulk_create(
        [_visit(game_id, player_id, version, timezone.now())],
        update_conflicts=True,
        unique_fields=["game", "player"],
        update_fields=["seen_version", "since_version", "seen_at"],
    )
