"""A night of rounds (RULES.md §8): replay, the 親 chain, totals, the settlement, 貫, rechain.

Pure: every session here is a dict, nothing touches a file.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from simulator import simulate

from scorekeeper import night
from scorekeeper.scoring import RoundError, ledger_totals, score_dict

PLAYERS = ["Aki", "Ben", "Chie"]
NIGHT_DIR = Path(__file__).parent.parent / "scorekeeper" / "data" / "night"
SAMPLES = Path(__file__).parent.parent / "samples"


def bundled_night() -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(NIGHT_DIR.glob("*.json"))]


def session_of(round_files: list[dict], dealer: str = "Aki", players=PLAYERS) -> dict:
    return {
        "id": "s1",
        "name": "test night",
        "players": list(players),
        "dealer": dealer,
        "planned_rounds": 12,
        "rate": None,
        "created": "2025-01-01T20:00:00+09:00",
        "rounds": [{"round": dict(f), "rules": "sdin"} for f in round_files],
    }


def chained_night(seed: int, n: int, dealer: str = "Aki") -> list[dict]:
    """``n`` simulated rounds whose 親 follows the chain: each the previous round's winner."""
    rng = random.Random(seed)
    files = []
    for _ in range(n):
        f = simulate(rng, PLAYERS, dealer).round
        files.append(f)
        dealer = score_dict(f).next_dealer
    return files


# ---------------------------------------------------------------------------------------------
# the bundled night


def test_the_bundled_night_has_twelve_valid_rounds_whose_dealer_follows_the_chain():
    files = bundled_night()
    assert len(files) == 12
    dealer = "Aki"
    kinds = set()
    for f in files:
        assert f["players"] == PLAYERS
        assert f["dealer"] == dealer
        result = score_dict(f)
        assert not result.redeal
        kinds.add(result.kind)
        dealer = result.next_dealer
    assert kinds == {"札", "出来役", "特殊役"}
    assert any(f.get("sage") for f in files), "the night shows a 下げ"
    assert any(f.get("hands") or f.get("teyaku") for f in files), "the night shows a 手役"


def test_samples_night_is_the_bundled_night():
    assert sorted(p.name for p in (SAMPLES / "night").glob("*.json")) == [f"{i:02d}.json" for i in range(1, 13)]
    for p in (SAMPLES / "night").glob("*.json"):
        assert p.read_bytes() == (NIGHT_DIR / p.name).read_bytes()


def test_replay_scores_each_stored_round_as_the_score_command_does():
    files = bundled_night()
    results = night.replay(session_of(files))
    assert [r.to_json() for r in results] == [score_dict(f).to_json() for f in files]


# ---------------------------------------------------------------------------------------------
# the 親 chain


def test_before_any_round_the_next_dealer_is_the_first_dealer():
    assert night.current_dealer(session_of([], dealer="Ben")) == "Ben"


def test_after_rounds_the_next_dealer_is_the_last_rounds_winner():
    files = bundled_night()
    assert night.current_dealer(session_of(files)) == score_dict(files[-1]).next_dealer
    assert night.current_dealer(session_of(files[:5])) == files[5]["dealer"]


def test_replay_fills_a_missing_dealer_from_the_chain():
    files = [dict(f) for f in bundled_night()]
    for f in files[1:]:
        del f["dealer"]
    results = night.replay(session_of(files))
    assert [r.round.dealer for r in results] == [f["dealer"] for f in bundled_night()]


def test_a_stored_round_that_no_longer_checks_out_names_its_number():
    files = bundled_night()
    broken = dict(files[3], captured={"Aki": ["1h"]})
    with pytest.raises(night.StoredRoundError, match=r"^round 4: captured.Aki"):
        night.replay(session_of(files[:3] + [broken]))


def test_a_stored_bashi_is_refused():
    bashi = json.loads((SAMPLES / "bashi.json").read_text(encoding="utf-8"))
    with pytest.raises(night.StoredRoundError, match="round 1: .*場四"):
        night.replay(session_of([bashi]))


