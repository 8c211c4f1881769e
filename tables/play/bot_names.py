"""The bots as players of their own: each level ("easy", "normal", "strong") is one player per game, named in the
reader's language where the club shows bots beside members (the ratings, the standings' house).

Why a level and not "the bot": a member's rating against bots means something only if beating the easy bot and
beating the strong one are told apart; so each match records the level every bot seat played at
(tables.ledger.services.results) and the ratings rate each level as its own player. The stored name is the level's
key (it is the player's identity in the ratings' rows and the rebuild's replay); what people read is here.
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

from tables.models import Table

LEVELS = tuple(Table.BotLevel.values)  # easy, normal, strong: the names bots are recorded and rated under
_NAMES = {
    Table.BotLevel.EASY: pgettext_lazy("a bot as a player", "Easy bot"),
    Table.BotLevel.NORMAL: pgettext_lazy("a bot as a player", "Normal bot"),
    Table.BotLevel.STRONG: pgettext_lazy("a bot as a player", "Strong bot"),
}


def bot_player_name(name: str) -> str:
    """"Easy bot" ("Leichter Bot") for a level; any other recorded name (an older rating's) as it is, capitalised."""
    found = _NAMES.get(name)
    if found is not None:
        return str(found)
    return name[:1].upper() + name[1:]


def level_order(name: str) -> int:
    """Easy, normal, strong, then anything else: the order the house's lines are listed in."""
    return LEVELS.index(name) if name in LEVELS else len(LEVELS)
