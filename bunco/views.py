from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring import PRESETS


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "bunco/home.html", {"presets": PRESETS})
