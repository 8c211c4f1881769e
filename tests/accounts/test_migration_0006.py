"""Migration 0006 keys the existing members' names. Where two already read alike, the earlier member keeps theirs:
a later display name reading like another's name is cleared (that member is shown by their username), and a later
username reading like another's keeps no key (a username is how its member signs in: never changed)."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.migrations import latest_schema_after, migrate, migrate_to_latest  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("accounts", "0005_display_name_verbose_name")]
AFTER = [("accounts", "0006_names_read_alike_are_one")]


def test_existing_names_are_keyed_and_later_look_alikes_give_way() -> None:
    apps = migrate(BEFORE)
    Old = apps.get_model("accounts", "User")
    for username, display_name in [("alice", "Alice"), ("mallory", "\u0410lice"), ("bob", ""), ("carol", "BOB"),
                                   ("aIice", ""), ("dave", "Dave"), ("erin", "dave")]:
        Old.objects.create(username=username, display_name=display_name)
    migrate(AFTER)
    migrate_to_latest()  # the later migrations only add columns, which the current model reads
    members = {m.username: m for m in User.objects.all()}
    assert members["alice"].display_name == "Alice" and members["alice"].shown_key
    assert members["mallory"].display_name == ""  # the Cyrillic "\u0410lice" came later
    assert members["carol"].display_name == ""  # "BOB" reads like bob's username
    assert members["aIice"].username_look is None and members["aIice"].shown_look is None
    assert members["aIice"].username_key  # "aiice", ignoring case, is nobody else's
    assert members["dave"].display_name == "Dave" and members["erin"].display_name == ""
    # Keys are unique where set, and everyone keeps signing in by their username.
    keys = [m.shown_key for m in members.values() if m.shown_key]
    assert len(keys) == len(set(keys)) and len(members) == 7
    # A member whose name lost its key keeps it while they keep it: saving other things works.
    odd = members["aIice"]
    odd.turn_sound = True
    odd.save()
