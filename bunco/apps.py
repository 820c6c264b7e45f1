from django.apps import AppConfig


class BuncoConfig(AppConfig):
    name = "bunco"
    verbose_name = "Bunco night"
