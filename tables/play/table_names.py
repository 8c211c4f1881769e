"""The names the club gives tables ("Alice's Hawk table"), stored in English and read in the reader's language.

Why the stored name stays English: it is the table's identity among its creator's open tables (tables are numbered
"... table 2" by comparing names), the admin searches it, logs and sockets' events carry it, and two members at one
table may read different languages. So the name is kept as one string, and a name of the club's own shape is put
into the reader's language when it is shown (`shown_name`, the `table_name` filter of `{% load cards %}` and of the
board's Jinja2): the owner's name and the game's title stay as they are, the words around them are translated. A
name a member chose is shown as written.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.utils.translation import gettext, gettext_noop

from rules.engine import registry

# The club's shapes of a name: the English is what is stored (tables.play.services.tables.table_name).
PLAIN = gettext_noop("%(owner)s's %(game)s table")
QUICK = gettext_noop("%(owner)s's quick %(game)s table")
PLAIN_NUMBERED = gettext_noop("%(owner)s's %(game)s table %(number)s")
QUICK_NUMBERED = gettext_noop("%(owner)s's quick %(game)s table %(number)s")
# The club's own tables for newcomers (tables.seeding), stored under this English name.
PRACTICE = gettext_noop("Practice against bots")


def english_name(*, owner: str, game_title: str, quick: bool, number: int) -> str:
    """The stored name (English) of the club's shape."""
    if number > 1:
        return (QUICK_NUMBERED if quick else PLAIN_NUMBERED) % {"owner": owner, "game": game_title, "number": number}
    return (QUICK if quick else PLAIN) % {"owner": owner, "game": game_title}


@lru_cache(maxsize=8)
def _shape(titles: tuple[str, ...]) -> re.Pattern[str]:
    games = "|".join(re.escape(title) for title in titles)
    return re.compile(rf"(?P<owner>.+)'s (?P<quick>quick )?(?P<game>{games}) table(?: (?P<number>[1-9][0-9]*))?")


def is_club_name(name: str) -> bool:
    """Whether `name` has one of the club's shapes (the club gave it, or a member typed one just like it)."""
    return name == PRACTICE or _shape(tuple(spec.title for spec in registry.all_specs())).fullmatch(name) is not None


def shown_name(name: str) -> str:
    """`name` in the active language if the club gave it (its shape), else as written."""
    if not name:
        return name
    if name == PRACTICE:
        return gettext(PRACTICE)
    found = _shape(tuple(spec.title for spec in registry.all_specs())).fullmatch(name)
    if found is None:
        return name
    params = {"owner": found["owner"], "game": found["game"]}
    if found["number"]:
        wording = gettext(QUICK_NUMBERED) if found["quick"] else gettext(PLAIN_NUMBERED)
        return wording % {**params, "number": found["number"]}
    return (gettext(QUICK) if found["quick"] else gettext(PLAIN)) % params
