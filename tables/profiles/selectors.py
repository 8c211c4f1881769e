"""Reads for a member's profile: per game, what they played, their rating and its history, recent matches
with the replays the VIEWER may see, and their best results."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Q
from django.utils.formats import number_format

from accounts.models import User
from rules.engine import registry
from rules.engine.api import GameSpec
from tables.ledger.selectors import can_see_round, money_text
from tables.models import LedgerEntry, MatchPlace, Round
from tables.play.table_names import shown_name
from tables.ratings.rendering import RatingChart, rating_chart
from tables.ratings.selectors import RatingRow, member_rating, ordinal_history, ordinal_text

RECENT = 5  # matches listed per game


@dataclass
class RecentMatch:
    place: MatchPlace
    of: int  # seats in the match
    unit: str
    rounds: list[Round] = field(default_factory=list)  # the ones the viewer may replay

    @property
    def finished_at(self) -> datetime:
        return self.place.result.finished_at

    @property
    def table_name(self) -> str:
        table = self.place.result.table
        return shown_name(table.name) if table.name else str(table)

    @property
    def total_text(self) -> str:
        """Money as the ledger writes it; points as a bare number (the column says they are points)."""
        if self.unit == "cents":
            return money_text(self.place.total, self.unit)
        return number_format(self.place.total, use_l10n=True)


@dataclass
class GameProfile:
    spec: GameSpec
    matches: int
    wins: int
    rating: RatingRow | None
    history: list[float]
    recent: list[RecentMatch]
    best: MatchPlace | None  # the best total of any match

    @property
    def chart(self) -> RatingChart | None:
        return rating_chart(self.history)

    @property
    def best_total_text(self) -> str:
        return money_text(self.best.total, self.spec.unit) if self.best else ""

    @property
    def highest_text(self) -> str:
        return ordinal_text(max(self.history)) if self.history else ""


@dataclass
class Profile:
    member: User
    games: list[GameProfile]


def member_profile(*, member: User, viewer: User) -> Profile:
    """The member's games, most played first (games they never finished a match of are left out)."""
    mine = MatchPlace.objects.filter(user=member)
    counts = {row["result__game"]: row for row in mine.values("result__game").annotate(
        n=Count("id"), wins=Count("id", filter=Q(won=True)))}
    games = []
    for spec in registry.all_specs():
        row = counts.get(spec.key)
        if row is None:
            continue
        in_game = mine.filter(result__game=spec.key).select_related("result__table")
        recent = [RecentMatch(place=p, of=p.result.places.count(), unit=p.result.unit)
                  for p in in_game.order_by("-result__finished_at", "-result_id")[:RECENT]]
        _add_replays(recent, viewer)
        # The best total in the game's own unit: a tournament table's match (points) is no money won.
        best = in_game.filter(result__unit=spec.unit).order_by(
            "total" if spec.lower_is_better else "-total", "-result__finished_at").first()
        games.append(GameProfile(
            spec=spec, matches=row["n"], wins=row["wins"], rating=member_rating(user=member, game=spec.key),
            history=ordinal_history(user=member, game=spec.key), recent=recent, best=best))
    games.sort(key=lambda g: -g.matches)
    return Profile(member=member, games=games)


def _add_replays(recent: list[RecentMatch], viewer: User) -> None:
    """The rounds of these matches the viewer may replay. `can_see_round` (the ledger's rule, the one the replay
    page applies) decides each; a first query only drops rounds it would refuse anyway (rounds not over, and,
    for a viewer who is not staff, rounds whose books name other members but not the viewer), so a stranger's
    look at a profile does not cost one query per round."""
    by_match = {r.place.result.match_id: r for r in recent}
    rounds = Round.objects.filter(match_id__in=by_match, over=True, voided_at__isnull=True).select_related(
        "match__table").order_by("match_id", "number")
    if not viewer.is_staff:
        booked = LedgerEntry.objects.filter(round_id__in=rounds.values("pk"), member__isnull=False)
        others_only = set(booked.values_list("round_id", flat=True)) - set(
            booked.filter(member=viewer).values_list("round_id", flat=True))
        rounds = rounds.exclude(pk__in=others_only)
    seen: dict[int, list[Round]] = defaultdict(list)
    for found in rounds:
        if can_see_round(viewer, found):
            seen[found.match_id].append(found)
    for match_id, recent_match in by_match.items():
        recent_match.rounds = seen.get(match_id, [])
