"""The tables app's models, one module per concern; import them from here."""

from __future__ import annotations

from tables.models.play import GAME_CHOICES, Match, Move, Round, Seat, Table, new_table_code
from tables.models.presence import Presence

__all__ = ["GAME_CHOICES", "Match", "Move", "Presence", "Round", "Seat", "Table", "new_table_code"]