# ---------------------------------------------------------------------------------------------
# totals and the settlement


def test_totals_are_the_sum_of_each_rounds_result():
    files = bundled_night()
    results = night.replay(session_of(files))
    expected = {p: sum(score_dict(f).players[p].mon for f in files) for p in PLAYERS}
    assert night.totals(results, PLAYERS) == expected
    assert sum(expected.values()) == 0


def test_totals_start_at_zero():
    assert night.totals([], PLAYERS) == {"Aki": 0, "Ben": 0, "Chie": 0}


def test_balances_run_to_the_totals():
    results = night.replay(session_of(bundled_night()))
    trend = night.balances(results, PLAYERS)
    assert all(len(v) == 12 for v in trend.values())
    assert {p: v[-1] for p, v in trend.items()} == night.totals(results, PLAYERS)


@pytest.mark.parametrize(
    "net, payments",
    [
        ({"Aki": -182, "Ben": 22, "Chie": 160}, [("Aki", "Ben", 22), ("Aki", "Chie", 160)]),
        ({"Aki": 100, "Ben": -30, "Chie": -70}, [("Ben", "Aki", 30), ("Chie", "Aki", 70)]),
        ({"Aki": 50, "Ben": -50, "Chie": 0}, [("Ben", "Aki", 50)]),
        ({"Aki": 0, "Ben": 0, "Chie": 0}, []),
    ],
)
def test_the_losers_pay_the_winners_in_at_most_two_payments(net, payments):
    pays = night.settlement(net)
    assert [(p.payer, p.payee, p.mon) for p in pays] == payments
    assert all(p.reason == night.SETTLEMENT_REASON for p in pays)


@pytest.mark.parametrize(
    "mon, text",
    [(0, "0貫"), (10, "+1貫"), (-10, "-1貫"), (164, "+16貫4文"), (-7, "-7文"), (6, "+6文"), (1200, "+120貫")],
)
def test_kan_shows_ten_mon_as_one_kan(mon, text):
    assert night.kan(mon) == text


def test_money_is_mon_times_the_rate():
    assert night.money(160, 10) == 1600
    assert night.money(-7, 2.5) == -17.5
    assert night.money(5, None) is None
    assert night.money_text(160, 10) == "1,600"
    assert night.money_text(-7, 2.5) == "-17.50"


@st.composite
def nights(draw):
    """A night of 0–20 simulated rounds whose 親 follows the chain."""
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(0, 20))
    dealer = draw(st.sampled_from(PLAYERS))
    return dealer, chained_night(seed, n, dealer)


@settings(max_examples=60, deadline=None)
@given(nights())
def test_over_any_night_totals_equal_the_ledger_and_the_settlement_pays_them_out(night_):
    dealer, files = night_
    session = session_of(files, dealer=dealer)
    results = night.replay(session)
    net = night.totals(results, PLAYERS)
    by_ledger = {p: 0 for p in PLAYERS}
    for r in results:
        for p, v in ledger_totals(PLAYERS, r.payments).items():
            by_ledger[p] += v
    assert net == by_ledger == {p: sum(r.players[p].mon for r in results) for p in PLAYERS}
    assert sum(net.values()) == 0
    pays = night.settlement(net)
    assert len(pays) <= 2
    assert all(p.mon > 0 and net[p.payer] < 0 < net[p.payee] for p in pays)
    assert ledger_totals(PLAYERS, pays) == net
    assert night.current_dealer(session, results) == (results[-1].next_dealer if results else dealer)


# ---------------------------------------------------------------------------------------------
# rechain: `edit N` and the 親 chain


def replacement_with_a_new_winner(files: list[dict], index: int) -> dict:
    """A round to put at ``index``, same 親, whose winner differs from the old round's."""
    old_winner = score_dict(files[index]).next_dealer
    for seed in range(1000):
        f = simulate(random.Random(seed), PLAYERS, files[index]["dealer"]).round
        if score_dict(f).next_dealer != old_winner:
            return f
    raise AssertionError("no replacement found")


