from django.contrib import admin

from bunco.models import Night, Player


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Night)
class NightAdmin(admin.ModelAdmin):
    list_display = ["name", "rules_id", "status", "last_seq", "created_at"]
    inlines = [PlayerInline]
