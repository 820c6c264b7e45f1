from django.contrib import admin

from tables.models import ScoreEvent, TableLink


@admin.register(ScoreEvent)
class ScoreEventAdmin(admin.ModelAdmin):
    list_display = ["night", "seq", "kind", "table", "data", "actor", "created_at"]
    list_filter = ["kind"]


@admin.register(TableLink)
class TableLinkAdmin(admin.ModelAdmin):
    list_display = ["night", "number", "token"]
