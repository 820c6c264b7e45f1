"""The admin, read-only: it shows nights, players and the log, but every change to a night goes
through the host's pages (a command and an event in the log), so the admin cannot rewind a
night, rewrite its rules or edit what was rolled."""

from django.contrib import admin

from bunco.models import Night, Person, Player, ScoreEvent, TableLink


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["position", "name", "left_early", "person"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Night)
class NightAdmin(ReadOnly):
    list_display = ["name", "rules_id", "status", "last_seq", "created_at"]
    inlines = [PlayerInline]


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
