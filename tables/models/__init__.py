"""The tables app's models, one module per concern; import them from here."""

from __future__ import annotations

from tables.models.club import (
    ChatMessage,
    ChatMute,
    Invitation,
    MatchPlace,
    MatchResult,
    Rating,
    RatingChange,
    Season,
)
from tables.models.drafts import DraftRow, NightDraft
from tables.models.ledger import (
    ChainHead,
    ClubNight,
    EntryIsFinal,
    InPersonRecord,
    LedgerEntry,
    NightPayment,
    Settlement,
)
from tables.models.notices import Notice
from tables.models.play import Match, Move, Round, Seat, Table, game_choices, new_table_code
from tables.models.presence import Presence, TableSocket
from tables.models.queue import QueueRequest
from tables.models.rematch import Rematch
from tables.models.tournaments import Entry, Tournament, TournamentRound, TournamentTable

__all__ = [
    "Match", "Move", "Presence", "QueueRequest", "Rematch", "Round", "Seat", "Table", "TableSocket", "game_choices",
    "new_table_code",
]
__all__ += ["DraftRow", "NightDraft"]
__all__ += ["ChainHead", "ClubNight", "EntryIsFinal", "InPersonRecord", "LedgerEntry", "NightPayment", "Settlement"]
__all__ += ["ChatMessage", "ChatMute", "Invitation", "MatchPlace", "MatchResult", "Rating", "RatingChange", "Season"]
__all__ += ["Notice"]
__all__ += ["Entry", "Tournament", "TournamentRound", "TournamentTable"]
