"""What the chaos soak reads back from the database once the chaos is over (Django must be set up first).

Why through the site's own models and engine: a round "replays" only if the engine, dealt again from the stored
seed and given the stored moves, ends exactly in the stored state (the same replay `rules.engine.api.replay`
gives the fair-deal check and the club's books), and a money round's entries must sum to zero as the ledger
writes them. Nothing here writes.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from bench.chaos_checks import MoveRow


@dataclass
class Verdict:
    name: str
    ok: bool
    detail: str
    problems: list[str] = field(default_factory=list)  # the first few, for the report


def member_move_rows() -> list[MoveRow]:
    """Every move a member made themselves (bots, time-outs and takeovers are other actors)."""
    from tables.models import Move

    rows = Move.objects.filter(actor=Move.Actor.MEMBER).values_list(
        "round__match__table__code", "user__username", "text", "table_version")
    return [MoveRow(code, username, text, version) for code, username, text, version in rows]


def table_versions(codes: list[str]) -> dict[str, int]:
    from tables.models import Table

    return dict(Table.objects.filter(code__in=codes).values_list("code", "version"))


def rounds_replay(codes: list[str]) -> Verdict:
    """Every round of these tables, dealt again from its seed with its recorded moves, ends in its stored state;
    its moves are numbered 1..n with no gap and `moves_made` counts them."""
    from rules.engine import registry
    from rules.engine.api import Config, replay
    from rules.engine.api import Match as EngineMatch
    from tables.models import Move, Round

    moves: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for round_id, seq, seat, text in Move.objects.filter(round__match__table__code__in=codes).order_by(
            "round_id", "seq").values_list("round_id", "seq", "seat", "text"):
        moves[round_id].append((seq, seat, text))
    problems: list[str] = []
    count = 0
    for rnd in Round.objects.filter(match__table__code__in=codes).select_related("match__table").order_by("pk"):
        count += 1
        where = f"table {rnd.match.table.code} round {rnd.number}"
        recorded = moves.get(rnd.pk, [])
        seqs = [seq for seq, _, _ in recorded]
        if seqs != list(range(1, len(seqs) + 1)) or rnd.moves_made != len(seqs):
            problems.append(f"{where}: moves numbered {seqs[:3]}..{seqs[-3:]} ({len(seqs)}), moves_made "
                            f"{rnd.moves_made}")
            continue
        game = registry.game(rnd.match.table.game)
        try:
            state = replay(game, Config.from_json(rnd.match.config), rnd.seed,
                           [(seat, text) for _, seat, text in recorded], EngineMatch.from_json(rnd.match_before))
        except Exception as error:  # an illegal move on the re-dealt cards: the round does not replay
            problems.append(f"{where}: {type(error).__name__}: {error}")
            continue
        if game.to_json(state) != rnd.state:
            problems.append(f"{where}: replaying its {len(recorded)} moves does not end in its stored state")
    return Verdict("every round replays from its seed and moves", not problems,
                   f"{count} rounds, {len(problems)} that do not replay", problems[:10])


def money_rounds_sum_to_zero(codes: list[str]) -> Verdict:
    """Every finished Sheepshead round (money) has entries, and they sum to zero, corrections included."""
    from tables.models import LedgerEntry, Round

    sums: dict[int, int] = defaultdict(int)
    counts: dict[int, int] = defaultdict(int)
    for round_id, amount in LedgerEntry.objects.filter(round__match__table__code__in=codes).values_list(
            "round_id", "amount"):
        sums[round_id] += amount
        counts[round_id] += 1
    finished = Round.objects.filter(match__table__code__in=codes, match__table__game="sheepshead", over=True,
                                    voided_at__isnull=True).select_related("match__table")
    problems = []
    total = 0
    for rnd in finished:
        total += 1
        if not counts[rnd.pk]:
            problems.append(f"table {rnd.match.table.code} round {rnd.number}: finished with no ledger entries")
        elif sums[rnd.pk]:
            problems.append(f"table {rnd.match.table.code} round {rnd.number}: entries sum to {sums[rnd.pk]} cents")
    detail = f"{total} finished Sheepshead rounds, {len(problems)} not summing to zero"
    if not total:
        detail += " (none finished: nothing to check)"
    return Verdict("every finished Sheepshead round's ledger sums to zero", not problems, detail, problems[:10])


def tables_waiting_for_bot(codes: list[str]) -> list[str]:
    """Running tables whose round is not over and whose seat to act is played by a bot (a bot's seat, or a
    member's who left): the table clock owes them a move."""
    from rules.engine import registry
    from tables.models import Round, Seat, Table

    bot_seats: dict[int, set[int]] = defaultdict(set)
    for table_id, position in Seat.objects.filter(table__code__in=codes).filter(is_bot=True).values_list(
            "table_id", "position"):
        bot_seats[table_id].add(position)
    for table_id, position in Seat.objects.filter(table__code__in=codes, away=True).values_list(
            "table_id", "position"):
        bot_seats[table_id].add(position)
    waiting = []
    running = Table.objects.filter(code__in=codes, status=Table.Status.RUNNING)
    latest = Round.objects.filter(match__table__in=running, over=False).select_related("match__table")
    for rnd in latest:
        table = rnd.match.table
        game = registry.game(table.game)
        seat = game.to_act(game.from_json(rnd.state))
        if seat is not None and seat in bot_seats[table.pk]:
            due = f", due {table.due_at:%H:%M:%S}" if table.due_at else ", nothing due"
            waiting.append(f"{table.code} (round {rnd.number}, seat {seat} to act{due})")
    return sorted(waiting)


def books() -> Verdict:
    """The club's own books check (manage.py check_books): finished rounds against the ledger, balances."""
    from tables.treasury.services.books import check_books

    check = check_books()
    return Verdict("the books check (check_books)", check.ok,
                   f"{check.rounds} rounds, {check.balances} balances, {len(check.differences)} differences",
                   [str(d) for d in check.differences[:10]])