def test_edit_keeps_every_later_recorded_dealer_and_lists_the_rounds_off_the_chain():
    """CONTRACT §5: a later round keeps the 親 recorded for it; the rounds whose 親 no longer
    follows the chain are listed."""
    files = chained_night(7, 8)
    session = session_of(files)
    new = replacement_with_a_new_winner(files, 2)
    new_records, changed, breaks, _ = night.replace(session, 3, new)
    assert new_records[:2] == session["rounds"][:2]
    assert new_records[2]["round"] == new
    assert [r["round"]["dealer"] for r in new_records[3:]] == [f["dealer"] for f in files[3:]]
    assert breaks == [4]  # only round 4 followed round 3's old winner
    assert 3 in changed and all(n >= 3 for n in changed)


def test_edit_with_rechain_moves_later_chained_dealers_to_the_new_winner():
    files = chained_night(7, 8)
    session = session_of(files)
    new = replacement_with_a_new_winner(files, 2)
    new_records, changed, breaks, _ = night.replace(session, 3, new, rechain=True)
    dealer = score_dict(new).next_dealer
    assert new_records[3]["round"]["dealer"] == dealer
    for rec in new_records[3:]:
        assert rec["round"]["dealer"] == dealer
        dealer = score_dict(rec["round"]).next_dealer
    assert breaks == []
    assert 3 in changed and 4 in changed


def test_rechain_moves_even_a_dealer_that_did_not_follow_the_chain():
    files = chained_night(11, 6)
    off_chain = next(p for p in PLAYERS if p != score_dict(files[2]).next_dealer)
    files[3] = simulate(random.Random(99), PLAYERS, off_chain).round  # written off the chain
    session = session_of(files)
    new = replacement_with_a_new_winner(files, 2)
    kept, _, _, _ = night.replace(session, 3, new)
    assert kept[3]["round"]["dealer"] == off_chain
    moved, _, _, _ = night.replace(session, 3, new, rechain=True)
    assert moved[3]["round"]["dealer"] == score_dict(new).next_dealer


def test_edit_of_the_last_round_changes_nothing_else():
    files = chained_night(5, 4)
    session = session_of(files)
    new = replacement_with_a_new_winner(files, 3)
    new_records, changed, breaks, _ = night.replace(session, 4, new)
    assert new_records[:3] == session["rounds"][:3]
    assert changed == [4] and breaks == []


def test_edit_with_the_same_round_changes_nothing():
    files = chained_night(3, 5)
    session = session_of(files)
    new_records, changed, breaks, _ = night.replace(session, 2, files[1])
    assert new_records == session["rounds"]
    assert changed == [] and breaks == []


def test_edit_refuses_a_round_that_is_not_there():
    with pytest.raises(IndexError):
        night.replace(session_of(chained_night(1, 2)), 3, {})


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 10), st.data(), st.booleans())
def test_after_an_edit_every_later_round_is_rescored_and_breaks_are_exact(seed, n, data, rechain):
    files = chained_night(seed, n)
    index = data.draw(st.integers(0, n - 1))
    session = session_of(files)
    new = simulate(random.Random(seed + 1), PLAYERS, files[index]["dealer"]).round
    new_records, changed, breaks, _ = night.replace(session, index + 1, new, rechain=rechain)
    results = [score_dict(r["round"]) for r in new_records]
    for i in range(index + 1, n):  # the old night was fully chained
        follows = new_records[i]["round"]["dealer"] == results[i - 1].next_dealer
        assert follows if rechain else (new_records[i]["round"]["dealer"] == files[i]["dealer"])
        assert (i + 1 in breaks) == (not follows)
    for i in range(n):
        old = score_dict(files[i])
        differs = old.round.dealer != results[i].round.dealer or old.to_json() != results[i].to_json()
        assert (i + 1 in changed) == differs


