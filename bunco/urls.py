from django.contrib import admin
from django.urls import path

from bunco import views
from tables import views as table_views

urlpatterns = [
    path("", views.home, name="home"),
    path("host/", views.host_dashboard, name="host_dashboard"),
    path("host/nights/", views.host_night_create, name="host_night_create"),
    path("host/demo/", views.host_demo, name="host_demo"),
    path("host/nights/<int:pk>/", views.host_night, name="host_night"),
    path("host/nights/<int:pk>/rules/", views.host_rules, name="host_rules"),
    path("host/nights/<int:pk>/rules/preset/", views.host_rules_preset, name="host_rules_preset"),
    path("host/nights/<int:pk>/players/", views.host_players_add, name="host_players_add"),
    path("host/nights/<int:pk>/players/<int:player_pk>/remove/", views.host_player_remove,
         name="host_player_remove"),
    path("host/nights/<int:pk>/seat/", views.host_seat, name="host_seat"),
    path("host/nights/<int:pk>/arrive/", views.host_player_arrive, name="host_player_arrive"),
    path("host/nights/<int:pk>/players/<int:player_pk>/leave/", views.host_player_leave,
         name="host_player_leave"),
    path("host/nights/<int:pk>/players/<int:player_pk>/rename/", views.host_player_rename,
         name="host_player_rename"),
    path("host/nights/<int:pk>/pause/", views.host_pause, name="host_pause"),
    path("host/nights/<int:pk>/sheet/", views.host_sheet, name="host_sheet"),
    path("host/nights/<int:pk>/awards/", views.host_awards, name="host_awards"),
    path("host/nights/<int:pk>/again/", views.host_night_again, name="host_night_again"),
    path("host/nights/<int:pk>/sheet.csv", views.host_sheet_csv, name="host_sheet_csv"),
    path("host/nights/<int:pk>/log/", views.host_log, name="host_log"),
    path("host/nights/<int:pk>/swap/", views.host_swap, name="host_swap"),
    path("host/nights/<int:pk>/start/", views.host_round_start, name="host_round_start"),
    path("host/nights/<int:pk>/bell/", views.host_bell, name="host_bell"),
    path("host/nights/<int:pk>/void/", views.host_void, name="host_void"),
    path("host/nights/<int:pk>/end/", views.host_end, name="host_end"),
    path("host/<str:secret>/", views.host_login, name="host_login"),
    path("j/<str:token>/", views.join, name="join"),
    path("p/<str:token>/", views.player, name="player"),
    path("p/<str:token>/<str:action>/", views.player_tap, name="player_tap"),
    path("t/<str:token>/", table_views.table_page, name="table"),
    path("t/<str:token>/<str:action>/", table_views.table_tap, name="table_tap"),
    path("tv/<str:token>/", views.tv, name="tv"),
    path("qr.svg", views.qr, name="qr"),
    path("admin/", admin.site.urls),
]
