"""A Hawsker tournament run through the services: a 9-player Swiss of 4 rounds from creation to the standings, and a
round robin to its end."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tables.models import Entry, Tournament
from tables.tournaments import services
from tables.tournaments.selectors import standings

pytestmark = pytest.mark.django_db

NAMES = ["ada", "bea", "cid", "dov", "eli", "fay", "gus", "hal", "ivo"]


def test_nine_player_swiss_of_four_rounds(make_member) -> None:
    staff = make_member("organiser", is_staff=True)
    members = {name: make_member(name) for name in NAMES}
    by_id = {member.pk: name for name, member in members.items()}
    tournament = services.create_tournament(organiser=staff, name="Winter Hawsker", game="hawsker", format="swiss",
                                            rounds=4)
    assert tournament.status == "draft" and len(tournament.seed) == 32
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    for member in members.values():
        services.enter(tournament_id=tournament.pk, user=member)
    services.withdraw(tournament_id=tournament.pk, user=members["eli"])
    services.enter(tournament_id=tournament.pk, user=members["eli"])
    assert list(Entry.objects.filter(tournament=tournament, user=members["eli"]).values_list("status", flat=True)
                .order_by("pk")) == ["withdrawn", "entered"]
    services.close_entries(tournament_id=tournament.pk, staff=staff)

    pairs: list[frozenset[str]] = []
    byes: list[str] = []
    wins: Counter[str] = Counter()
    opponents: dict[str, list[str]] = {name: [] for name in NAMES}
    for number in range(1, 5):
        drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
        assert drawn.number == number
        tables = list(drawn.tables.order_by("number"))
        seated = [by_id[seat] for table in tables for seat in table.seats if seat is not None]
        assert sorted(seated) == NAMES  # everyone once a round
        for table in tables:
            if table.is_bye:
                (player,) = (by_id[seat] for seat in table.seats if seat is not None)
                byes.append(player)
                assert table.winner_id == members[player].pk  # a bye is a win
                continue
            first, second = (by_id[seat] for seat in table.seats)
            winner = min(first, second)  # the alphabetically earlier name wins
            services.record_swiss_result(table_id=table.pk, winner=members[winner])
            pairs.append(frozenset((first, second)))
            wins[winner] += 1
            opponents[first].append(second)
            opponents[second].append(first)
        services.finish_round(tournament_id=tournament.pk, staff=staff)

    assert len(byes) == len(set(byes)) == 4  # a bye each round, each to another player
    assert len(pairs) == len(set(pairs)) == 16  # four games a round, none repeated
    tournament.refresh_from_db()
    assert tournament.status == "finished" and tournament.current_round == 4

    # By hand: a point a win or bye; Buchholz the opponents' scores summed (a bye adds none).
    score = {name: wins[name] + byes.count(name) for name in NAMES}
    buchholz = {name: sum(score[other] for other in opponents[name]) for name in NAMES}
    shown = [(by_id[one.user_id], one.score, one.buchholz) for one in standings(tournament_id=tournament.pk)]
    assert {name: (points, tie) for name, points, tie in shown} == {
        name: (score[name], buchholz[name]) for name in NAMES}
    assert [(points, tie) for _, points, tie in shown] == sorted(
        ((score[name], buchholz[name]) for name in NAMES), reverse=True)
    # Nobody beats ada, and ivo beats nobody: one wins all four, the other has at most the bye.
    assert shown[0][:2] == ("ada", 4)
    assert score["ivo"] == byes.count("ivo") <= 1
    assert sum(score.values()) == 16 + 4


def test_a_round_robin_pairs_everyone_once_and_sets_its_rounds(make_member) -> None:
    staff = make_member("organiser", is_staff=True)
    members = [make_member(name) for name in NAMES[:5]]
    tournament = services.create_tournament(organiser=staff, name="Hawsker all-play-all", game="hawsker",
                                            format="round_robin")
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    met: list[frozenset[int]] = []
    byes: list[int] = []
    for _ in range(5):
        drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
        for table in drawn.tables.all():
            if table.is_bye:
                byes.extend(table.players)
                continue
            met.append(tuple(sorted(table.seats)))
            winner = next(member for member in members if member.pk in table.seats)  # the earlier entrant wins
            services.record_swiss_result(table_id=table.pk, winner=winner)
        services.finish_round(tournament_id=tournament.pk, staff=staff)
    tournament.refresh_from_db()
    assert tournament.rounds == 5 and tournament.status == "finished"
    assert sorted(met) == list(combinations(sorted(member.pk for member in members), 2))
    assert sorted(byes) == sorted(member.pk for member in members)
    top = standings(tournament_id=tournament.pk)[0]
    assert (top.user_id, top.score) == (members[0].pk, 5)  # four wins and a bye
    with pytest.raises(services.TableError):
        services.draw_next_round(tournament_id=tournament.pk, staff=staff)


def test_a_bye_cannot_be_played_or_a_session_given_a_winner(make_member) -> None:
    staff = make_member("organiser", is_staff=True)
    members = [make_member(name) for name in NAMES[:3]]
    tournament = services.create_tournament(organiser=staff, name="Three", game="hawsker", format="swiss", rounds=1)
    services.open_entries(tournament_id=tournament.pk, staff=staff)
    for member in members:
        services.enter(tournament_id=tournament.pk, user=member)
    services.close_entries(tournament_id=tournament.pk, staff=staff)
    drawn = services.draw_next_round(tournament_id=tournament.pk, staff=staff)
    bye = drawn.tables.get(number=2)
    assert bye.is_bye
    with pytest.raises(services.TableError):
        services.record_swiss_result(table_id=bye.pk, winner=members[0])
    game = drawn.tables.get(number=1)
    outsider = next(member for member in members if member.pk not in game.seats)
    with pytest.raises(services.TableError):
        services.record_swiss_result(table_id=game.pk, winner=outsider)
    game.refresh_from_db()
    assert game.winner_id is None
    assert Tournament.objects.get(pk=tournament.pk).status == "running"
