"""People who play only at the club's physical tables, entered in a tournament by its staff (issue 45: "staff add
members, including people who only play at the club").

Such a person has no account until the organiser enters them here, and needs no login to play at the club: they
become a member (`accounts.models.User`) with no email and an unusable password, marked `plays_only_at_club`, so
that every part of the site that names, seats, scores or books a member takes them as it takes anyone (the
treasurer's sheets find them by name, the standings and the ledger hold them). The admin's usual password reset
gives them a login later, which clears the mark (`User.save`).

Their name is checked as a member's own display name is (accounts.names): a name reading like another member's is
refused rather than made into a second "Ann Weber", since that is most often the same person, who is entered by
username. The username is made from the name (lowercase ASCII, a number added when taken) and checked as a new
member's would be.

A player of the club's tables cannot come to an online table: services.start_round refuses a round whose online
table seats one, and the round's print page (tables.tournaments.club_print) marks them.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from accounts.models import User
from accounts.names import display_name_problem, has_hidden_characters, is_reserved, username_problem
from tables.models import Entry
from tables.play.services.errors import TableError
from tables.tournaments.push import tournament_changed
from tables.tournaments.services import BEFORE_THE_START, _ensure_staff, _locked, _new_entry

NAME_LENGTH = 40  # User.display_name's max_length
USERNAME_BASE_LENGTH = 30  # room left for "-<number>" and still a name one can type
USERNAME_TRIES = 100
FALLBACK_USERNAME = "player"  # for a name with no letter slugify keeps (one written only in Greek, say)


def _taken(name: str) -> str:
    return gettext("The name “%(name)s” is taken: add them by username (or, if this is someone else, give a name "
                   "that tells the two apart).") % {"name": name}


def _checked_name(display_name: str) -> str:
    """The name as it will be shown, or a TableError saying why it cannot be."""
    name = " ".join(display_name.split())
    if not name:
        raise TableError(gettext("Give the player's name."))
    if len(name) > NAME_LENGTH:
        raise TableError(gettext("A name has at most %(count)s characters.") % {"count": NAME_LENGTH})
    problem = display_name_problem(name, member_id=None)
    if problem and not (has_hidden_characters(name) or is_reserved(name)):
        # It reads like another member's name: most often that member, who has an account to enter.
        problem = _taken(name)
    if problem:
        raise TableError(problem)
    return name


def username_for(name: str) -> str:
    """A free username made from the name: "Ann Weber" is ann-weber, or ann-weber-2 when that is taken (or reads
    like another member's name)."""
    base = slugify(name)[:USERNAME_BASE_LENGTH].strip("-_") or FALLBACK_USERNAME
    if is_reserved(base):  # the name passed, its ASCII letters alone may not ("Dü" is du)
        base = f"{FALLBACK_USERNAME}-{base}"
    for number in range(1, USERNAME_TRIES + 1):
        candidate = base if number == 1 else f"{base}-{number}"
        if not User.objects.filter(username__iexact=candidate).exists() \
                and not username_problem(candidate, member_id=None):
            return candidate
    raise TableError(gettext("No free username could be made from “%(name)s”: give a name that tells them apart.")
                     % {"name": name})


def enter_club_player(*, tournament_id: int, staff: User, display_name: str) -> Entry:
    """Staff make an account for a person who plays only at the club and enter them, until the first draw (as
    services.add_entrant enters a member). A refusal creates nobody."""
    with transaction.atomic():
        _ensure_staff(staff)
        tournament = _locked(tournament_id)
        if tournament.status not in BEFORE_THE_START:
            raise TableError(gettext("The tournament has started: its field is fixed."))
        name = _checked_name(display_name)
        player = User(username=username_for(name), display_name=name, email="", plays_only_at_club=True)
        player.set_unusable_password()
        try:
            with transaction.atomic():
                player.save()
        except IntegrityError:  # another member took the name (or the username) in the meantime
            raise TableError(_taken(name)) from None
        entry = _new_entry(tournament, player)
        tournament_changed(tournament.pk)
        return entry
