"""URLs of every face, wired together (the project's wiring, not the core)."""

from django.contrib import admin
from django.urls import path

from bunco import views as core_views
from bunco.host import views as host
from bunco.tv import views as tv
from tables import views as phones

urlpatterns = [
    path("", host.home, name="home"),
    path("host/", host.host_dashboard, name="host_dashboard"),
    path("host/nights/", host.host_night_create, name="host_night_create"),
    path("host/demo/", host.host_demo, name="host_demo"),
    path("host/season/", host.host_season, name="host_season"),
    path("host/season/merge/", host.host_people_merge, name="host_people_merge"),
    path("host/season/split/<int:player_pk>/", host.host_player_split,
         name="host_player_split"),
    path("host/nights/<int:pk>/", host.host_night, name="host_night"),
    path("host/nights/<int:pk>/rules/", host.host_rules, name="host_rules"),
    path("host/nights/<int:pk>/rules/preset/", host.host_rules_preset, name="host_rules_preset"),
    path("host/nights/<int:pk>/players/", host.host_players_add, name="host_players_add"),
    path("host/nights/<int:pk>/players/<int:player_pk>/remove/", host.host_player_remove,
         name="host_player_remove"),
    path("host/nights/<int:pk>/seat/", host.host_seat, name="host_seat"),
    path("host/nights/<int:pk>/arrive/", host.host_player_arrive, name="host_player_arrive"),
    path("host/nights/<int:pk>/players/<int:player_pk>/leave/", host.host_player_leave,
         name="host_player_leave"),
    path("host/nights/<int:pk>/players/<int:player_pk>/rename/", host.host_player_rename,
         name="host_player_rename"),
    path("host/nights/<int:pk>/pause/", host.host_pause, name="host_pause"),
    path("host/nights/<int:pk>/sheet/", host.host_sheet, name="host_sheet"),
    path("host/nights/<int:pk>/awards/", host.host_awards, name="host_awards"),
    path("host/nights/<int:pk>/again/", host.host_night_again, name="host_night_again"),
    path("host/nights/<int:pk>/roll-off/", host.host_roll_off, name="host_roll_off"),
    path("host/nights/<int:pk>/tie-split/", host.host_tie_split, name="host_tie_split"),
    path("host/nights/<int:pk>/reveal/", host.host_reveal, name="host_reveal"),
    path("host/nights/<int:pk>/sheet.csv", host.host_sheet_csv, name="host_sheet_csv"),
    path("host/nights/<int:pk>/log/", host.host_log, name="host_log"),
    path("host/nights/<int:pk>/swap/", host.host_swap, name="host_swap"),
    path("host/nights/<int:pk>/start/", host.host_round_start, name="host_round_start"),
    path("host/nights/<int:pk>/bell/", host.host_bell, name="host_bell"),
    path("host/nights/<int:pk>/takeback/", host.host_takeback, name="host_takeback"),
    path("host/nights/<int:pk>/void/", host.host_void, name="host_void"),
    path("host/nights/<int:pk>/end/", host.host_end, name="host_end"),
    path("host/<str:secret>/", host.host_login, name="host_login"),
    path("j/<str:token>/", phones.join, name="join"),
    path("p/<str:token>/", phones.player, name="player"),
    path("p/<str:token>/<str:action>/", phones.player_tap, name="player_tap"),
    path("t/<str:token>/", phones.table_page, name="table"),
    path("t/<str:token>/<str:action>/", phones.table_tap, name="table_tap"),
    path("tv/<str:token>/", tv.tv, name="tv"),
    path("qr.svg", core_views.qr, name="qr"),
    path("admin/", admin.site.urls),
]
