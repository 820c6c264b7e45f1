from django.contrib import admin

from bunco.models import Night, Player, ScoreEvent, TableLink


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Night)
class NightAdmin(admin.ModelAdmin):
    list_display = ["name", "rules_id", "status", "last_seq", "created_at"]
    inlines = [PlayerInline]


@admin.register(ScoreEvent)
class ScoreEventAdmin(admin.ModelAdmin):
    list_display = ["night", "seq", "kind", "set_number", "round_number", "table", "player",
                    "ghost", "position", "data", "actor", "created_at"]
    list_filter = ["kind"]


@admin.register(TableLink)
class TableLinkAdmin(admin.ModelAdmin):
    list_display = ["night", "number", "token"]
