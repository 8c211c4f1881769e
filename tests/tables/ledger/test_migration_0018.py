"""Migration 0018 gives the in-person records already in the books their summary as a sentence, where rebuilding it
from the record (facts, score, the names its ledger results show) gives exactly the English it stored; any other
record keeps no sentence and shows its English. The English itself is never changed."""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from tables.models import InPersonRecord
from tests.migrations import latest_schema_after, migrate  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("tables", "0017_bot_levels"), ("accounts", "0001_initial")]
AFTER = [("tables", "0018_in_person_summaries_as_sentences")]

HAND = ("Anna with Bernd took 75 points (rate +1, stake $1.00): Anna +$2.00, Bernd +$1.00, Clara -$1.00, "
        "Dieter -$1.00, Erika -$1.00")
HAWK = "LAFH Anna and Clara with 151 pips won: k +2, +8 points each."
LEASTER = "Leaster won by Bernd with 10 points, collecting $0.50 from each player."


def _record(apps, admin, members, *, kind: str, game: str, facts: dict, score: dict, summary: str, amounts: list):
    records, entries = apps.get_model("tables", "InPersonRecord"), apps.get_model("tables", "LedgerEntry")
    now = timezone.now()
    record = records.objects.create(game=game, kind=kind, facts=facts, score=score, summary=summary,
                                    recorded_by=admin, recorded_at=now)
    for seat, (member, amount) in enumerate(zip(members, amounts, strict=True)):
        entries.objects.create(game=game, unit="cents" if game == "sheepshead" else "points", member=member,
                               seat=seat, label=member.display_name, amount=amount, in_person=record,
                               kind="result", created_at=now)
    return record.pk


def test_old_records_get_their_sentence_where_it_says_exactly_their_english() -> None:
    apps = migrate(BEFORE)
    User = apps.get_model("accounts", "User")
    admin = User.objects.create(username="tess", is_staff=True)
    club = [User.objects.create(username=n.lower(), display_name=n) for n in ("Anna", "Bernd", "Clara", "Dieter",
                                                                             "Erika")]
    names = [m.username for m in club]
    hand = _record(apps, admin, club, kind="sheepshead_hand", game="sheepshead", summary=HAND,
                   facts={"players": names, "picker": "anna", "partner": "bernd", "picker_points": 75,
                          "stake_cents": 100},
                   score={"rate": 1, "money": [200, 100, -100, -100, -100], "picker": 0, "partner": 1},
                   amounts=[200, 100, -100, -100, -100])
    hawk = _record(apps, admin, club[:4], kind="hawk_round", game="hawk", summary=HAWK,
                   facts={"players": names[:4], "lafh": ["anna", "clara"], "solo": False, "lafh_pips": 151,
                          "nob_pips": 69, "lafh_bonuses": [], "nob_bonuses": []},
                   score={"lafh": [0, 2], "solo": False, "won": True, "k": 2, "points": 8, "deltas": [8, 0, 8, 0]},
                   amounts=[8, 0, 8, 0])
    leaster = _record(apps, admin, club[:3], kind="sheepshead_leaster", game="sheepshead", summary=LEASTER,
                      facts={"players": names[:3], "points": [60, 10, 50], "tricks": [5, 1, 4], "stake_cents": 50},
                      score={"winner": 1, "money": [-50, 100, -50]}, amounts=[-50, 100, -50])
    typed = _record(apps, admin, club[:2], kind="sheepshead_hand", game="sheepshead", summary="Anna +1250, Bernd -1250",
                    facts={"players": names[:2]}, score={"amounts": [1250, -1250]}, amounts=[1250, -1250])
    renamed = _record(apps, admin, club, kind="sheepshead_hand", game="sheepshead", summary=HAND.replace("Anna", "Ann"),
                      facts={"players": names, "picker": "anna", "partner": "bernd", "picker_points": 75,
                             "stake_cents": 100},
                      score={"rate": 1, "money": [200, 100, -100, -100, -100], "picker": 0, "partner": 1},
                      amounts=[200, 100, -100, -100, -100])

    migrate(AFTER)
    shown = {}
    for pk in (hand, hawk, leaster, typed, renamed):
        record = InPersonRecord.objects.get(pk=pk)
        with translation.override("de"):
            shown[pk] = (record.summary_said is not None, record.summary_shown)
        assert record.summary in (HAND, HAWK, LEASTER, "Anna +1250, Bernd -1250", HAND.replace("Anna", "Ann"))
    assert shown[hand] == (True, "Anna mit Bernd macht 75 Augen (Faktor +1, Einsatz 1,00 $): Anna +2,00 $, "
                                 "Bernd +1,00 $, Clara -1,00 $, Dieter -1,00 $, Erika -1,00 $")
    assert shown[hawk] == (True, "LAFH (Anna und Clara) gewinnt mit 151 Augen: k +2, je +8 Punkte.")
    assert shown[leaster] == (True, "Ramsch gewonnen von Bernd mit 10 Augen, kassiert 0,50 $ von jedem Spieler.")
    assert shown[typed] == (False, "Anna +1250, Bernd -1250")  # not a summary the services wrote: as it was
    assert shown[renamed] == (False, HAND.replace("Anna", "Ann"))  # its names are not its entries': its English
