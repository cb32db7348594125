"""The rest of the club in Polish and Portuguese: home, lobby, the create-table form (and its
errors), leagues, ratings, profile, leave, notifications written while the member read English,
and the digest and reminder emails (issue #13)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation
from django.utils.html import strip_tags
from django.utils.translation import gettext
from i18nkit import COLT_TM, LANGUAGES, NAPAD, heuristic, play_until, reader, table_started
from test_pages_translated import Reading

from games.models import Game, GameEvent, League, Notification, ReminderSent
from games.services.clocks.digest import digest_send
from games.services.clocks.reminders import reminder_email_send
from games.services.clocks.timeouts import seat_hand_to_bot
from games.services.leagues.demo import demo_league_ensure
from games.services.leagues.results import game_results_record
from games.services.moderation import game_abort
from games.services.notifications import notification_send, notification_text
from games.services.rulesets import rulesets_install_defaults
from tests.gamekit import COLT, open_table
from tests.personakit import member

pytestmark = pytest.mark.django_db


def gettext_in(language: str, text: str) -> str:
    with translation.override(language):
        return gettext(text)


def _club(alice, bob, charlie, dave):
    """A club with a league (a season, a round's table, a club-night result), a finished and
    rated game, running tables of both games with a bot, an open table, and notifications of
    every kind written while everyone read English."""
    rulesets_install_defaults()
    league = demo_league_ensure([alice, bob, charlie, dave])
    assert isinstance(league, League)
    finished = table_started(NAPAD, alice, bob, seed="club-finished")
    play_until(finished, heuristic(2), lambda state: False, limit=400)
    assert finished.status == Game.Status.FINISHED
    game_results_record(finished.pk)
    running = table_started(COLT_TM, alice, bob, bots={2: "heuristic"}, seed="club-colt")
    napad = table_started(NAPAD, alice, charlie, seed="club-napad")
    open_table(bob, slug=COLT, seats=3, bots={1: "random"})
    seat = napad.seats.get(player=charlie.player)
    seat.consecutive_timeouts = 3
    seat_hand_to_bot(game=napad, seat=seat)
    game_abort(game_id=running.pk, actor=dave, reason="Odpoczynek")
    notification_send(
        player=alice.player,
        kind="turn_reminder",
        text="Your turn in game #%(game)s: %(left)s left.",
        args={"game": napad.pk, "left": {"duration": 5 * 3600}},
        game=napad,
        key="i18n-reminder",
    )
    return {"league": league, "finished": finished, "napad": napad}


def test_the_club_reads_in_polish_and_portuguese(alice, bob, charlie, dave, mailoutbox):
    dave.is_staff = True
    dave.save()
    club = _club(alice, bob, charlie, dave)
    league = club["league"]
    assert Notification.objects.filter(player=alice.player).count() >= 3
    reading = Reading()
    for language in LANGUAGES:
        client = reader(alice, language)
        for url in (
            "/",
            "/games/",
            "/games/new",
            "/leagues/",
            f"/leagues/{league.slug}/",
            f"/leagues/{league.slug}/balance/",
            "/ratings/",
            f"/ratings/{alice.username}/",
            "/accounts/profile/",
            "/accounts/leave/",
            "/accounts/api-tokens/",
            "/notifications/",
            "/members/",
            f"/members/{bob.username}/",
            "/rules/",
            "/rules/napad-variant-a/v1/",
            "/rules/colt-express-time-machine/v1/",
            "/rules/colt-express-5-of-7/v1/",
        ):
            reading.get(client, url, language)
        # The form's own refusals: a bot on a seat that is not at the table, a bad size.
        reading.post(
            client,
            "/games/new",
            {"ruleset": "", "seats": "9", "turn_time_limit": "24h", "bot_5": "heuristic"},
            language,
            where="create form with errors",
        )
        # Every notification (written while the members read English) in today's language.
        for notification in Notification.objects.filter(player=alice.player):
            with translation.override(language):
                said = notification_text(notification)
            reading.text(f"notification {notification.kind}", said, language)
    reading.check()


def test_the_emails_read_in_the_members_language(alice, bob, charlie, mailoutbox):
    reading = Reading()
    for day, language in enumerate(LANGUAGES, start=1):
        mailoutbox.clear()
        alice.player.language = language
        alice.player.save()
        game = table_started(NAPAD, bob, alice, charlie, seed=f"mail-{language}")
        chooser = heuristic(4)

        def her_turn_after_others(state, game=game):
            last = GameEvent.objects.filter(game=game).order_by("-seq").first()
            return state["round"] >= 2 and state["turn"] == 1 and last.seat != 1

        play_until(game, chooser, her_turn_after_others)
        assert game.to_move == [1]
        now = timezone.now()
        assert digest_send(alice.player, now + timedelta(days=day))  # one digest a day
        ledger = ReminderSent.objects.create(
            game=game,
            version=game.version,
            seat=1,
            step=0,
            player=alice.player,
            outcome=ReminderSent.Outcome.SENT,
            deadline=game.deadline,
            email_due=True,
        )
        assert reminder_email_send(ledger.pk)
        assert len(mailoutbox) == 2
        digest = mailoutbox[0].body
        # What happened since her last move, in the log's own words (a gang, a cargo...).
        with translation.override(language):
            assert gettext("Since your last move:") in digest
        assert "Bob (" in digest.split(gettext_in(language, "Since your last move:"))[1]
        for mail in mailoutbox:
            reading.text(f"email {mail.subject!r}", mail.subject + "\n" + mail.body, language)
    reading.check()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_notification_reads_in_the_language_of_the_moment(alice, language):
    """Written while Alice read Polish, it reads in English once she switches (and back)."""
    alice.player.language = "pl"
    alice.player.save()
    game = table_started(NAPAD, alice, member("erin", "Erin"), seed="notify")
    notification_send(
        player=alice.player,
        kind="timeout",
        text="Time ran out in game #%(game)s: the clock played for you.",
        args={"game": game.pk},
        game=game,
    )
    notification = Notification.objects.get(player=alice.player, kind="timeout")
    assert "Czas" in notification.text  # as first written, in Polish
    english = reader(alice, "en").get("/notifications/").content.decode()
    assert f"Time ran out in game #{game.pk}: the clock played for you." in english
    other = reader(alice, language).get("/notifications/").content.decode()
    with translation.override(language):
        assert notification_text(notification) in other
    assert notification_text(notification, "en") != notification_text(notification, language)


def test_the_ratings_page_is_headed_in_the_readers_words(alice, bob, charlie, dave):
    """Portuguese says "cotação" for a rating (the loanword "Ratings" read as English here;
    "classificação" is the standings, "pontuação" the score: docs/glossary.md)."""
    _club(alice, bob, charlie, dave)
    for language, heading in (("pt-br", "Cotações do clube"), ("pl", "Rankingi klubu")):
        page = reader(alice, language).get("/ratings/").content.decode()
        assert heading in page
        assert "Ratings" not in strip_tags(page)
