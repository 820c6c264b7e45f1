"""The load test's picture: p99 of tap and bell, app and floor, against sockets (log-log)."""

from __future__ import annotations

import math
from pathlib import Path

from django.core.management.base import CommandError

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 960, 600, 80, 200, 40, 60
SERIES = [("tap_p99_ms", "app: tap p99", (31, 90, 200), 0),
          ("bell_p99_ms", "app: bell p99", (200, 40, 40), 0),
          ("floor_tap_p99_ms", "floor: tap p99", (31, 90, 200), 1),
          ("floor_bell_p99_ms", "floor: bell p99", (200, 40, 40), 1)]


def plot(lines: list[dict], path: Path) -> None:
    """p99 of tap and bell, app and floor, against sockets (log-log), drawn with Pillow."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    points = [x for x in lines if x.get("tap_p99_ms") and x.get("bell_p99_ms")]
    if not points:
        raise CommandError("nothing to draw")
    xs = [x["sockets"] for x in points]
    ys = [x[k] for x in points for k, *_ in SERIES if x.get(k)]
    x0, x1 = math.log10(min(xs) / 1.5), math.log10(max(xs) * 1.5)
    y0, y1 = math.log10(max(0.5, min(ys) / 2)), math.log10(max(ys) * 2)

    def at(sockets, value):
        return (LEFT + (math.log10(sockets) - x0) / (x1 - x0) * (WIDTH - LEFT - RIGHT),
                HEIGHT - BOTTOM - (math.log10(value) - y0) / (y1 - y0) * (HEIGHT - TOP - BOTTOM))

    _axes(draw, at, sorted(set(xs)), x0, y0, y1)
    for n, (key, label, colour, dashed) in enumerate(SERIES):
        _series(draw, at, points, key, colour, dashed)
        _legend(draw, (WIDTH - RIGHT + 14, TOP + 10 + n * 22), label, colour, dashed)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


def _axes(draw, at, sockets_shown: list[int], x0: float, y0: float, y1: float) -> None:
    """The frame, a grid line at 1, 2 and 5 of each power of ten ms and at each room size
    measured, and the titles."""
    draw.rectangle([LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM], outline="black")
    for exp in range(math.floor(y0), math.ceil(y1) + 1):
        for m in (1, 2, 5):
            v = m * 10 ** exp
            if y0 <= math.log10(v) <= y1:
                _, y = at(10 ** x0, v)
                draw.line([LEFT, y, WIDTH - RIGHT, y], fill=(225, 225, 225))
                draw.text((LEFT - 50, y - 6), f"{v:g} ms", fill="black")
    for sockets in sockets_shown:
        x, _ = at(sockets, 10 ** y0)
        draw.line([x, TOP, x, HEIGHT - BOTTOM], fill=(225, 225, 225))
        draw.text((x - 12, HEIGHT - BOTTOM + 6), str(sockets), fill="black")
    draw.text((LEFT, 12), "p99 latency against open sockets (one daphne, 2 cores; labels: "
              "taps/s)", fill="black")
    draw.text(((WIDTH - RIGHT) / 2, HEIGHT - 24), "sockets", fill="black")


def _series(draw, at, points: list[dict], key: str, colour, dashed: int) -> None:
    """One measure's points (app: filled dots, labelled with the tap rate; floor: squares)
    and the line through them."""
    pts = sorted((x["sockets"], x[key], x["taps_per_s"]) for x in points if x.get(key))
    coords = [at(s, v) for s, v, _ in pts]
    # The line joins each room size's slowest rate; faster rates at the same size (405 at
    # 50 and at 150 taps/s, above capacity) are points of their own above it.
    slowest = {}
    for (sockets, _, rate), xy in zip(pts, coords, strict=True):
        if sockets not in slowest or rate < slowest[sockets][0]:
            slowest[sockets] = (rate, xy)
    line = [slowest[sockets][1] for sockets in sorted(slowest)]
    _join(draw, line, colour, dashed)
    for (x, y), (_, _, rate) in zip(coords, pts, strict=True):
        r = 4
        shape = draw.ellipse if not dashed else draw.rectangle
        shape([x - r, y - r, x + r, y + r], outline=colour, fill="white" if dashed else colour)
        if not dashed and key == "tap_p99_ms":
            draw.text((x + 6, y + 4), f"{rate:g}/s", fill=(90, 90, 90))


def _legend(draw, where: tuple[float, float], label: str, colour, dashed: bool) -> None:
    lx, ly = where
    if dashed:
        draw.line([lx, ly + 6, lx + 10, ly + 6], fill=colour, width=2)
        draw.line([lx + 16, ly + 6, lx + 26, ly + 6], fill=colour, width=2)
    else:
        draw.line([lx, ly + 6, lx + 26, ly + 6], fill=colour, width=3)
    draw.text((lx + 32, ly), label, fill="black")


def _join(draw, line: list, colour, dashed: bool) -> None:
    """A series' line through its points: solid for the app, dashed for the floor."""
    for a, b in zip(line, line[1:], strict=False):
        if not dashed:
            draw.line([*a, *b], fill=colour, width=3)
            continue
        steps = max(1, int(math.dist(a, b) // 8))
        for i in range(0, steps, 2):
            p = [a[j] + (b[j] - a[j]) * i / steps for j in (0, 1)]
            q = [a[j] + (b[j] - a[j]) * (i + 1) / steps for j in (0, 1)]
            draw.line([*p, *q], fill=colour, width=2)
