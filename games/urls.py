"""URLs of the games app, grouped by area."""

from django.urls import path

from .views import lobby, pages, play, rules

urlpatterns = [
    path("", pages.home, name="home"),
    path("games/", lobby.lobby, name="lobby"),
    path("games/new", lobby.game_create_view, name="game_create"),
    path("games/<int:game_id>/", play.game_detail, name="game_detail"),
    path("games/<int:game_id>/act", play.game_act, name="game_act"),
    path("games/<int:game_id>/join", play.seat_join, name="seat_join"),
    path("games/<int:game_id>/leave", play.seat_leave, name="seat_leave"),
    path("games/<int:game_id>/start", play.game_start, name="game_start"),
    path("games/<int:game_id>/cancel", play.game_cancel, name="game_cancel"),
    path("games/<int:game_id>/log", play.game_log, name="game_log"),
    path("games/<int:game_id>/chat", play.chat_post, name="chat_post"),
    path("games/<int:game_id>/verify", play.game_verify_view, name="game_verify"),
    path("games/<int:game_id>/replay", play.game_replay, name="game_replay"),
    path("rules/", rules.rules_index, name="rules_index"),
    path("rules/<slug:slug>/v<int:version>/", rules.rules_detail, name="rules_detail"),
]
