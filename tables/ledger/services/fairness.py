"""Checking that a finished round was dealt from the seed the table committed to before the deal.

Before each deal the table shows `commitment = SHA-256("{seed}:{salt}")`; once the round is over
the seed is revealed to its players. They (and the club's staff) can then (1) hash the revealed
seed with the salt and compare it to the commitment, (2) deal again from it with the engine
(`new_round(config, seed, match_before)`) and compare each seat's hand with the hands recorded at
the end of the round, and (3) replay the recorded moves on that fresh deal and compare the result
with the stored end of the round (every card a player played must have been in the re-dealt hand).
A changed seed fails all three.
Nothing here writes: it is a read that the fair-deal page and `manage.py verify_deal` share.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, gettext_noop

from rules.engine import registry
from rules.engine.api import Config
from rules.engine.api import Match as EngineMatch
from rules.engine.errors import IllegalMove
from rules.engine.moves import Move as EngineMove
from tables.models import Round
from tables.play.services.errors import TableError
from tables.play.services.play import commitment_of

UNDEALT = {"blind": "blind", "out_of_play": "out"}
"""Cards dealt to nobody, compared too: the end-of-round record's name -> the fresh state's JSON key."""

# The fair page's sentence about the dealt hands, one whole sentence per kind of cards dealt to nobody: a record's
# name ("blind") put into a sentence read "dasselbe blind" in German, where the noun's gender and case decide the
# words around it.
HANDS_SAID = gettext_noop(
    "Dealing again from the seed with the game's engine gives every seat the hand recorded for it.")
HANDS_AND_UNDEALT_SAID = {
    "blind": gettext_noop("Dealing again from the seed with the game's engine gives every seat the hand recorded for "
                          "it, and the same blind."),
    "out_of_play": gettext_noop("Dealing again from the seed with the game's engine gives every seat the hand "
                                "recorded for it, and the same cards out of play."),
}


class DealNotRevealed(TableError):
    status = 404


@dataclass
class DealCheck:
    round_id: int
    game: str
    number: int
    table_code: str
    salt: str
    commitment: str
    seed: str  # the seed that was checked (the revealed one unless another was given)
    computed: str  # SHA-256 of seed:salt
    redealt: list[list[str]] = field(default_factory=list)  # each seat's hand dealt again from `seed`
    recorded: list[list[str]] = field(default_factory=list)  # each seat's hand as recorded at the end
    redealt_extra: dict[str, list[str]] = field(default_factory=dict)  # Sheepshead blind, Hawk out of play
    recorded_extra: dict[str, list[str]] = field(default_factory=dict)
    moves_checked: int = 0
    replay_problem: str = ""

    @property
    def commitment_ok(self) -> bool:
        return self.computed == self.commitment

    @property
    def hands_ok(self) -> bool:
        return bool(self.recorded) and self.redealt == self.recorded and self.redealt_extra == self.recorded_extra

    @property
    def hands_said(self) -> str:
        """What the hands check compared, in the reader's language (the cards dealt to nobody named in the sentence)."""
        said = [gettext(HANDS_AND_UNDEALT_SAID[name]) for name in UNDEALT if name in self.recorded_extra]
        return " ".join(said) or gettext(HANDS_SAID)

    @property
    def seats_ok(self) -> list[bool]:
        return [
            seat < len(self.recorded) and self.redealt[seat] == self.recorded[seat]
            for seat in range(len(self.redealt))
        ]

    @property
    def replay_ok(self) -> bool:
        return not self.replay_problem

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.hands_ok and self.replay_ok


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards)


def recorded_hands(game_key: str, state_json: dict[str, Any]) -> tuple[list[list[str]], dict[str, list[str]]]:
    """Each seat's hand as dealt, from the engine's end-of-round record (and the blind, if any)."""
    game = registry.game(game_key)
    record = game.view(game.from_json(state_json), None).get("record") or {}
    hands = record.get("dealt") if "dealt" in record else record.get("hands")
    extra = {name: _sorted(list(record[name])) for name in UNDEALT if name in record}
    return [_sorted(list(hand)) for hand in hands or []], extra


def verify_deal(*, round_id: int, seed: str | None = None) -> DealCheck:
    """Check a finished round against its commitment, its recorded hands and its moves.

    `seed` defaults to the round's revealed seed; pass another one to see the check fail.
    """
    found = Round.objects.select_related("match__table").filter(pk=round_id).first()
    if found is None:
        raise DealNotRevealed("There is no such round.")
    if not found.over:
        raise DealNotRevealed("This round is not over yet; its seed stays secret until it is.")
    table = found.match.table
    tried = found.seed if seed is None else str(seed)
    check = DealCheck(
        round_id=found.pk, game=table.game, number=found.number, table_code=table.code, salt=found.salt,
        commitment=found.commitment, seed=tried, computed=commitment_of(tried, found.salt),
    )
    game = registry.game(table.game)
    config = Config.from_json(found.match.config)
    before = EngineMatch.from_json(found.match_before)
    check.recorded, check.recorded_extra = recorded_hands(table.game, found.state)
    fresh = game.new_round(config, tried, before)
    check.redealt = [_sorted(list(game.view(fresh, seat)["hand"])) for seat in range(config.players)]
    fresh_json = game.to_json(fresh)
    check.redealt_extra = {
        name: _sorted(list(fresh_json[key])) for name, key in UNDEALT.items() if key in fresh_json
    }
    state = fresh
    moves = list(found.moves.order_by("seq").values_list("seat", "text"))
    for seat, text in moves:
        try:
            state = game.apply(state, seat, EngineMove.parse(text))
        except (IllegalMove, ValueError) as error:
            reason = str(getattr(error, "reason", error)).rstrip(".")
            check.replay_problem = (
                f"Move {check.moves_checked + 1} ({text} by seat {seat}) cannot be played on this deal: {reason}."
            )
            break
        check.moves_checked += 1
    if not check.replay_problem:
        if game.to_act(state) is not None:
            check.replay_problem = "The recorded moves do not finish the round on this deal."
        elif game.to_json(state) != found.state:
            check.replay_problem = "Replaying the recorded moves on this deal does not end where the round ended."
    return check
