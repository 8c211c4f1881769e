"""Each bot level is a player of its own in the ratings: recorded bot places name the level they played at.

Until now every bot seat was recorded (and rated) as one player per game, "bot". Bot levels came in 0017, which
gave every table that existed then the level "easy" (the only bots there had been); tables opened since chose
theirs, and a bot seat may have its own. So each recorded "bot" place is relabelled from its seat: the seat's own
level, else its table's (bot seats keep their level once a match has started, so the seat still says what the bot
played at; a seat that is somehow gone falls back on its table's level, else "easy").

The players of old matches change, so the ratings they give change too, members' included (they were rated
against one bot, now against a level each). The ratings are therefore rebuilt here, by the same replay
`manage.py rebuild_ratings` runs (tables.ratings.services.rebuild, on this migration's historical models): the
database this leaves is one the rebuild finds nothing to change in. Nothing else is touched: results, places and
their order (`rating_seq`) stay as recorded. Going back relabels the levels "bot" again and rebuilds the same way.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

OLD_NAME = "bot"
LEVELS = ("easy", "normal", "strong")


def _rebuild(apps: Any) -> None:
    from tables.ratings.services.rebuild import Models, rebuild_ratings

    rebuild_ratings(write=True, models=Models.of(apps))


def levels_for_bot_places(apps: Any, schema_editor: Any) -> None:
    MatchPlace = apps.get_model("tables", "MatchPlace")
    Seat = apps.get_model("tables", "Seat")
    places = list(MatchPlace.objects.filter(user__isnull=True).exclude(bot__in=LEVELS).select_related("result__table"))
    if not places:
        return
    seats = {(seat.table_id, seat.position): seat for seat in Seat.objects.filter(
        table_id__in={place.result.table_id for place in places})}
    for place in places:
        table = place.result.table
        seat = seats.get((table.pk, place.seat))
        place.bot = (seat.bot_level if seat is not None else "") or table.bot_level or "easy"
    MatchPlace.objects.bulk_update(places, ["bot"], batch_size=500)
    _rebuild(apps)


def one_bot_again(apps: Any, schema_editor: Any) -> None:
    MatchPlace = apps.get_model("tables", "MatchPlace")
    if MatchPlace.objects.filter(user__isnull=True, bot__in=LEVELS).update(bot=OLD_NAME):
        _rebuild(apps)


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0018_in_person_summaries_as_sentences'),
    ]

    operations = [
        migrations.AlterField(
            model_name='matchplace',
            name='bot',
            field=models.CharField(blank=True, help_text='When a bot held the seat: the level it played at (easy, normal, strong), which the ratings rate as a player of its own.', max_length=40),
        ),
        migrations.RunPython(levels_for_bot_places, one_bot_again),
    ]
