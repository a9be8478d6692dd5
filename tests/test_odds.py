"""Exact odds (scorekeeper.odds): the counts of RULES.md §4, cross-checked by brute force."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from scorekeeper import odds
from scorekeeper.cards import DECK, Card
from scorekeeper.cli import app
from scorekeeper.notation import parse_cards
from scorekeeper.scoring import field_class, is_bashi
from scorekeeper.yaku import TEYAKU, teyaku

# RULES.md §4: every dealt hand under its highest 手役
FULL_DECK = {
    None: 54_461_388,
    "赤": 4_689_960,
    "三本": 4_045_474,
    "短一": 2_606_706,
    "十一": 2_317_072,
    "喰付": 1_697_130,
    "立三本": 1_515_650,
    "光一": 1_155_870,
    "空巣": 885_854,
    "手四": 126_720,
    "はねけん": 95_040,
    "一二四": 31_680,
    "四三": 528,
}


def without(deck, cards):
    """The deck (a list of physical cards) minus a multiset of cards."""
    left = list(deck)
    for c in cards:
        left.remove(c)
    return left


def brute_teyaku(cards):
    """Count teyaku() over every 7-card combination of the physical cards (memoised by multiset)."""
    cards = sorted(cards)
    seen: dict[tuple[Card, ...], str | None] = {}
    out: Counter[str | None] = Counter()
    for hand in combinations(cards, 7):  # sorted input: equal multisets give equal tuples
        name = seen.get(hand, ...)
        if name is ...:
            name = seen[hand] = teyaku(hand)
        out[name] += 1
    return out


def brute_fields(cards):
    out = Counter()
    for f in combinations(cards, 6):
        out[field_class(f)] += 1
        out["bashi"] += is_bashi(f)
    return out


def nonzero(counts):
    return {k: v for k, v in counts.items() if v}


# ---------------------------------------------------------------------------------------------
# 手役 over the full deck


def test_full_deck_counts_are_those_of_the_rules():
    assert odds.teyaku_counts() == FULL_DECK


def test_full_deck_total_is_every_seven_card_hand():
    assert sum(odds.teyaku_counts().values()) == comb(48, 7) == 73_629_072


def test_every_teyaku_is_a_key_in_table_order_then_none():
    assert list(odds.teyaku_counts()) == [y.name for y, _ in TEYAKU] + [None]


def test_a_quarter_of_hands_hold_a_teyaku():
    counts = odds.teyaku_counts()
    share = Fraction(comb(48, 7) - counts[None], comb(48, 7))
    assert round(float(share) * 100, 2) == 26.03


# ---------------------------------------------------------------------------------------------
# brute force on small decks: the DP counts physical combinations exactly as teyaku() judges them

# 藤 菖蒲 柳 桐 whole, 芒に月, 松に赤短, 芒のカス ×2: every 手役 can be dealt from these 20 cards
SMALL = parse_cards("4* 5* 11* 12* 8h 1r 8kk")


def test_brute_force_agrees_on_a_small_deck_with_every_teyaku():
    excluded = without(DECK, SMALL)
    expected = brute_teyaku(SMALL)
    assert set(expected) == {y.name for y, _ in TEYAKU} | {None}  # every 手役 occurs
    assert nonzero(odds.teyaku_counts(excluded)) == dict(expected)
    assert len(SMALL) == 20 and sum(expected.values()) == comb(20, 7)


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(48)), st.integers(min_value=7, max_value=15))
def test_brute_force_agrees_on_random_decks(order, size):
    kept = [DECK[i] for i in order[:size]]
    excluded = [DECK[i] for i in order[size:]]
    assert nonzero(odds.teyaku_counts(excluded)) == dict(brute_teyaku(kept))


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(48)))
def test_a_hand_state_is_judged_as_teyaku_judges_the_hand(order):
    hand = [DECK[i] for i in order[:7]]
    state = 0
    for month in range(1, 13):
        picked = tuple(sorted(Counter(c for c in hand if c.month == month).items()))
        if picked:
            state += odds._hand_feature(month, picked)
    assert odds.shape_teyaku(odds.shape_of_state(state)) == teyaku(hand)


def test_too_few_cards_left_count_no_hand():
    counts = odds.teyaku_counts(DECK[:42])
    assert sum(counts.values()) == 0


def test_excluding_a_card_the_deck_lacks_is_an_error():
    with pytest.raises(odds.OddsError, match="1h"):
        odds.teyaku_counts(parse_cards("1h 1h"))
    with pytest.raises(odds.OddsError, match="12k"):
        odds.teyaku_counts(parse_cards("12kkk 12k"))


# ---------------------------------------------------------------------------------------------
# the field


def test_field_counts_over_the_full_deck():
    f = odds.field_counts()
    assert f["total"] == comb(48, 6) == 12_271_512
    assert sum(f["classes"].values()) == comb(48, 6)  # 場四 fields are in the classes
    assert sum(f["classes_played"].values()) == comb(48, 6) - f["bashi"]
    assert f["bashi"] == 12 * comb(44, 2) == 11_352  # two four-of-a-months need 8 cards
    assert f["classes"]["小場"] == comb(43, 6) == 6_096_454  # none of the five brights
    assert f["classes"]["絶場"] == comb(48, 6) - comb(46, 6) == 2_904_693
    assert f["classes"]["大場"] == 3_270_365
    assert f["classes_played"] == {"小場": 6_091_267, "大場": 3_266_942, "絶場": 2_901_951}


def test_field_counts_agree_with_brute_force():
    kept = parse_cards("1* 3* 11* 12hk 5tr 9k")
    f = odds.field_counts(without(DECK, kept))
    expected = brute_fields(kept)
    assert f["bashi"] == expected["bashi"] > 0
    assert f["classes"] == {c: expected[c] for c in ("小場", "大場", "絶場")}
    assert f["total"] == comb(len(kept), 6)


def test_field_odds_probabilities():
    fo = odds.field_odds()
    assert fo["total"] == comb(48, 6)
    assert sum(r["count"] for r in fo["classes"].values()) == comb(48, 6)
    assert sum(r["probability"] for r in fo["classes"].values()) == pytest.approx(1)
    assert sum(r["probability"] for r in fo["classes_played"].values()) == pytest.approx(1)
    assert fo["bashi"]["probability"] == pytest.approx(11_352 / 12_271_512)
    assert fo["bashi"]["one_in"] == pytest.approx(12_271_512 / 11_352)
    assert [r["multiplier"] for r in fo["classes"].values()] == [1, 2, 4]


# ---------------------------------------------------------------------------------------------
# the report


FIELD = parse_cards("1h 3r 8k 12k 5t 9k")


def test_report_over_the_full_deck():
    r = odds.odds()
    assert r["deck"] == 48 and r["hands"] == comb(48, 7)
    assert {row["name"]: row["count"] for row in r["teyaku"]} == FULL_DECK
    shisou = r["teyaku"][0]
    assert (shisou["name"], shisou["reading"], shisou["mon"]) == ("四三", "しそう", 200)
    assert shisou["one_in"] == pytest.approx(comb(48, 7) / 528)
    assert r["any_teyaku"]["count"] == comb(48, 7) - FULL_DECK[None]
    assert r["field_odds"]["total"] == comb(48, 6)
    assert "field" not in r and "hand" not in r
    json.dumps(r)  # JSON-ready


def test_report_with_a_field_counts_hands_from_the_other_42():
    r = odds.odds(field=FIELD)
    assert r["deck"] == 42 and r["hands"] == comb(42, 7)
    assert {row["name"]: row["count"] for row in r["teyaku"]} == odds.teyaku_counts(FIELD)
    assert sum(row["count"] for row in r["teyaku"]) == comb(42, 7)
    assert r["field"] == {
        "cards": ["1h", "3r", "5t", "8k", "9k", "12k"],
        "class": "大場",
        "multiplier": 2,
        "bashi": False,
    }
    assert "field_odds" not in r


def test_report_names_a_bashi_field():
    r = odds.odds(field=parse_cards("3* 11h 2k"))
    assert r["field"]["bashi"] is True and r["field"]["class"] == "絶場"


def test_report_rates_a_hand():
    r = odds.odds(hand=parse_cards("4* 5tkk"))
    h = r["hand"]
    assert (h["teyaku"], h["reading"], h["mon"], h["count"]) == ("四三", "しそう", 200, 528)
    assert h["at_least"]["count"] == 528
    assert h["probability"] == pytest.approx(528 / comb(48, 7))
    # the field is dealt from the 41 cards the hand leaves
    assert r["field_odds"]["total"] == comb(41, 6)


def test_report_rates_a_hand_at_least_as_valuable():
    r = odds.odds(hand=parse_cards("4tkk 5k 7r 12kk"))
    h = r["hand"]
    assert h["teyaku"] == "立三本" and h["count"] == FULL_DECK["立三本"]
    at_least = sum(n for name, n in FULL_DECK.items() if name and name != "三本")
    assert h["at_least"]["count"] == at_least  # 30文 or more: everything but 三本 and none


def test_report_a_hand_without_teyaku():
    h = odds.odds(hand=parse_cards("1h 2t 3r 6r 8t 9t 10r"))["hand"]
    assert h["teyaku"] is None and h["mon"] == 0 and h["count"] == FULL_DECK[None]
    assert h["at_least"]["probability"] == 1.0


def test_report_a_hand_with_a_field():
    r = odds.odds(field=FIELD, hand=parse_cards("11* 12h 2k 6k"))
    assert r["hands"] == comb(42, 7)
    assert r["hand"]["teyaku"] == "手四"
    assert r["hand"]["count"] == odds.teyaku_counts(FIELD)["手四"]


@pytest.mark.parametrize(
    "field, hand, message",
    [
        ("1h 3r", None, "field must be 6 cards"),
        (None, "1h 3r 8k", "hand must be 7 cards"),
        ("1h 3r 8k 12k 5t 9k", "1h 2t 3r 6r 8t 9t 10r", "1h"),  # 松に鶴 twice
        ("12kkk 1k 2k 3k", "12k 4* 5kk", "12k"),  # four 桐 kasu
    ],
)
def test_report_refuses_impossible_cards(field, hand, message):
    with pytest.raises(odds.OddsError, match=message):
        odds.odds(
            field=parse_cards(field) if field else None, hand=parse_cards(hand) if hand else None
        )


# ---------------------------------------------------------------------------------------------
# hachi-score odds


runner = CliRunner()


def test_cli_table():
    result = runner.invoke(app, ["odds"])
    assert result.exit_code == 0, result.output
    for text in ("四三", "しそう", "54,461,388", "1 in 139,449", "絶場", "場四", "12,271,512"):
        assert text in result.output


def test_cli_table_with_field_and_hand():
    result = runner.invoke(app, ["odds", "--field", "1h 3r 8k 12k 5t 9k", "--hand", "4* 7tkk"])
    assert result.exit_code == 0, result.output
    assert f"{comb(42, 7):,}" in result.output
    assert "大場" in result.output and "四三" in result.output


def test_cli_json():
    result = runner.invoke(app, ["odds", "--json"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1  # compact: one line
    report = json.loads(lines[0])
    assert {row["name"]: row["count"] for row in report["teyaku"]} == FULL_DECK
    assert report["field_odds"]["bashi"]["count"] == 11_352


def test_cli_json_with_field():
    result = runner.invoke(app, ["odds", "--field", "1h 3r 8k 12k 5t 9k", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["hands"] == comb(42, 7) and report["field"]["class"] == "大場"


@pytest.mark.parametrize(
    "args",
    [
        ["--field", "1x 3r 8k 12k 5t 9k"],
        ["--hand", "1h 2t"],
        ["--hand", "13h 2t 3r 6r 8t 9t 10r", "--json"],
        ["--field", "1h 3r 8k 12k 5t 9k", "--hand", "1h 2t 3r 6r 8t 9t 10r"],
    ],
)
def test_cli_bad_cards_exit_2(args):
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
