"""A rating's history as a small SVG line chart, drawn on the server: no chart library reaches the browser.

The chart is plain data (coordinates and labels) for a template to write out, with a title, a description
and a sentence a screen reader or a reader without the picture gets instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from tables.ratings.selectors import ordinal_text

WIDTH, HEIGHT = 320, 120
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 10, 14  # room for the axis labels
SHOWN = 50  # the chart shows at most the last 50 points; the summary says so


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: float


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    points: list[Point]
    ticks: list[Tick]
    summary: str
    left: int = LEFT
    right: int = WIDTH - RIGHT

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def last(self) -> Point:
        return self.points[-1]


def rating_chart(history: list[float]) -> RatingChart | None:
    """The chart of `history` (ordinals, oldest first: the start, then one per match); None with no match."""
    if len(history) < 2:
        return None
    matches = len(history) - 1
    shown = history[-(SHOWN + 1):]
    low, high = min(shown), max(shown)
    if high - low < 1.0:
        middle = (high + low) / 2
        low, high = middle - 0.5, middle + 0.5
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_w / (len(shown) - 1)

    def y_of(value: float) -> float:
        return TOP + (high - value) / (high - low) * inner_h

    points = [Point(LEFT + i * step, y_of(v), v) for i, v in enumerate(shown)]
    ticks = [Tick(y_of(high), ordinal_text(high)), Tick(y_of(low), ordinal_text(low))]
    summary = ngettext(
        "Rating %(now)s after %(count)s match, from %(first)s at the start; highest %(high)s, lowest %(low)s.",
        "Rating %(now)s after %(count)s matches, from %(first)s at the start; highest %(high)s, lowest %(low)s.",
        matches) % {"now": ordinal_text(history[-1]), "count": matches, "first": ordinal_text(history[0]),
                    "high": ordinal_text(max(history)), "low": ordinal_text(min(history))}
    if matches > SHOWN:
        summary += " " + gettext("The chart shows the last %(count)s matches.") % {"count": SHOWN}
    return RatingChart(width=WIDTH, height=HEIGHT, points=points, ticks=ticks, summary=summary)
