"""A Puskiyon round's state now holds its public record of steps (`steps`: one letter for each play, draw, kept
draw and pass, as everyone at the table saw them), so a seat's view can say who drew on what and a bot can read
it as a person would. Rounds stored before hold no `steps`; they are written here from the round's recorded
moves, which give exactly the letters the engine now records, so the fair-deal check's replay of an older round
still equals its stored state."""

from __future__ import annotations

from django.db import migrations


def steps_of(moves: list[str]) -> str:
    """The step letters of a round's moves in order (a play or a pass right after a draw is the drawer's second
    step of the same turn)."""
    letters: list[str] = []
    for text in moves:
        kind = text.split(" ", 1)[0]
        after_draw = bool(letters) and letters[-1] == "d"
        if kind == "play":
            letters.append("x" if after_draw else "p")
        elif kind == "draw":
            letters.append("d")
        elif kind == "pass":
            letters.append("k" if after_draw else "s")
        else:
            raise ValueError(f"not a Puskiyon move: {text!r}")
    return "".join(letters)


def record_the_steps(apps, schema_editor) -> None:
    Round = apps.get_model("tables", "Round")
    Move = apps.get_model("tables", "Move")
    changed = []
    for rnd in Round.objects.filter(match__table__game="puskiyon").only("pk", "state").iterator(chunk_size=500):
        if "steps" in rnd.state:
            continue
        moves = list(Move.objects.filter(round_id=rnd.pk).order_by("seq").values_list("text", flat=True))
        rnd.state = {**rnd.state, "steps": steps_of(moves)}
        changed.append(rnd)
        if len(changed) >= 500:
            Round.objects.bulk_update(changed, ["state"])
            changed = []
    Round.objects.bulk_update(changed, ["state"])


def forget_the_steps(apps, schema_editor) -> None:
    Round = apps.get_model("tables", "Round")
    changed = []
    for rnd in Round.objects.filter(match__table__game="puskiyon").only("pk", "state").iterator(chunk_size=500):
        if "steps" in rnd.state:
            rnd.state = {key: value for key, value in rnd.state.items() if key != "steps"}
            changed.append(rnd)
    Round.objects.bulk_update(changed, ["state"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tables", "0020_hawsker_rounds_keep_the_kept_hands")]
    operations = [migrations.RunPython(record_the_steps, forget_the_steps)]
