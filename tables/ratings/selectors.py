"""Reads of the ratings: a game's table of players, and one member's rating history in a game."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db.models import Q
from django.utils.formats import number_format
from django.utils.translation import gettext

from accounts.models import User
from tables.models import Rating, RatingChange
from tables.play.bot_names import bot_player_name
from tables.ratings.services.ratings import ordinal


@dataclass
class RatingRow:
    name: str
    username: str | None  # None: a bot
    mu: float
    sigma: float
    matches: int
    bot: str = ""  # a bot's level ("easy", "normal", "strong"), as recorded

    @property
    def is_bot(self) -> bool:
        return self.username is None

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def ordinal_text(self) -> str:
        return ordinal_text(self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.matches < settings.RATING_PROVISIONAL_MATCHES

    @property
    def provisional_text(self) -> str:
        return gettext("provisional (%(matches)s of %(needed)s)") % {
            "matches": self.matches, "needed": settings.RATING_PROVISIONAL_MATCHES}


def ordinal_text(value: float) -> str:
    """One decimal in the reader's number format ("12.3", "12,3"); never "-0.0" (a rating a hair below zero is
    shown as zero)."""
    shown = f"{value:.1f}"
    return number_format(Decimal("0.0" if shown == "-0.0" else shown), decimal_pos=1, use_l10n=True)


def row_for(rating: Rating) -> RatingRow:
    """A member's row by their name; a bot level's as "Easy bot" in the reader's language (tables.play.bot_names)."""
    if rating.user_id is None:
        return RatingRow(name=bot_player_name(rating.bot), username=None, mu=rating.mu, sigma=rating.sigma,
                         matches=rating.matches, bot=rating.bot)
    return RatingRow(name=rating.user.shown_name, username=rating.user.username, mu=rating.mu, sigma=rating.sigma,
                     matches=rating.matches)


def game_ratings(*, game: str) -> list[RatingRow]:
    """Every active member's and bot's rating in the game: established ones first, each part by ordinal."""
    found = Rating.objects.filter(game=game).filter(Q(user__isnull=True) | Q(user__is_active=True))
    rows = [row_for(r) for r in found.select_related("user")]
    rows.sort(key=lambda r: (r.provisional, -r.ordinal, r.name.lower()))
    return rows


def member_rating(*, user: User, game: str) -> RatingRow | None:
    rating = Rating.objects.filter(game=game, user=user).select_related("user").first()
    return row_for(rating) if rating else None


def ordinal_history(*, user: User, game: str) -> list[float]:
    """The member's ordinal before their first rated match, then after each one, in the order they were rated."""
    changes = RatingChange.objects.filter(rating__game=game, rating__user=user).order_by("result__rating_seq", "pk")
    values = list(changes.values_list("mu_before", "sigma_before", "mu_after", "sigma_after"))
    if not values:
        return []
    start = ordinal(values[0][0], values[0][1])
    return [start] + [ordinal(mu, sigma) for _, _, mu, sigma in values]
