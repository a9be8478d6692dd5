"""Exact odds (scorekeeper.odds): the counts of RULES.md §4, cross-checked by brute force."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

from fast_cli import FastRunner
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import odds
from scorekeeper.cards import DECK, Card
from scorekeeper.cli import app
from scorekeeper.notation import parse_cards
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import field_class, is_bashi
from scorekeeper.yaku import TEYAKU, teyaku, teyaku_all

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


runner = FastRunner()  # the app's command built once, not at every invoke


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
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.output


# ---------------------------------------------------------------------------------------------
# fudawiki (TRADITIONAL §3): the best of Group A plus the best of Group B

# Every dealt hand under its best Group A 手役 and its best Group B 手役 (each group adds up to
# C(48, 7)); every figure but the two "none" rows is derived by hand below.
FUDAWIKI_A = {
    "四三": 528,
    "一二四": 31_680,
    "二立三本": 2_400,
    "三本立三本": 18_080,
    "はねけん": 95_040,
    "二三本": 21_760,
    "手四": 126_720,
    "喰付": 1_710_720,
    "立三本": 1_716_000,
    "三本": 4_620_000,
    None: 65_286_144,
}
FUDAWIKI_B = {
    "空素": 888_030,
    "光一": 1_184_040,
    "十一": 2_368_080,
    "短一": 2_664_090,
    "赤": 4_795_560,
    None: 61_729_272,
}

# A three of a month is "standing" in 13 of the 48 ways to hold three cards of one month: any 3 of
# the 4 cards of 藤, 菖蒲 or 萩 (3 × 4), or the three 桐 kasu (1); the other 35 are plain (8 other
# months × 4, and 桐に鳳凰 with two of the three 桐 kasu, 3).
STANDING, PLAIN = 3 * 4 + 1, 8 * 4 + 3
# two threes of two months and one card of the ten others: pairs of standing threes of different
# months (藤/菖蒲/萩 among themselves 3 × 4 × 4, each with the 桐 kasu three 3 × 4) ...
TWO_STANDING = (3 * 16 + 3 * 4) * 40
# ... one standing and one plain (藤/菖蒲/萩 with any plain three; the 桐 kasu three with a plain
# three of the 8 other months, not 桐's own) ...
ONE_STANDING = (12 * PLAIN + 1 * 8 * 4) * 40
# ... and two plain threes (of the 8 plain months, or one of them with 桐に鳳凰's three)
NO_STANDING = (comb(8, 2) * 16 + 8 * 4 * 3) * 40
# one three and no four, not はねけん (3+2+2): the other four cards are a pair and two singles, or
# four singles, of the other 11 months
ONE_THREE_REST = 11 * comb(4, 2) * comb(10, 2) * 4 * 4 + comb(11, 4) * 4**4
# Group B judges kinds with every 柳 card a kasu: 27 one-point cards (2 kasu in each of ten
# months, 桐's 3, 柳's 4), and apart from 柳 4 光, 8 種, 9 短冊
KASU, BRIGHT, ANIMAL, RIBBON = 27, 4, 8, 9

BY_HAND = {
    ("A", "四三"): 12 * 11 * comb(4, 3),  # the month of the four, the month of the three, its 3
    ("A", "一二四"): 12 * 11 * comb(4, 2) * 40,  # a four, a pair, one of the other 10 months' 40
    ("A", "二立三本"): TWO_STANDING,
    ("A", "三本立三本"): ONE_STANDING,
    ("A", "はねけん"): 12 * 4 * comb(11, 2) * 6 * 6,
    ("A", "二三本"): NO_STANDING,
    ("A", "手四"): 12 * comb(11, 3) * 4**3,  # a four and three singles (else 四三 or 一二四)
    ("A", "喰付"): comb(12, 3) * 6**3 * 9 * 4,  # three pairs and a single of the other nine
    ("A", "立三本"): STANDING * ONE_THREE_REST,
    ("A", "三本"): PLAIN * ONE_THREE_REST,
    ("B", "空素"): comb(KASU, 7),
    ("B", "光一"): BRIGHT * comb(KASU, 6),
    ("B", "十一"): ANIMAL * comb(KASU, 6),
    ("B", "短一"): RIBBON * comb(KASU, 6),
    ("B", "赤"): sum(comb(RIBBON, r) * comb(KASU, 7 - r) for r in range(2, 8)),
}


def group_counts(combos, rules=FUDAWIKI):
    out = {g: Counter() for g in rules.groups}
    for combo, n in combos.items():
        for g, name in zip(rules.groups, combo):
            out[g][name] += n
    return out


def brute_combinations(cards):
    """Each group's best over every 7-card combination of the physical cards, as teyaku_all()
    judges the hand (memoised by multiset)."""
    cards = sorted(cards)
    seen: dict[tuple[Card, ...], tuple] = {}
    out: Counter[tuple] = Counter()
    for hand in combinations(cards, 7):
        combo = seen.get(hand)
        if combo is None:
            made = {FUDAWIKI.group_of(n): n for n in teyaku_all(hand, FUDAWIKI)}
            combo = seen[hand] = (made.get("A"), made.get("B"))
        out[combo] += 1
    return out


@pytest.fixture(scope="module")
def fudawiki_combos():
    return odds.combination_counts(rules=FUDAWIKI)


def test_fudawiki_full_deck_counts_per_group(fudawiki_combos):
    by_group = group_counts(fudawiki_combos)
    assert dict(by_group["A"]) == FUDAWIKI_A
    assert dict(by_group["B"]) == FUDAWIKI_B
    assert sum(FUDAWIKI_A.values()) == sum(FUDAWIKI_B.values()) == comb(48, 7)
    assert sum(fudawiki_combos.values()) == comb(48, 7) == 73_629_072


@pytest.mark.parametrize("group, name", list(BY_HAND))
def test_fudawiki_counts_derived_by_hand(fudawiki_combos, group, name):
    assert group_counts(fudawiki_combos)[group][name] == BY_HAND[group, name]


def test_shisou_is_528_under_both_profiles(fudawiki_combos):
    # both judge 四三 by month counts alone, and it is the top of its table (of Group A)
    assert odds.teyaku_counts(rules=SDIN)["四三"] == 528 == 12 * 11 * 4
    assert group_counts(fudawiki_combos)["A"]["四三"] == 528


def test_fudawiki_combinations_by_hand(fudawiki_combos):
    assert list(fudawiki_combos) == odds.combinations_of(FUDAWIKI)  # every pair, table order
    assert len(fudawiki_combos) == 11 * 6
    # 四三 + 空素 (24 kan, TRADITIONAL §3's example): a four of kasu is only 柳's (every 柳 card is
    # a kasu), and a three of kasu only 桐's three kasu: one hand
    assert fudawiki_combos["四三", "空素"] == 1
    # 四三 + 光一: four 柳 with 鳳凰 and two of 桐's three kasu (3), or with 松/桜/芒's 光 and its
    # two kasu (3); or four 桐 (鳳凰 and three kasu) with any three of 柳 (4)
    assert fudawiki_combos["四三", "光一"] == 3 + 3 + 4
    # four 柳 with a 種/短冊 and its month's two kasu (8 months with a 種, 9 with a 短冊)
    assert fudawiki_combos["四三", "十一"] == 8
    assert fudawiki_combos["四三", "短一"] == 9
    # 赤 needs two 短冊 and kasu: a four is never that, and no month has two 短冊
    assert fudawiki_combos["四三", "赤"] == 0
    # no 手役 in either group is no 手役 under SDIN: SDIN's table holds every Group B test, and
    # its 三本 any three, which every extra Group A row needs
    assert fudawiki_combos[None, None] == FULL_DECK[None]


def test_brute_force_agrees_under_fudawiki_on_a_small_deck_with_every_teyaku():
    excluded = without(DECK, SMALL)
    expected = brute_combinations(SMALL)
    by_group = group_counts(expected)
    for g in FUDAWIKI.groups:  # every 手役 of each group occurs, and none
        names = {row.name for row in FUDAWIKI.teyaku_table if row.group == g} | {None}
        assert set(by_group[g]) == names
    assert nonzero(odds.combination_counts(excluded, FUDAWIKI)) == dict(expected)
    assert sum(expected.values()) == comb(20, 7)


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(48)), st.integers(min_value=7, max_value=15))
def test_brute_force_agrees_under_fudawiki_on_random_decks(order, size):
    kept = [DECK[i] for i in order[:size]]
    excluded = [DECK[i] for i in order[size:]]
    assert nonzero(odds.combination_counts(excluded, FUDAWIKI)) == dict(brute_combinations(kept))


def state_of(hand):
    state = 0
    for month in range(1, 13):
        picked = tuple(sorted(Counter(c for c in hand if c.month == month).items()))
        if picked:
            state += odds._hand_feature(month, picked)
    return state


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(48)))
def test_a_hand_state_is_judged_as_teyaku_all_judges_the_hand_under_fudawiki(order):
    hand = [DECK[i] for i in order[:7]]
    made = odds.group_best(odds.shape_of_state(state_of(hand)), FUDAWIKI)
    assert tuple(n for n in made if n) == teyaku_all(hand, FUDAWIKI)


@pytest.mark.parametrize(
    "cards, best",
    [
        ("12kkk 4tkk 1h", ("二立三本", None)),  # the three 桐 kasu stand
        ("12hkk 4tkk 1h", ("三本立三本", None)),  # 桐に鳳凰 with two kasu is a plain three
        ("12hkk 8hkk 1k", ("二三本", None)),
        ("12hkk 11*", ("四三", "光一")),  # 柳 counts as kasu for Group B
        ("12kkk 11tr 1k 2k", ("立三本", "空素")),
        ("11h 1k 2k 3k 4k 6k 7k", (None, "空素")),  # 柳に小野道風 with six kasu (TRADITIONAL §3)
        ("12h 11h 1k 2k 3k 4k 6k", (None, "光一")),
    ],
)
def test_states_that_differ_only_in_what_fudawiki_looks_at(cards, best):
    hand = parse_cards(cards)
    assert odds.group_best(odds.shape_of_state(state_of(hand)), FUDAWIKI) == best
    assert tuple(n for n in best if n) == teyaku_all(hand, FUDAWIKI)


def test_teyaku_counts_is_for_single_highest_profiles():
    with pytest.raises(ValueError, match="groups"):
        odds.teyaku_counts(rules=FUDAWIKI)
    # SDIN has one group, so its combinations are its single highest 手役
    assert odds.combination_counts(rules=SDIN) == {(k,): v for k, v in FULL_DECK.items()}


# ---------------------------------------------------------------------------------------------
# the fudawiki report


@pytest.fixture(scope="module")
def fudawiki_report():
    return odds.odds(rules=FUDAWIKI)


def test_fudawiki_report_over_the_full_deck(fudawiki_report):
    r = fudawiki_report
    assert (r["profile"], r["teyaku_mode"], r["mon_per_kan"]) == ("fudawiki", "groups", 10)
    assert r["deck"] == 48 and r["hands"] == comb(48, 7) and r["group_names"] == ["A", "B"]
    for g, expected in (("A", FUDAWIKI_A), ("B", FUDAWIKI_B)):
        rows = r["groups"][g]["teyaku"]
        assert {row["name"]: row["count"] for row in rows} == expected
        assert all(row["group"] == g for row in rows)
        assert r["groups"][g]["any"]["count"] == comb(48, 7) - expected[None]
    a = r["groups"]["A"]["teyaku"]
    assert (a[0]["name"], a[0]["reading"], a[0]["kan"], a[0]["mon"]) == ("四三", "しそう", 20, 200)
    assert a[0]["one_in"] == pytest.approx(comb(48, 7) / 528)
    assert r["any_teyaku"]["count"] == comb(48, 7) - FULL_DECK[None]
    assert r["field_odds"]["total"] == comb(48, 6)
    assert "teyaku" not in r and "field" not in r and "hand" not in r
    json.dumps(r)


def test_fudawiki_combination_table_sums_to_the_total(fudawiki_report):
    rows = fudawiki_report["combinations"]
    assert sum(row["count"] for row in rows) == comb(48, 7)
    assert sum(row["probability"] for row in rows) == pytest.approx(1)
    top = next(row for row in rows if (row["A"], row["B"]) == ("四三", "空素"))
    assert (top["teyaku"], top["kan"], top["mon"], top["count"]) == (["四三", "空素"], 24, 240, 1)
    none = rows[-1]
    assert (none["A"], none["B"], none["teyaku"], none["kan"]) == (None, None, [], 0)
    for row in rows:  # the groups' values add up
        assert row["kan"] == sum(FUDAWIKI.teyaku[n] for n in row["teyaku"])


def test_fudawiki_at_least_n_kan(fudawiki_report):
    rows = fudawiki_report["at_least"]
    kans = [row["kan"] for row in rows]
    occurring = {row["kan"] for row in fudawiki_report["combinations"] if row["count"]}
    assert kans == sorted(occurring) and kans[0] == 0  # every value that occurs, ascending
    assert rows[0]["count"] == comb(48, 7) and rows[0]["probability"] == 1.0
    counts = [row["count"] for row in rows]
    assert counts == sorted(counts, reverse=True) and len(set(counts)) == len(counts)  # strictly
    for row in rows:
        assert row["count"] == sum(
            c["count"] for c in fudawiki_report["combinations"] if c["kan"] >= row["kan"]
        )
        assert row["mon"] == 10 * row["kan"]
    # at least 2 kan: any 手役 (三本 and 赤 are the cheapest, 2 kan); at most 24 kan: 四三 + 空素
    # or 光一 (1 + 10); 23: 四三 + 十一 or 短一 (8 + 9) as well
    assert rows[1] == {"kan": 2, "mon": 20, **odds._rate(comb(48, 7) - FULL_DECK[None], comb(48, 7))}
    assert (rows[-1]["kan"], rows[-1]["count"]) == (24, 11)
    assert (rows[-2]["kan"], rows[-2]["count"]) == (23, 11 + 17)
    assert (rows[-3]["kan"], rows[-3]["count"]) == (20, 528)


def test_fudawiki_report_rates_a_hand():
    r = odds.odds(hand=parse_cards("11* 12kkk"), rules=FUDAWIKI)
    h = r["hand"]
    assert (h["teyaku"], h["A"], h["B"], h["kan"], h["mon"]) == (["四三", "空素"], "四三", "空素", 24, 240)
    assert h["count"] == 1 and h["at_least"]["count"] == 11
    assert r["field_odds"]["total"] == comb(41, 6)


def test_fudawiki_report_rates_a_group_b_hand():
    h = odds.odds(hand=parse_cards("1h 2k 3k 4k 5k 6k 7k"), rules=FUDAWIKI)["hand"]
    assert (h["teyaku"], h["A"], h["B"], h["kan"]) == (["光一"], None, "光一", 4)
    # 光一 with no Group A 手役: 光一's hands less those with a Group A 手役 as well
    assert h["count"] == FUDAWIKI_B["光一"] - sum(
        n for (a, b), n in odds.combination_counts(rules=FUDAWIKI).items() if b == "光一" and a
    )
    assert h["at_least"]["count"] == 4_700_220


def test_fudawiki_report_a_hand_without_teyaku():
    h = odds.odds(hand=parse_cards("1h 2t 3r 6r 8t 9t 10r"), rules=FUDAWIKI)["hand"]
    assert (h["teyaku"], h["A"], h["B"], h["kan"], h["count"]) == ([], None, None, 0, FULL_DECK[None])
    assert h["at_least"]["probability"] == 1.0


def test_fudawiki_report_with_a_field_and_hand():
    r = odds.odds(field=FIELD, hand=parse_cards("11* 12h 2k 6k"), rules=FUDAWIKI)
    assert r["deck"] == 42 and r["hands"] == comb(42, 7)
    combos = odds.combination_counts(FIELD, FUDAWIKI)
    assert sum(row["count"] for row in r["combinations"]) == sum(combos.values()) == comb(42, 7)
    # the four 柳 cards are a four for Group A and kasu for Group B: with 桐に鳳凰, 光一
    assert (r["hand"]["A"], r["hand"]["B"], r["hand"]["kan"]) == ("手四", "光一", 10)
    assert r["hand"]["count"] == combos["手四", "光一"]
    assert r["field"]["class"] == "大場" and "field_odds" not in r
    assert list(r)[-1] == "hand"


def test_sdin_report_keeps_its_keys_and_adds_profile():
    r = odds.odds(hand=parse_cards("4* 5tkk"))
    assert list(r) == ["profile", "deck", "hands", "teyaku", "any_teyaku", "field_odds", "hand"]
    assert r["profile"] == "sdin"
    assert odds.odds(rules=SDIN) == odds.odds()


def test_a_rules_object_of_the_python_api():
    dozenal = FUDAWIKI._replace(name="dozen", kan=12)
    r = odds.odds(rules=dozenal)
    assert r["profile"] == "dozen" and r["mon_per_kan"] == 12
    assert r["groups"]["A"]["teyaku"][0]["mon"] == 240
    assert r["at_least"][-1] == {"kan": 24, "mon": 288, **odds._rate(11, comb(48, 7))}


# ---------------------------------------------------------------------------------------------
# hachi-score odds --rules


def test_cli_json_fudawiki():
    result = runner.invoke(app, ["odds", "--rules", "fudawiki", "--json"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert report["profile"] == "fudawiki"
    assert {row["name"]: row["count"] for row in report["groups"]["A"]["teyaku"]} == FUDAWIKI_A
    assert {row["name"]: row["count"] for row in report["groups"]["B"]["teyaku"]} == FUDAWIKI_B


def test_cli_rules_traditional_is_fudawiki():
    result = runner.invoke(app, ["odds", "--rules", "traditional"])
    assert result.exit_code == 0, result.output
    for text in ("fudawiki", "Group A", "Group B", "二立三本", "空素", "1,710,720", "24貫 (240文)",
                 "絶場", "12,271,512"):
        assert text in result.output
    as_json = runner.invoke(app, ["odds", "--rules", "TRADITIONAL", "--json"])
    assert json.loads(as_json.output)["profile"] == "fudawiki"


def test_cli_rules_sdin_is_the_default():
    named = runner.invoke(app, ["odds", "--rules", "sdin", "--json"])
    plain = runner.invoke(app, ["odds", "--json"])
    assert named.exit_code == plain.exit_code == 0
    assert named.output == plain.output
    assert json.loads(plain.output)["profile"] == "sdin"


def test_cli_fudawiki_with_field_and_hand():
    result = runner.invoke(
        app,
        ["odds", "--rules", "fudawiki", "--field", "1h 3r 8k 12k 5t 9k", "--hand", "11* 12h 2k 6k"],
        env={"COLUMNS": "200"},  # the hand's line on one line
    )
    assert result.exit_code == 0, result.output
    assert f"{comb(42, 7):,}" in result.output and "大場" in result.output
    assert "hand 2k 6k 11h 11t 11r 11k 12h: 手四 + 光一 = 10貫 (100文)" in result.output


def test_cli_bad_rules_name_exits_2_with_one_line():
    result = runner.invoke(app, ["odds", "--rules", "nosuch", "--json"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "nosuch" in lines[0] and "fudawiki" in lines[0]
    assert result.stdout == "" and "Traceback" not in result.output


def test_cli_rules_help_lists_the_profiles():
    result = runner.invoke(app, ["odds", "--help"])
    assert result.exit_code == 0
    for name in ("--rules", "sdin", "fudawiki", "traditional"):
        assert name in result.output