# ---------------------------------------------------------------------------------------------
# the summary, export and import as data


def test_summary_data_holds_what_the_contract_asks():
    session = session_of(bundled_night())
    data = night.summary_data(session, night.replay(session))
    assert data["session"] == "s1"
    assert data["players"] == PLAYERS
    assert data["rounds"] == 12
    assert data["totals"] == {"Aki": -182, "Ben": 22, "Chie": 160}
    assert data["settlement"] == [
        {"from": "Aki", "to": "Ben", "mon": 22},
        {"from": "Aki", "to": "Chie", "mon": 160},
    ]
    assert [h["round"] for h in data["history"]] == list(range(1, 13))


def test_summary_data_gives_money_with_a_rate():
    session = dict(session_of(bundled_night()), rate=10)
    data = night.summary_data(session, night.replay(session))
    assert data["settlement"][1] == {"from": "Aki", "to": "Chie", "mon": 160, "money": 1600}


def test_round_yaku_lists_only_what_was_paid():
    results = night.replay(session_of(bundled_night()))
    assert night.round_yaku(results[0]) == [("Ben", "三本")]
    assert night.round_yaku(results[2]) == []
    # round 4: a 特殊役 round, Aki's declared 赤 is void and not listed
    assert night.round_yaku(results[3]) == [("Ben", "素十六")]


def test_csv_rows_have_one_row_per_round():
    session = session_of(bundled_night())
    rows = night.csv_rows(session, night.replay(session))
    assert rows[0][:9] == night.CSV_FIXED + PLAYERS
    assert len(rows) == 14 and rows[-1][0] == "total"  # 12 rounds, then the totals row
    assert rows[1][:5] == [1, "Aki", "大場", 2, "札"]
    assert sum(r[6] for r in rows[1:-1]) == -182 == rows[-1][6]


def test_an_export_reads_back_as_the_same_rounds():
    session = dict(session_of(bundled_night()), rate=5)
    data = json.loads(json.dumps(night.export_data(session)))
    checked = night.read_export(data)
    assert checked["players"] == PLAYERS
    assert checked["dealer"] == "Aki"
    assert checked["rate"] == 5
    assert checked["rounds"] == [r["round"] for r in session["rounds"]]


def test_import_fills_missing_dealers_from_the_chain():
    files = [dict(f) for f in bundled_night()]
    for f in files:
        del f["dealer"], f["players"]
    checked = night.read_export({"players": PLAYERS, "rounds": files})
    assert [f["dealer"] for f in checked["rounds"]] == [f["dealer"] for f in bundled_night()]


@pytest.mark.parametrize(
    "data, where",
    [
        ([], ""),
        ({"players": ["Aki", "Ben"], "rounds": []}, "players"),
        ({"players": ["Aki", "Aki", "Ben"], "rounds": []}, "players"),
        ({"players": PLAYERS, "rounds": {}}, "rounds"),
        ({"players": PLAYERS, "rounds": [], "rules": "nope"}, "rules"),
        ({"players": PLAYERS, "rounds": [], "dealer": "Dan"}, "dealer"),
        ({"players": PLAYERS, "rounds": [{"field": "1h"}]}, "rounds[1].field"),
        ({"players": ["Aki", "Ben", "Dan"], "rounds": [{"players": PLAYERS}]}, "rounds[1].players"),
        ({"players": PLAYERS, "rounds": [], "rate": -1}, "rate"),
    ],
)
def test_a_bad_export_names_where(data, where):
    with pytest.raises(RoundError) as e:
        night.read_export(data)
    assert e.value.where == where


def test_an_export_with_a_bashi_is_refused():
    bashi = json.loads((SAMPLES / "bashi.json").read_text(encoding="utf-8"))
    with pytest.raises(RoundError, match=r"rounds\[1\].*場四"):
        night.read_export({"players": PLAYERS, "rounds": [bashi]})
