"""A Hawsker round's state now holds the hands each player carried into it (`kept`: both saw them scored at
the end of the round before), so a seat's view can show them and a bot can remember them as a person would.
Rounds stored before hold no `kept`; it is written here from the match as the round was dealt from it
(`match_before`'s carry), which is exactly what the engine's deal now records, so the fair-deal check's
replay of an older round still equals its stored state."""

from __future__ import annotations

from django.db import migrations


def kept_of(match_before: dict) -> list[list[str]]:
    """The carry's hands as the engine's deal holds them (in its card order)."""
    from rules.engine.cards import parse_cards
    from rules.engine.hawsker.scoring import sort_cards

    carry = (match_before or {}).get("carry") or {}
    hands = carry.get("hands") or [[], []]
    return [[str(card) for card in sort_cards(parse_cards(hand))] for hand in hands]


def keep_the_kept_hands(apps, schema_editor) -> None:
    Round = apps.get_model("tables", "Round")
    changed = []
    for rnd in Round.objects.filter(match__table__game="hawsker").only("pk", "state", "match_before").iterator(
            chunk_size=500):
        if "kept" in rnd.state:
            continue
        rnd.state = {**rnd.state, "kept": kept_of(rnd.match_before)}
        changed.append(rnd)
        if len(changed) >= 500:
            Round.objects.bulk_update(changed, ["state"])
            changed = []
    Round.objects.bulk_update(changed, ["state"])


def forget_the_kept_hands(apps, schema_editor) -> None:
    Round = apps.get_model("tables", "Round")
    changed = []
    for rnd in Round.objects.filter(match__table__game="hawsker").only("pk", "state").iterator(chunk_size=500):
        if "kept" in rnd.state:
            rnd.state = {key: value for key, value in rnd.state.items() if key != "kept"}
            changed.append(rnd)
    Round.objects.bulk_update(changed, ["state"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tables", "0019_bot_levels_rated_apart")]
    operations = [migrations.RunPython(keep_the_kept_hands, forget_the_kept_hands)]
