"""Names that cannot pass for another member's, for the club's staff or for its bots (issue 39: a member named
themselves "treasurer", another "Alice" with a Cyrillic A).

Two names are the same name when they read alike: equal once case is ignored, or equal as written once each
character is replaced by the one it is made to look like (the Unicode confusables of UTS #39, as disarm computes
them). Both comparisons and not one: as written, a capital I passes for an l ("AIice" for "Alice"), which is lost
once case is folded; ignoring case, "ALICE" is "alice", which the as-written skeleton keeps apart (I against i).

Each name's two keys are stored on the member (accounts.models.User), in columns the database keeps unique: two
members saving look-alike names at once cannot both succeed, whatever process serves them. A key is the SHA-256
of the skeleton, so it has one length however far a name's characters expand.
"""

from __future__ import annotations

import hashlib
from functools import cache

import disarm
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext

# Compared by skeleton, letters only ("Ad-min 2" is "admin"), in both languages the club speaks. The bots' names
# (tables.play.bot_names) are added in the languages of settings.LANGUAGES.
RESERVED = (
    "admin", "administrator", "moderator", "mod", "staff", "treasurer", "the treasurer", "club", "the club",
    "house", "the house", "bank", "the bank", "dealer", "system", "bot", "bots", "robot", "you", "me", "everyone",
    "nobody", "anonymous", "guest", "member", "spectator", "easy", "normal", "strong",
    "verwaltung", "kassenwart", "kassierer", "vorstand", "die bank", "geber", "du", "ich", "alle", "niemand", "gast",
)


def _skeleton(name: str) -> str:
    return disarm.skeleton_key(name, digit_policy="tr39")


def _hashed(skeleton: str) -> str:
    return hashlib.sha256(skeleton.encode()).hexdigest()


def name_keys(name: str) -> tuple[str, str]:
    """(ignoring case, as written): the two keys a name is unique by; see the module's docstring."""
    return _hashed(_skeleton(name.casefold())), _hashed(_skeleton(name))


def _letters(name: str) -> str:
    return "".join(ch for ch in disarm.skeleton_key(name) if ch.isalpha())


@cache
def _reserved_letters() -> frozenset[str]:
    from django.conf import settings

    from tables.play.bot_names import LEVELS, bot_player_name  # the bots' names as players read them

    names = set(RESERVED)
    for code, _ in settings.LANGUAGES:
        with translation.override(code):
            names.update(bot_player_name(level) for level in LEVELS)
    return frozenset(_letters(name) for name in names)


def is_reserved(name: str) -> bool:
    """Kept for the club: staff's titles, the house, the bots, "you"; in any case or look-alike letters."""
    return bool({_letters(name), _letters(name.casefold())} & _reserved_letters())


def has_hidden_characters(name: str) -> bool:
    """Bidi controls or invisible characters (zero-width spaces, fillers, soft hyphens): a name holding them reads
    other than it is, or ends where it seems not to."""
    return disarm.has_bidi_control(name) or disarm.strip_format(name) != " ".join(name.split())


def reads_like_another(name: str, *, member_id: int | None) -> bool:
    """Whether another member's username or shown name reads like this name, by either key (a name written like
    another's with a capital I reads like it ignoring case, too)."""
    from accounts.models import User

    keys = name_keys(name)
    others = User.objects.exclude(pk=member_id) if member_id is not None else User.objects.all()
    return others.filter(Q(shown_key__in=keys) | Q(shown_look__in=keys) | Q(username_key__in=keys)
                         | Q(username_look__in=keys)).exists()


def display_name_problem(name: str, *, member_id: int | None) -> str:
    """Why this may not be the member's display name ("" when it may). The forms ask; the database's unique keys
    decide a race."""
    if has_hidden_characters(name):
        return gettext("A display name may not hold invisible or direction-changing characters.")
    if is_reserved(name):
        return gettext("“%(name)s” is kept for the club; choose another display name.") % {"name": name}
    if reads_like_another(name, member_id=member_id):
        return gettext("Another member goes by a name that reads like “%(name)s”; choose another display name.") % {
            "name": name}
    return ""


def username_problem(username: str, *, member_id: int | None) -> str:
    """Why this may not be a new member's username ("" when it may): a username is shown beside every chat line
    (@name), so it may not read like another member's name either."""
    if has_hidden_characters(username):
        return gettext("A username may not hold invisible or direction-changing characters.")
    if is_reserved(username):
        return gettext("“%(name)s” is kept for the club; choose another username.") % {"name": username}
    if reads_like_another(username, member_id=member_id):
        return gettext("Another member goes by a name that reads like “%(name)s”; choose another username.") % {
            "name": username}
    return ""
