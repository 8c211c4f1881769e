"""The tournament pages: what the list and a tournament's page show, entering and withdrawing, the organiser's
form and controls, and that members cannot use the controls (403) and nonsense changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Entry, Tournament, TournamentTable
from tables.tournaments import controls, services
from tests.tables.tournaments.test_tournament_refusals import hawsker_swiss, snapshot

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]] if response.context else []


def test_the_list_groups_tournaments_by_status_and_hides_drafts_from_members(make_member) -> None:
    staff = make_member("boss", is_staff=True)
    upcoming = controls.organise(organiser=staff, name="Spring cup", game="hawsker", format="swiss", rounds=3)
    services.open_entries(tournament_id=upcoming.pk, staff=staff)
    controls.organise(organiser=staff, name="Secret draft", game="hawsker", format="swiss", rounds=3)
    _, running, _ = hawsker_swiss(make_member)
    services.draw_next_round(tournament_id=running.pk, staff=staff)
    member = make_member("ann")
    page = client_for(member).get(reverse("tournaments")).content.decode()
    assert "Spring cup" in page and "Hawsker" in page and "Secret draft" not in page
    upcoming_part = page.split('id="tournaments-upcoming"')[1].split('id="tournaments-running"')[0]
    running_part = page.split('id="tournaments-running"')[1].split('id="tournaments-finished"')[0]
    assert "Spring cup" in upcoming_part and f'data-tournament="{running.pk}"' in running_part
    assert "4 entrants" in running_part
    assert "started by the organiser" in running_part and "starts when" not in running_part
    assert "starts when the organiser starts it" in upcoming_part
    assert "Secret draft" in client_for(staff).get(reverse("tournaments")).content.decode()
    controls.cancel(tournament_id=running.pk, staff=staff, reason="The hall flooded")
    finished_part = client_for(member).get(reverse("tournaments")).content.decode().split(
        'id="tournaments-finished"')[1]
    assert f'data-tournament="{running.pk}"' in finished_part and "starts" not in finished_part
    assert client_for(member).get(reverse("tournament", args=[upcoming.pk + 1])).status_code == 403


def test_members_enter_and_withdraw_and_a_refusal_is_a_message(make_member) -> None:
    staff = make_member("boss", is_staff=True)
    cup = controls.organise(organiser=staff, name="Cup", game="hawsker", format="swiss", rounds=3)
    ann = make_member("ann")
    ann_client = client_for(ann)
    services.open_entries(tournament_id=cup.pk, staff=staff)
    services.close_entries(tournament_id=cup.pk, staff=staff)
    response = ann_client.post(reverse("tournament_enter", args=[cup.pk]), follow=True)
    assert "Entries to this tournament are not open." in messages_of(response)
    assert not Entry.objects.exists()
    services.open_entries(tournament_id=cup.pk, staff=staff)
    page = ann_client.get(reverse("tournament", args=[cup.pk])).content.decode()
    assert reverse("tournament_enter", args=[cup.pk]) in page
    ann_client.post(reverse("tournament_enter", args=[cup.pk]))
    assert Entry.objects.get(user=ann).status == Entry.Status.ENTERED
    page = ann_client.get(reverse("tournament", args=[cup.pk])).content.decode()
    assert reverse("tournament_withdraw", args=[cup.pk]) in page and "ann" in page
    response = ann_client.post(reverse("tournament_enter", args=[cup.pk]), follow=True)
    assert any("already entered" in text for text in messages_of(response))
    ann_client.post(reverse("tournament_withdraw", args=[cup.pk]))
    assert Entry.objects.get(user=ann).status == Entry.Status.WITHDRAWN
    assert ann_client.get(reverse("tournament_enter", args=[cup.pk])).status_code == 405


def test_the_page_shows_the_schedule_fee_prizes_tables_and_standings(make_member) -> None:
    staff = make_member("boss", is_staff=True)
    cup = controls.organise(organiser=staff, name="Cup", game="hawsker", format="swiss", rounds=2,
                            entry_fee_cents=500, prize_shares=[70, 30])
    services.open_entries(tournament_id=cup.pk, staff=staff)
    players = [make_member(name, display_name=name.title()) for name in ("ann", "ben", "cat", "dan")]
    for player in players:
        services.enter(tournament_id=cup.pk, user=player)
    services.close_entries(tournament_id=cup.pk, staff=staff)
    services.draw_next_round(tournament_id=cup.pk, staff=staff)
    services.start_round(tournament_id=cup.pk, staff=staff)
    first, second = TournamentTable.objects.filter(round__tournament=cup).order_by("number")
    winner = next(player for player in players if player.pk == first.seats[0])
    services.record_swiss_result(table_id=first.pk, winner=winner)
    services.void_table(table_id=second.pk, staff=staff, reason="Cards on the floor")
    page = client_for(players[3]).get(reverse("tournament", args=[cup.pk])).content.decode()
    assert "when the organiser starts it" in page
    assert "$14.00" in page and "$6.00" in page  # 4 x $5 = $20, 70 % and 30 %
    assert f"Won by {winner.shown_name}" in page
    assert "Voided: Cards on the floor" in page
    assert 'id="tournament-live"' in page and "Buchholz" in page
    assert f'data-member="{winner.pk}" data-place="1" data-score="1"' in page
    assert cup.seed not in page  # the seed only once finished
    assert reverse("tournament_draw", args=[cup.pk]) not in page  # no controls for members
    assert f'ws-connect="/ws/tournaments/{cup.pk}/"' in page
    staff_page = client_for(staff).get(reverse("tournament", args=[cup.pk])).content.decode()
    # Every table has its result: the organiser may finish the round, and not yet draw the next.
    assert reverse("tournament_finish_round", args=[cup.pk]) in staff_page
    assert reverse("tournament_draw", args=[cup.pk]) not in staff_page


def test_a_paused_or_cancelled_tournament_says_so(make_member) -> None:
    staff, cup, members = hawsker_swiss(make_member)
    client = client_for(staff)
    client.post(reverse("tournament_pause", args=[cup.pk]), {"reason": "Fire drill"})
    assert "The tournament is paused: Fire drill" in client.get(reverse("tournament", args=[cup.pk])).content.decode()
    client.post(reverse("tournament_cancel", args=[cup.pk]), {"reason": "Hall flooded"})
    page = client_for(members[0]).get(reverse("tournament", args=[cup.pk])).content.decode()
    assert "This tournament was cancelled: Hall flooded" in page and "paused" not in page.split("tournament-live")[1]


STAFF_URLS = ["tournament_open_entries", "tournament_close_entries", "tournament_add_entrant", "tournament_draw",
              "tournament_redraw", "tournament_start_round", "tournament_finish_round", "tournament_pause",
              "tournament_resume", "tournament_cancel", "tournament_publish"]


def test_members_get_403_from_every_control_and_nothing_changes(make_member) -> None:
    staff, cup, members = hawsker_swiss(make_member)
    services.draw_next_round(tournament_id=cup.pk, staff=staff)
    table = TournamentTable.objects.filter(round__tournament=cup).first()
    client = client_for(members[0])
    before = snapshot()
    for name in STAFF_URLS:
        response = client.post(reverse(name, args=[cup.pk]), {"reason": "x", "username": "p1"})
        assert response.status_code == 403, name
    assert client.post(reverse("tournament_void_table", args=[cup.pk, table.pk]), {"reason": "x"}).status_code == 403
    assert client.get(reverse("tournament_create")).status_code == 403
    assert client.post(reverse("tournament_create"), {"name": "Mine"}).status_code == 403
    assert snapshot() == before and Tournament.objects.get(pk=cup.pk).paused_at is None


def test_staff_run_a_tournament_from_the_page(make_member) -> None:
    staff = make_member("boss", is_staff=True)
    client = client_for(staff)
    response = client.post(reverse("tournament_create"), {
        "name": "Winter cup", "game": "hawsker", "format": "swiss", "rounds": "1", "no_show_minutes": "10",
        "entry_fee": "2.50", "prize_shares": "60, 40", "opt_target": "",
    })
    cup = Tournament.objects.get(name="Winter cup")
    assert response.status_code == 302, response.content.decode()[:2000]
    assert (cup.entry_fee_cents, cup.prize_shares, cup.status) == (250, [60, 40], Tournament.Status.DRAFT)
    client.post(reverse("tournament_open_entries", args=[cup.pk]))
    ann, ben = make_member("ann"), make_member("ben")
    client.post(reverse("tournament_add_entrant", args=[cup.pk]), {"username": "ann"})
    response = client.post(reverse("tournament_add_entrant", args=[cup.pk]), {"username": "nobody"}, follow=True)
    assert "There is no member with that username." in messages_of(response)
    client.post(reverse("tournament_add_entrant", args=[cup.pk]), {"username": "ben"})
    assert sorted(Entry.objects.filter(tournament=cup).values_list("user__username", flat=True)) == ["ann", "ben"]
    client.post(reverse("tournament_close_entries", args=[cup.pk]))
    client.post(reverse("tournament_draw", args=[cup.pk]))
    client.post(reverse("tournament_redraw", args=[cup.pk]))
    client.post(reverse("tournament_start_round", args=[cup.pk]))
    table = TournamentTable.objects.get(round__tournament=cup)
    running = client.get(reverse("tournament", args=[cup.pk])).content.decode()
    assert reverse("tournament_round_print", args=[cup.pk, 1]) in running  # the organiser's way to the club's tables
    assert reverse("tournament_round_print", args=[cup.pk, 1]) not in client_for(ann).get(
        reverse("tournament", args=[cup.pk])).content.decode()
    response = client.post(reverse("tournament_finish_round", args=[cup.pk]), follow=True)
    assert "Tables still without a result: 1." in messages_of(response)
    services.record_swiss_result(table_id=table.pk, winner=ann if ann.pk in table.seats else ben)
    client.post(reverse("tournament_finish_round", args=[cup.pk]))
    client.post(reverse("tournament_publish", args=[cup.pk]))
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED and cup.published_at is not None
    page = client.get(reverse("tournament", args=[cup.pk])).content.decode()
    assert "Final results" in page and cup.seed in page


def test_nonsense_forms_say_why_and_change_nothing(make_member) -> None:
    staff, cup, _ = hawsker_swiss(make_member)
    client = client_for(staff)
    count = Tournament.objects.count()
    for data, words in (
        ({"name": "X", "game": "hawsker", "format": "swiss", "rounds": "2", "no_show_minutes": "10",
          "prize_shares": "70, 40", "entry_fee": "1"}, "more than 100 percent"),
        ({"name": "X", "game": "hawsker", "format": "swiss", "rounds": "2", "no_show_minutes": "10",
          "prize_shares": "half"}, "whole percentages"),
        ({"name": "X", "game": "hawsker", "format": "sessions", "rounds": "2", "no_show_minutes": "10"},
         "two-player game"),
        ({"name": "", "game": "chess", "format": "swiss", "no_show_minutes": "ten"}, "required"),
    ):
        response = client.post(reverse("tournament_create"), data)
        assert response.status_code == 400 and words in response.content.decode(), words
    assert Tournament.objects.count() == count
    before = snapshot()
    response = client.post(reverse("tournament_pause", args=[cup.pk]), {"reason": "  "}, follow=True)
    assert any("reason" in text for text in messages_of(response))
    response = client.post(reverse("tournament_start_round", args=[cup.pk]), follow=True)
    assert "There is no drawn round to start." in messages_of(response)
    assert snapshot() == before and Tournament.objects.get(pk=cup.pk).paused_at is None


def test_the_create_form_carries_the_games_house_rules(make_member) -> None:
    staff = make_member("boss", is_staff=True)
    page = client_for(staff).get(reverse("tournament_create") + "?game=sheepshead").content.decode()
    assert 'name="opt_' in page and "House rules" in page


def test_a_members_profile_lists_their_tournaments_with_their_place(make_member) -> None:
    staff, cup, members = hawsker_swiss(make_member)
    services.draw_next_round(tournament_id=cup.pk, staff=staff)
    services.start_round(tournament_id=cup.pk, staff=staff)
    table = TournamentTable.objects.filter(round__tournament=cup).first()
    winner = next(member for member in members if member.pk == table.seats[0])
    services.record_swiss_result(table_id=table.pk, winner=winner)
    page = client_for(members[0]).get(reverse("member_profile", args=[winner.username])).content.decode()
    assert f'data-tournament="{cup.pk}"' in page and "place 1 of 4" in page


def test_a_table_played_online_has_a_watch_link_and_no_shows_are_marked(make_member) -> None:
    from tests.tables.helpers import full_table

    staff, cup, members = hawsker_swiss(make_member)
    services.draw_next_round(tournament_id=cup.pk, staff=staff)
    drawn = TournamentTable.objects.filter(round__tournament=cup).order_by("number").first()
    seated = [next(member for member in members if member.pk == seat) for seat in drawn.seats]
    play = full_table("hawsker", seated)
    TournamentTable.objects.filter(pk=drawn.pk).update(table=play, no_shows=[seated[1].pk])
    page = client_for(members[0]).get(reverse("tournament", args=[cup.pk])).content.decode()
    item = page.split(f'data-table="{drawn.pk}"')[1].split('data-table="')[0]
    assert reverse("table", args=[play.code]) in item and "Watch" in item
    assert f"{seated[1].shown_name} <span class=\"badge\">no-show</span>" in item


def test_the_organiser_replaces_a_player_from_the_page(make_member) -> None:
    staff = make_member("boss", is_staff=True)
    cup = controls.organise(organiser=staff, name="Cup", game="hawsker", format="swiss", rounds=1)
    services.open_entries(tournament_id=cup.pk, staff=staff)
    ann, ben = make_member("ann"), make_member("ben")
    for member in (ann, ben):
        services.enter(tournament_id=cup.pk, user=member)
    services.close_entries(tournament_id=cup.pk, staff=staff)
    table = services.draw_next_round(tournament_id=cup.pk, staff=staff).tables.get()
    cal = make_member("cal")
    url = reverse("tournament_replace", args=[cup.pk, table.pk])
    assert client_for(ann).post(url, {"leaving": "ann", "joining": "cal"}).status_code == 403
    client = client_for(staff)
    page = client.get(reverse("tournament", args=[cup.pk])).content.decode()
    assert url in page
    for data, said in (({"leaving": "ann", "joining": "nobody"}, "There is no member with that username."),
                       ({"leaving": "cal", "joining": "ann"}, "cal does not play at that table.")):
        response = client.post(url, data, follow=True)
        assert any(said in message for message in messages_of(response)), messages_of(response)
        table.refresh_from_db()
        assert sorted(table.seats) == sorted([ann.pk, ben.pk])
    response = client.post(url, {"leaving": "ann", "joining": "cal"}, follow=True)
    assert "The player is replaced." in messages_of(response)
    table.refresh_from_db()
    assert sorted(table.seats) == sorted([cal.pk, ben.pk])
    assert [(line["out"], line["in"]) for line in table.replacements] == [(ann.pk, cal.pk)]
    assert "cal" in response.content.decode() and "for" in response.content.decode()


def test_the_setup_form_asks_a_sessions_length_once(make_member) -> None:
    """A session's length is "hands per session"; the game's own match length ("rounds") would be a second answer to
    the same question, which the online table would then ignore."""
    client = client_for(make_member("boss", is_staff=True))
    for game in ("sheepshead", "hawk"):
        page = client.get(reverse("tournament_create"), {"game": game}).content.decode()
        assert 'name="hands_per_session"' in page, game
        assert 'name="opt_rounds"' not in page, game
        assert 'name="opt_partner"' in page or game == "hawk"
