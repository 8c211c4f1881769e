"""Fair deals: a finished round re-deals from its revealed seed to the recorded hands; any other seed fails."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from rules.engine import registry
from tables.ledger.services.fairness import DealNotRevealed, commitment_of, verify_deal
from tables.models import Round
from tests.tables.helpers import current_round, full_table
from tests.tables.ledger_support import finished_table

pytestmark = pytest.mark.django_db

PLAYERS = {"sheepshead": 5, "hawk": 4, "hawsker": 2, "puskiyon": 3}


@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_a_committed_seed_re_deals_the_recorded_hands(make_member, game) -> None:
    table = finished_table(game, [make_member("ann")], bots=PLAYERS[game] - 1, rounds=2)
    for rnd in Round.objects.filter(match__table=table, over=True):
        check = verify_deal(round_id=rnd.pk)
        assert check.commitment_ok and check.hands_ok and check.replay_ok and check.ok
        assert check.computed == rnd.commitment == commitment_of(rnd.seed, rnd.salt)
        assert len(check.recorded) == PLAYERS[game] and all(check.recorded)
        assert check.moves_checked == rnd.moves.count() > 0
        if game == "sheepshead":
            assert check.recorded_extra["blind"] == check.redealt_extra["blind"]
            assert len(check.recorded_extra["blind"]) == 2


@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_a_changed_seed_fails_every_check(make_member, game) -> None:
    table = finished_table(game, [make_member("ann")], bots=PLAYERS[game] - 1)
    rnd = Round.objects.get(match__table=table, number=1)
    other = ("0" if rnd.seed[0] != "0" else "1") + rnd.seed[1:]
    check = verify_deal(round_id=rnd.pk, seed=other)
    assert not check.commitment_ok
    assert not check.hands_ok
    assert not check.replay_ok and check.replay_problem
    assert not check.ok


def test_the_commitment_is_sha256_of_seed_and_salt() -> None:
    import hashlib

    assert commitment_of("abc", "salt") == hashlib.sha256(b"abc:salt").hexdigest()


def test_a_round_not_over_is_not_checked_and_its_page_does_not_exist(make_member) -> None:
    ann = make_member("ann")
    table = full_table("sheepshead", [ann], bots=4)
    rnd = current_round(table)
    assert not rnd.over
    with pytest.raises(DealNotRevealed):
        verify_deal(round_id=rnd.pk)
    client = Client()
    client.force_login(ann)
    response = client.get(reverse("fair_deal", args=[rnd.pk]))
    assert response.status_code == 404
    assert rnd.seed not in response.content.decode()
    with pytest.raises(CommandError, match="not over"):
        call_command("verify_deal", str(rnd.pk))


def test_the_command_passes_a_fair_deal_and_fails_a_changed_seed(make_member, capsys) -> None:
    table = finished_table("hawk", [make_member("ann")], bots=3)
    rnd = Round.objects.get(match__table=table, number=1)
    call_command("verify_deal", str(rnd.pk), "--show-hands")
    out = capsys.readouterr().out
    assert "[FAIL]" not in out and out.count("[ok  ]") == 3
    assert rnd.commitment in out and "The deal is the one committed to." in out
    with pytest.raises(CommandError, match="does NOT match"):
        call_command("verify_deal", str(rnd.pk), "--seed", "not-the-seed")
    assert capsys.readouterr().out.count("[FAIL]") == 3
    with pytest.raises(CommandError, match="no such round"):
        call_command("verify_deal", "999999")


def test_a_finished_rounds_fair_page_and_replay_are_for_its_players_and_staff(make_member) -> None:
    """The seed deals every hand again: a member who did not play the round learns nothing of it."""
    ann, stranger = make_member("ann"), make_member("stranger")
    boss = make_member("boss", is_staff=True)
    table = finished_table("sheepshead", [ann], bots=4)
    rnd = Round.objects.get(match__table=table, number=1)
    fair, replay = reverse("fair_deal", args=[rnd.pk]), reverse("round_replay", args=[rnd.pk])
    for viewer in (ann, boss):
        client = Client()
        client.force_login(viewer)
        page = client.get(fair)
        assert page.status_code == 200, viewer
        text = page.content.decode()
        assert 'data-ok="true"' in text and rnd.commitment in text and rnd.seed in text
        assert text.count('<span class="card') == 2 * 5 * 6  # every seat's hand, dealt again and as recorded
        assert client.get(replay).status_code == 200, viewer
        assert client.get(replay, {"step": "3"}, HTTP_HX_REQUEST="true").status_code == 200, viewer
    other = Client()
    other.force_login(stranger)
    for url in (fair, replay):
        for extra in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = other.get(url, {"step": "3"}, **extra)
            assert response.status_code == 404, url
            assert rnd.seed not in response.content.decode()
            assert rnd.commitment not in response.content.decode()


def test_an_unfinished_round_has_no_fair_page_or_replay_for_anyone(make_member) -> None:
    ann, stranger = make_member("ann"), make_member("stranger")
    boss = make_member("boss", is_staff=True, is_superuser=True)
    table = full_table("hawk", [ann], bots=3)
    rnd = current_round(table)
    assert not rnd.over
    for viewer in (ann, stranger, boss):
        client = Client()
        client.force_login(viewer)
        for url in (reverse("fair_deal", args=[rnd.pk]), reverse("round_replay", args=[rnd.pk])):
            response = client.get(url)
            assert response.status_code == 404, (viewer, url)
            assert rnd.seed not in response.content.decode()


@pytest.mark.parametrize("game", registry.GAME_KEYS)
def test_the_table_shows_a_finished_deals_seed_to_its_players_not_to_spectators(make_member, game) -> None:
    """A spectator with the seed could re-deal every hand of a round they did not play (and a private table's
    link is enough to watch): the seed is for the round's players, on the board as on the fair page."""
    ann, watcher = make_member("ann"), make_member("watcher")
    table = finished_table(game, [ann], bots=PLAYERS[game] - 1)
    rnd = Round.objects.get(match__table=table, number=1)
    assert rnd.over
    player, spectator = Client(), Client()
    player.force_login(ann)
    spectator.force_login(watcher)
    url = reverse("table", args=[table.code])
    assert rnd.seed in player.get(url).content.decode()
    assert rnd.seed not in spectator.get(url).content.decode()
