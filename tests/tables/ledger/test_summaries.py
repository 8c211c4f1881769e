"""An in-person hand's summary is kept as a sentence and read in the reader's language, while its English stays exactly
what the club always stored (the formulas below are the f-strings the services used before the sentences)."""

from __future__ import annotations

import random
from datetime import date

import pytest
from django.utils import translation

from rules.engine import hawk, sheepshead
from rules.engine.hawk import deal_size
from tables.i18n import Money, say_with_money, sentence_from_data, sentence_to_data
from tables.ledger.forms import BONUS_CHOICES, BONUS_NAMES, BONUS_WORDS
from tables.ledger.services import inperson
from tables.models import InPersonRecord
from tests.tables.treasury.books_support import booked
from tests.tables.treasury.night_support import seeded_sheepshead_hands

pytestmark = pytest.mark.django_db

NAMES = ["ann", "ben", "cat", "dan", "eve", "fay", "gus"]


@pytest.fixture
def club(make_member):
    return [make_member(name, display_name=f"{name.title()} Smith") for name in NAMES]


def _dollars(cents: int) -> str:
    return f"{'-' if cents < 0 else '+'}${abs(cents) / 100:.2f}"


def legacy_hand(members, picker: int, partner: int | None, points: int, rate: int, stake: int, money) -> str:
    who = members[picker].shown_name + (" alone" if partner is None else f" with {members[partner].shown_name}")
    return f"{who} took {points} points (rate {rate:+d}, stake ${stake / 100:.2f}): " + ", ".join(
        f"{m.shown_name} {_dollars(c)}" for m, c in zip(members, money, strict=True))


def legacy_leaster(members, winner: int | None, points, stake: int) -> str:
    if winner is None:
        return "Leaster: a tie for fewest points, nothing paid."
    return (f"Leaster won by {members[winner].shown_name} with {points[winner]} points, "
            f"collecting ${stake / 100:.2f} from each player.")


def legacy_hawk(members, score, pips: int) -> str:
    shown = " and ".join(members[s].shown_name for s in score.lafh)
    return (f"LAFH {shown}{' (solo)' if score.solo else ''} with {pips} pips "
            f"{'won' if score.won else 'lost'}: k {score.k:+d}, {score.points:+d} points each.")


def test_the_english_of_every_sheepshead_hand_and_leaster_is_what_was_always_stored(club) -> None:
    for players in range(3, 8):
        members = club[:players]
        for hand in seeded_sheepshead_hands(seed=players, count=30, players=players, stake_cents=125):
            if hand.picker is None:
                priced = inperson.price_sheepshead_leaster(players=members, points=hand.leaster_points,
                                                           tricks=hand.leaster_tricks, stake_cents=125)
                winner = sheepshead.leaster_winner(points=hand.leaster_points, tricks=hand.leaster_tricks)
                expected = legacy_leaster(members, winner, hand.leaster_points, 125)
            else:
                priced = inperson.price_sheepshead_hand(players=members, picker=members[hand.picker],
                                                        partner=None if hand.partner is None else members[hand.partner],
                                                        picker_points=hand.points, stake_cents=125)
                expected = legacy_hand(members, hand.picker, hand.partner, hand.points,
                                       sheepshead.picker_rate(hand.points), 125, hand.money)
            assert str(priced.summary) == expected
            with translation.override("en"):
                assert say_with_money(priced.summary) == expected  # read back in English: the same text


def test_the_english_of_every_hawk_round_is_what_was_always_stored(club) -> None:
    rng = random.Random(23)
    for _ in range(200):
        players = rng.randint(2, 6)
        members = club[:players]
        lafh = [0] if players <= 3 else rng.sample(range(players), rng.choice([1, 2]))
        solo = players >= 4 and len(lafh) == 1
        lafh_pips = rng.randint(1, 219)
        all_dealt = players * deal_size(players) == len(hawk.DECK)
        nob_pips = 220 - lafh_pips if all_dealt else rng.randint(1, 220 - lafh_pips)
        priced = inperson.price_hawk_round(players=members, lafh=[members[s] for s in lafh], solo=solo,
                                           lafh_pips=lafh_pips, nob_pips=nob_pips)
        score = hawk.score_from_facts(players=players, lafh=lafh, lafh_pips=lafh_pips, nob_pips=nob_pips)
        assert str(priced.summary) == legacy_hawk(members, score, lafh_pips)


def test_a_record_keeps_its_sentence_and_its_english_and_reads_in_the_readers_language(make_member, club) -> None:
    admin = make_member("boss", is_staff=True)
    record = inperson.record_sheepshead_hand(admin=admin, players=NAMES[:5], picker="ann", partner="ben",
                                             picker_points=75, stake_cents=150)
    english = ("Ann Smith with Ben Smith took 75 points (rate +1, stake $1.50): Ann Smith +$3.00, Ben Smith +$1.50, "
               "Cat Smith -$1.50, Dan Smith -$1.50, Eve Smith -$1.50")
    record.refresh_from_db()
    assert record.summary == english and record.summary_said["said"] == "%(hand)s: %(amounts)s"
    with translation.override("de"):
        assert record.summary_shown == ("Ann Smith mit Ben Smith macht 75 Augen (Faktor +1, Einsatz 1,50 $): "
                                        "Ann Smith +3,00 $, Ben Smith +1,50 $, Cat Smith -1,50 $, Dan Smith -1,50 $, "
                                        "Eve Smith -1,50 $")
    with translation.override("en"):
        assert record.summary_shown == english


def test_a_record_from_before_the_sentences_shows_the_english_it_kept(make_member, club) -> None:
    admin = make_member("boss", is_staff=True)
    booked(admin, date(2024, 3, 1), {club[0]: 100, club[1]: -100}, summary="Ann and Ben, as written in 2024")
    record = InPersonRecord.objects.get()
    assert record.summary_said is None
    with translation.override("de"):
        assert record.summary_shown == "Ann and Ben, as written in 2024"


def test_money_in_a_sentence_survives_the_database_and_reads_in_each_format() -> None:
    amount = sentence_from_data(sentence_to_data(Money(-123456, signed=True)))
    assert (amount, amount.cents, amount.signed) == ("-$1234.56", -123456, True)
    assert str(Money(250, signed=True)) == "+$2.50" and str(Money(250)) == "$2.50"
    with translation.override("de"):
        assert say_with_money(amount) == "-1234,56 $" and say_with_money(Money(250, signed=True)) == "+2,50 $"


def test_the_forms_name_every_bonus_kind_the_engine_has_in_its_words() -> None:
    assert list(BONUS_WORDS) == list(hawk.BONUS_KINDS)
    with translation.override("en"):
        assert {kind: str(words) for kind, (_name, words) in BONUS_WORDS.items()} == hawk.BONUS_KINDS
        assert [str(name) for _kind, name in BONUS_NAMES] == [kind.replace("_", " ") for kind in hawk.BONUS_KINDS]
        assert str(BONUS_CHOICES[0][1]) == "heavy: a trick of more than 9 pips per player"
    with translation.override("de"):
        assert [str(name) for _kind, name in BONUS_NAMES] == ["schwer", "vier Farben", "Straße"]
