"""URLs of the games app, grouped by area."""

from django.urls import path

from .views import clocks, lobby, pages, play, practice, push_devices, pwa, rules, since
from .views import leagues as league_views

urlpatterns = [
    path("", pages.home, name="home"),
    path("games/", lobby.lobby, name="lobby"),
    path("games/new", lobby.game_create_view, name="game_create"),
    path("games/practice", practice.practice_start, name="practice_start"),
    path("games/<id:game_id>/", play.game_detail, name="game_detail"),
    path("games/<id:game_id>/act", play.game_act, name="game_act"),
    path("games/<id:game_id>/join", play.seat_join, name="seat_join"),
    path("games/<id:game_id>/leave", play.seat_leave, name="seat_leave"),
    path("games/<id:game_id>/start", play.game_start, name="game_start"),
    path("games/<id:game_id>/cancel", play.game_cancel, name="game_cancel"),
    path("games/<id:game_id>/log", play.game_log, name="game_log"),
    path("games/<id:game_id>/chat", play.chat_post, name="chat_post"),
    path("games/<id:game_id>/verify", play.game_verify_view, name="game_verify"),
    path("games/<id:game_id>/replay", play.game_replay, name="game_replay"),
    # "Since your last visit": dismiss the panel, watch those moves on the board.
    path("games/<id:game_id>/since/dismiss", since.since_dismiss, name="since_dismiss"),
    path("games/<id:game_id>/watch", since.game_watch, name="game_watch"),
    # Turn clocks: "+24 h", standing orders, leave, notifications.
    path("games/<id:game_id>/extend", clocks.deadline_extend_view, name="deadline_extend"),
    path("games/<id:game_id>/orders", clocks.standing_order_set_view, name="standing_order_set"),
    path("accounts/leave/", clocks.leave_page, name="leave"),
    path("accounts/leave/<id:leave_id>/cancel", clocks.leave_cancel_view, name="leave_cancel"),
    path("notifications/", clocks.notification_list, name="notification_list"),
    path("notifications/read", clocks.notifications_read, name="notifications_read"),
    # The installable site and Web Push (games/views/pwa.py, games/views/push_devices.py).
    path("manifest.webmanifest", pwa.web_manifest, name="web_manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path(
        "accounts/push/devices/",
        push_devices.push_device_subscribe_view,
        name="push_device_subscribe",
    ),
    path(
        "accounts/push/devices/forget",
        push_devices.push_device_forget_view,
        name="push_device_forget",
    ),
    path(
        "accounts/push/devices/<id:device_id>/remove",
        push_devices.push_device_remove_view,
        name="push_device_remove",
    ),
    path("rules/", rules.rules_index, name="rules_index"),
    path("rules/<slug:slug>/v<id:version>/", rules.rules_detail, name="rules_detail"),
    # Leagues and ratings (games/views/leagues.py).
    path("leagues/", league_views.league_list, name="league_list"),
    path("leagues/<slug:slug>/", league_views.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/join", league_views.league_join, name="league_join"),
    path("leagues/<slug:slug>/leave", league_views.league_leave, name="league_leave"),
    path("leagues/<slug:slug>/balance/", league_views.league_balance, name="league_balance"),
    path(
        "leagues/<slug:slug>/results/new", league_views.league_result_new, name="league_result_new"
    ),
    path(
        "leagues/<slug:slug>/results/<id:fixture_id>/confirm",
        league_views.league_result_confirm,
        name="league_result_confirm",
    ),
    path(
        "leagues/<slug:slug>/results/<id:fixture_id>/reject",
        league_views.league_result_reject,
        name="league_result_reject",
    ),
    path(
        "leagues/<slug:slug>/members/<id:membership_id>/decide",
        league_views.league_member_decide,
        name="league_member_decide",
    ),
    path(
        "leagues/<slug:slug>/seasons/new",
        league_views.league_season_create,
        name="league_season_create",
    ),
    path(
        "leagues/<slug:slug>/seasons/<id:number>/start",
        league_views.league_season_start,
        name="league_season_start",
    ),
    path(
        "leagues/<slug:slug>/seasons/<id:number>/finish",
        league_views.league_season_finish,
        name="league_season_finish",
    ),
    path(
        "leagues/<slug:slug>/rounds/<id:round_id>/open",
        league_views.league_round_open,
        name="league_round_open",
    ),
    path("ratings/", league_views.rating_list, name="rating_list"),
    path("ratings/<str:username>/", league_views.player_ratings, name="player_ratings"),
]
