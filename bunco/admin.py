"""The admin, read-only: it shows nights, players and the log, but every change to a night goes
through the host's pages (a command and an event in the log), so the admin cannot rewind a
night, rewrite its rules or edit what was rolled."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from bunco.models import Night, Person, Player, ScoreEvent, TableLink


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Night)
class NightAdmin(ReadOnly):
    list_display = ["name", "rules_id", "status", "last_seq", "players_link", "created_at"]
    readonly_fields = ["players_link"]

    @admin.display(description="players")
    def players_link(self, night: Night) -> str:
        # A night's players are listed (and searched) a page at a time, not inline: a charity
        # night has 2,000 of them.
        url = reverse("admin:bunco_player_changelist") + f"?night__id__exact={night.pk}"
        return format_html('<a href="{}">{} players</a>', url, night.players.count())


@admin.register(Player)
class PlayerAdmin(ReadOnly):
    list_display = ["name", "night", "position", "left_early", "person"]
    list_select_related = ["night", "person"]
    search_fields = ["name"]
    list_filter = ["night"]
    list_per_page = 100
    show_full_result_count = False


@admin.register(ScoreEvent)
class ScoreEventAdmin(ReadOnly):
    list_display = ["night", "seq", "kind", "set_number", "round_number", "table", "player",
                    "ghost", "position", "data", "actor", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["night"]
    list_per_page = 200


@admin.register(TableLink)
class TableLinkAdmin(ReadOnly):
    list_display = ["night", "number", "token"]


@admin.register(Person)
class PersonAdmin(ReadOnly):
    list_display = ["name"]
    search_fields = ["name"]
