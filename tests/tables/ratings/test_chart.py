"""The rating chart's geometry and words: higher ratings drawn higher, long histories cut to the last 50."""

from __future__ import annotations

from tables.ratings.rendering import HEIGHT, SHOWN, WIDTH, rating_chart


def test_no_chart_before_the_first_match() -> None:
    assert rating_chart([]) is None and rating_chart([0.0]) is None


def test_higher_ratings_are_drawn_higher_and_every_point_is_inside_the_picture() -> None:
    chart = rating_chart([0.0, 2.5, 1.0, 4.4])
    assert chart is not None and len(chart.points) == 4
    ys = [p.y for p in chart.points]
    assert ys[3] < ys[1] < ys[2] < ys[0]  # SVG's y grows downwards
    assert all(0 <= p.x <= WIDTH and 0 <= p.y <= HEIGHT for p in chart.points)
    assert chart.points[0].x < chart.points[-1].x
    assert [t.label for t in chart.ticks] == ["4.4", "0.0"]
    assert chart.summary == "Rating 4.4 after 3 matches, from 0.0 at the start; highest 4.4, lowest 0.0."


def test_a_flat_history_is_drawn_mid_height() -> None:
    chart = rating_chart([1.0, 1.0])
    assert chart is not None
    assert {p.y for p in chart.points} == {chart.points[0].y} and 0 < chart.points[0].y < HEIGHT


def test_a_long_history_shows_the_last_matches_and_says_so() -> None:
    history = [float(n) for n in range(80)]
    chart = rating_chart(history)
    assert chart is not None and len(chart.points) == SHOWN + 1
    assert chart.points[-1].value == 79.0 and chart.points[0].value == 79.0 - SHOWN
    assert "after 79 matches" in chart.summary and f"the last {SHOWN} matches" in chart.summary
