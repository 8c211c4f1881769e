"""The fair-deal check as `manage.py verify_deal` prints it: one line per check, then every hand if asked."""

from __future__ import annotations

from tables.ledger.services.fairness import DealCheck


def deal_report(check: DealCheck, *, show_hands: bool = False) -> list[str]:
    """The lines before the verdict (the command adds it, and fails when `check.ok` is false)."""
    mark = {True: "ok  ", False: "FAIL"}
    lines = [
        f"{check.game} table {check.table_code}, round {check.number} (id {check.round_id})",
        f"seed {check.seed}  salt {check.salt}",
        f"[{mark[check.commitment_ok]}] sha256(seed:salt) = {check.computed}",
        f"       commitment shown before the deal {check.commitment}",
        f"[{mark[check.hands_ok]}] re-dealt hands equal the recorded hands "
        f"({sum(check.seats_ok)} of {len(check.seats_ok)} seats"
        f"{', ' + ', '.join(check.recorded_extra) if check.recorded_extra else ''})",
    ]
    problem = f": {check.replay_problem}" if check.replay_problem else ""
    lines.append(f"[{mark[check.replay_ok]}] {check.moves_checked} recorded moves replay on the re-dealt "
                 f"cards to the recorded end{problem}")
    if show_hands:
        for seat, (again, recorded) in enumerate(zip(check.redealt, check.recorded, strict=False), start=1):
            lines.append(f"  seat {seat}: dealt again {' '.join(again)} | recorded {' '.join(recorded)}")
        for name in sorted(set(check.redealt_extra) | set(check.recorded_extra)):
            again = " ".join(check.redealt_extra.get(name, []))
            recorded = " ".join(check.recorded_extra.get(name, []))
            lines.append(f"  {name}: dealt again {again} | recorded {recorded}")
    return lines
