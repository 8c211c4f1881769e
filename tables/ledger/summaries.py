"""What a hand played at the club's table says about itself ("Ann with Ben took 75 points (rate +1, stake $1.00): ..."),
built as a sentence when it is priced and read in the reader's language whenever it is shown.

Why a sentence and not text: the summary is stored on the record and shown for years, on the night's sheet, the
night's page, statements and a member's own history, to readers of English and German alike (issue 23). An f-string
would fix its language when the hand was recorded. These are `said(...)` sentences (rules.engine.text: the msgid and
its parameters apart, found by makemessages like the engine's), with names as shown when recorded and money as
`Money` (tables.i18n: cents, written in the reader's number format). The record keeps the sentence as data
(InPersonRecord.summary_said) and its English as always (InPersonRecord.summary); a record from before keeps only the
English, and shows it (InPersonRecord.summary_sentence).

Their English is exactly the text the club stored before, so the data migration that gave old records their
sentence (0018) could check each one against what the record says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext

from rules.engine.text import Said, said
from tables.i18n import Money, say_with_money

WITH_AMOUNTS = "%(hand)s: %(amounts)s"  # the msgid of a Sheepshead hand followed by what it paid each player
# The msgids of the sentences that name money (written out again in their `said` calls, where makemessages finds
# them), which `points_headline` says without it.
PICKED = "%(who)s took %(points)s points (rate %(rate)s, stake %(stake)s)"
LEASTER_WON = "Leaster won by %(player)s with %(points)s points, collecting %(stake)s from each player."
LEASTER_TIED = "Leaster: a tie for fewest points, nothing paid."


def _listed(parts: Sequence[Any]) -> Any:
    """ "a, b, c" (commas only, as the summaries always listed the players' amounts), one sentence per comma."""
    head = parts[0]
    for part in parts[1:]:
        head = said("%(first)s, %(next)s", first=head, next=part)
    return head


def _both(names: Sequence[str]) -> Any:
    return names[0] if len(names) == 1 else said("%(first)s and %(last)s", first=names[0], last=names[1])


def sheepshead_hand(*, names: Sequence[str], picker: int, partner: int | None, points: int, rate: int,
                    stake_cents: int, money: Sequence[int], cracks: int = 0, sat_out: str | None = None) -> Said:
    """A picked hand: the picker (alone or with the partner), the points, the rate and stake, then each player's
    settlement; `names` in seat order. A cracked hand (a night's house rule) says so, as does a hand the night's
    dealer sat out; any other hand's sentence is the one it always was."""
    who = (said("%(picker)s alone", picker=names[picker]) if partner is None
           else said("%(picker)s with %(partner)s", picker=names[picker], partner=names[partner]))
    hand = said("%(who)s took %(points)s points (rate %(rate)s, stake %(stake)s)", who=who, points=points,
                rate=f"{rate:+d}", stake=Money(stake_cents))
    if cracks == 1:
        hand = said("%(hand)s, cracked (stake doubled)", hand=hand)
    elif cracks > 1:
        hand = said("%(hand)s, cracked and re-cracked (stake four times)", hand=hand)
    if sat_out:
        hand = said("%(hand)s; %(dealer)s dealt and sat out", hand=hand, dealer=sat_out)
    amounts = [said("%(player)s %(amount)s", player=name, amount=Money(cents, signed=True))
               for name, cents in zip(names, money, strict=True)]
    return said("%(hand)s: %(amounts)s", hand=hand, amounts=_listed(amounts))


def sheepshead_leaster(*, names: Sequence[str], winner: int | None, points: Sequence[int], stake_cents: int) -> Said:
    """A leaster: who won it with how few points, collecting the stake from each player; or the tie that paid
    nothing."""
    if winner is None:
        return said("Leaster: a tie for fewest points, nothing paid.")
    return said("Leaster won by %(player)s with %(points)s points, collecting %(stake)s from each player.",
                player=names[winner], points=points[winner], stake=Money(stake_cents))


def hawk_round(*, names: Sequence[str], lafh: Sequence[int], solo: bool, pips: int, won: bool, k: int,
               points: int) -> Said:
    """A Hawk round: LAFH (solo or two), their pips, won or lost, the factor k and the points each."""
    params = {"lafh": _both([names[seat] for seat in lafh]), "pips": pips, "k": f"{k:+d}", "points": f"{points:+d}"}
    if solo:
        if won:
            return said("LAFH %(lafh)s (solo) with %(pips)s pips won: k %(k)s, %(points)s points each.", **params)
        return said("LAFH %(lafh)s (solo) with %(pips)s pips lost: k %(k)s, %(points)s points each.", **params)
    if won:
        return said("LAFH %(lafh)s with %(pips)s pips won: k %(k)s, %(points)s points each.", **params)
    return said("LAFH %(lafh)s with %(pips)s pips lost: k %(k)s, %(points)s points each.", **params)


def from_record(*, kind: str, facts: dict[str, Any], score: dict[str, Any], names: Sequence[str]) -> Said:
    """The sentence of a recorded hand, built again from what it keeps (its facts and score) and the names its ledger
    entries show, seat by seat: how the data migration gives an old record its sentence."""
    if kind == "sheepshead_hand":
        return sheepshead_hand(names=names, picker=int(score["picker"]), partner=score.get("partner"),
                               points=int(facts["picker_points"]), rate=int(score["rate"]),
                               stake_cents=int(facts["stake_cents"]), money=[int(c) for c in score["money"]],
                               cracks=int(facts.get("cracks") or 0))
    if kind == "sheepshead_leaster":
        return sheepshead_leaster(names=names, winner=score.get("winner"), points=[int(p) for p in facts["points"]],
                                  stake_cents=int(facts["stake_cents"]))
    if kind == "hawk_round":
        return hawk_round(names=names, lafh=[int(s) for s in score["lafh"]], solo=bool(score["solo"]),
                          pips=int(facts["lafh_pips"]), won=bool(score["won"]), k=int(score["k"]),
                          points=int(score["points"]))
    raise ValueError(f"no summary for a record of kind {kind!r}")


def shown(summary: Any) -> str:
    """A summary (a sentence, or the English text of a record from before) as the reader reads it."""
    return say_with_money(summary)


def headline(summary: Any) -> str:
    """The summary without the players' amounts a Sheepshead hand's ends with (the night's sheet shows them per
    player beside it): "Ann with Ben took 75 points (rate +1, stake $1.00)", in the reader's language."""
    if isinstance(summary, Said):
        return say_with_money(summary.params["hand"] if summary.msgid == WITH_AMOUNTS else summary)
    head, found, _amounts = str(summary).partition("): ")
    return f"{head})" if found else str(summary)


def points_headline(summary: Any) -> str:
    """`headline` for a hand counted in tournament points (a club night kept for a tournament table): the same
    sentence without its money, the stake and what a leaster collected, which mean nothing there (the sheet shows
    each player's points beside it), in the reader's language: "Ann with Ben took 75 points (rate +1)". A record
    from before sentences were kept has only its English; no tournament hand is one of those, so it is shown as
    `headline` shows it."""
    if not isinstance(summary, Said):
        return headline(summary)
    return _without_money(summary.params["hand"] if summary.msgid == WITH_AMOUNTS else summary)


def _without_money(text: Any) -> str:
    if not isinstance(text, Said):
        return str(text)
    params = text.params
    if text.msgid == PICKED:
        return gettext("%(who)s took %(points)s points (rate %(rate)s)") % {
            "who": _without_money(params["who"]), "points": params["points"], "rate": params["rate"]}
    if text.msgid == LEASTER_WON:
        return gettext("Leaster won by %(player)s with %(points)s points.") % {
            "player": params["player"], "points": params["points"]}
    if text.msgid == LEASTER_TIED:
        return gettext("Leaster: a tie for fewest points, nobody scores.")
    if not text.msgid:
        return ""
    sentence = gettext(text.msgid)
    return sentence % {key: _without_money(value) for key, value in params.items()} if params else sentence
