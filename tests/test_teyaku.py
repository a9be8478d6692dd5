"""RULES.md §4: 手役, judged on each player's dealt 7-card hand."""

from collections import Counter
from itertools import combinations

import pytest
from helpers import cards, mon, round_file, yaku_won
from simulator import MONTH_KINDS, hand_value, own_teyaku

from scorekeeper.cards import Card
from scorekeeper.scoring import score_dict
from scorekeeper.yaku import teyaku

VALUES = {
    "四三": 200, "一二四": 80, "はねけん": 70, "手四": 60, "空巣": 40, "喰付": 40,
    "光一": 40, "十一": 40, "短一": 30, "赤": 30, "立三本": 30, "三本": 20,
}


#: a 小場 field that shares no card with the hands below
FIELD = ["10t", "10r", "11k", "8k", "6r", "12k"]


def te(text):
    hand = cards(text)
    assert len(hand) == 7, text
    return teyaku(hand)


# --- each 手役 at its boundary --------------------------------------------------------------


def test_shisou_is_four_of_one_month_and_three_of_another():
    assert te("1* 2trk") == "四三"
    assert te("12* 柳trk") == "四三"


def test_four_and_two_and_one_is_ichinishi_not_shisou():
    assert te("1* 2tr 3k") == "一二四"


def test_ichinishi_needs_the_two():
    assert te("1* 2t 3k 4k") == "手四"


def test_hanekenn_is_three_two_and_two():
    assert te("1hrk 2tr 3rk") == "はねけん"


def test_three_two_one_one_is_not_hanekenn():
    assert te("1hrk 2tr 3k 4k") == "三本"


def test_teshi_is_four_of_one_month():
    assert te("9* 1h 3h 8t") == "手四"


def test_three_of_a_month_is_not_teshi():
    assert te("9trk 1h 3h 8t 2t") == "三本"


def test_karasu_is_all_seven_one_point_cards():
    assert te("1k 2k 3k 4k 5k 6k 12k") == "空巣"


def test_one_ribbon_and_six_kasu_is_tanichi_not_karasu():
    assert te("1r 2k 3k 4k 5k 6k 12k") == "短一"


def test_willow_swallow_and_six_kasu_is_karasu_not_toichi():
    assert te("柳t 1k 2k 3k 4k 5k 6k") == "空巣"


def test_all_willow_cards_count_as_one_point_for_teyaku():
    # 道風, 燕 and 柳に短冊 are each a 1-point card here: with four kasu, all seven are 1-point
    assert te("11h 11t 11r 1k 2k 3k 4k") == "空巣"


def test_willow_ribbon_is_a_kasu_so_it_does_not_make_aka():
    assert te("1r 11r 2k 3k 4k 5k 6k") == "短一"


def test_kuttsuki_is_three_pairs_and_one_more():
    assert te("1hk 2tk 3rk 4t") == "喰付"


def test_two_pairs_is_not_kuttsuki():
    assert te("1hk 2tk 3r 4t 5t") is None


def test_pikaichi_is_one_twenty_point_card_and_six_kasu():
    assert te("1h 2k 4k 5k 6k 7k 9k") == "光一"


def test_two_twenty_point_cards_are_not_pikaichi():
    assert te("1h 3h 4k 5k 6k 7k 9k") is None


def test_tsuru_and_ono_no_michikaze_with_five_kasu_is_pikaichi():
    assert te("松に鶴 柳に小野道風 2k 4k 6k 7k 9k") == "光一"


def test_toichi_is_one_ten_point_card_and_six_kasu():
    assert te("2t 1k 4k 5k 6k 7k 9k") == "十一"


def test_two_ten_point_cards_are_not_toichi():
    assert te("2t 4t 1k 5k 6k 7k 9k") is None


def test_tanichi_is_one_five_point_card_and_six_kasu():
    assert te("2r 1k 4k 5k 6k 7k 9k") == "短一"


def test_aka_is_two_or_more_five_point_cards_all_others_kasu():
    assert te("1r 2r 4k 5k 6k 7k 9k") == "赤"
    assert te("1r 2r 4r 5k 6k 7k 9k") == "赤"
    assert te("1r 2r 3r 4r 5r 6r 9r") == "赤"


def test_ribbons_with_a_ten_point_card_are_not_aka():
    assert te("1r 2r 4t 5k 6k 7k 9k") is None


@pytest.mark.parametrize("three", ["4trk", "5trk", "7trk", "4tkk", "5rkk", "7tkk", "12kkk"])
def test_tatesanbon_is_three_of_fuji_ayame_hagi_or_the_three_kiri_kasu(three):
    assert te(f"{three} 1h 2t 3h 8h") == "立三本"


def test_kiri_three_with_the_phoenix_is_only_sanbon():
    assert te("12hkk 1h 2t 3h 8h") == "三本"
    assert te("12kkk 1h 2t 3h 8h") == "立三本"


@pytest.mark.parametrize("three", ["1hrk", "2trk", "3hkk", "6trk", "8htk", "9trk", "10trk", "11htr"])
def test_sanbon_is_three_of_any_other_month(three):
    assert te(f"{three} 4t 5t 7t 12h") == "三本"


def test_no_teyaku():
    assert te("1h 2t 3r 4t 5t 6t 7t") is None


# --- only the single highest; ties by table order ---------------------------------------------


def test_three_three_one_is_one_sanbon():
    assert te("1hrk 2trk 3h") == "三本"
    data = round_file({"Aki": "1rk 2rk 3rk"}, ended_by="Aki", field=FIELD, hands={"Ben": "1hrk 2trk 3h"})
    assert score_dict(data).players["Ben"].mon == 2 * 20 - 70  # paid 20 by each, pays Aki's 赤短


def test_three_three_one_with_a_standing_three_is_one_tatesanbon():
    assert te("1hrk 4trk 3h") == "立三本"


def test_a_hand_scores_only_its_highest_teyaku():
    # 柳 four (all 1-point) and the three 桐 kasu: 四三 beats 手四, 空巣 and 立三本
    assert te("柳* 12kkk") == "四三"
    # 柳 four and three kasu: 手四 (60) beats 空巣 (40)
    assert te("柳* 1k 2k 3k") == "手四"
    # three 桐 kasu, pairs of kasu: はねけん (70) beats 空巣 and 立三本
    assert te("12kkk 1kk 2kk") == "はねけん"


def test_karasu_before_kuttsuki_when_both_are_made():
    assert te("1kk 2kk 3kk 4k") == "空巣"


def test_kuttsuki_before_pikaichi_when_both_are_made():
    assert te("1hk 2kk 3kk 4k") == "喰付"


def test_tanichi_before_tatesanbon_when_both_are_made():
    assert te("12kkk 5r 1k 2k 3k") == "短一"


def test_aka_before_tatesanbon_when_both_are_made():
    assert te("12kkk 1r 2r 3k 6k") == "赤"


@pytest.mark.parametrize("name, hand", [
    ("四三", "1* 2trk"), ("一二四", "1* 2tr 3k"), ("はねけん", "1hrk 2tr 3rk"), ("手四", "9* 1h 3h 8t"),
    ("空巣", "1k 2k 3k 4k 5k 6k 12k"), ("喰付", "1hk 2tk 3rk 4t"), ("光一", "1h 2k 4k 5k 6k 7k 9k"),
    ("十一", "2t 1k 4k 5k 6k 7k 9k"), ("短一", "2r 1k 4k 5k 6k 7k 9k"), ("赤", "1r 2r 4k 5k 6k 7k 9k"),
    ("立三本", "4trk 1h 2t 3h 8h"), ("三本", "1hrk 4t 5t 7t 12h"),
])
def test_each_teyaku_is_paid_its_value_by_each_other_player(name, hand):
    # Chie ends the round with 赤短 (70); Ben's 手役 is paid as well
    data = round_file({"Chie": "1rk 2rk 3rk"}, field=FIELD, hands={"Ben": hand}, ended_by="Chie")
    result = score_dict(data)
    assert result.players["Ben"].teyaku == name
    expected = yaku_won("Ben", VALUES[name])
    chie = yaku_won("Chie", 70)
    assert mon(result) == {p: expected[p] + chie[p] for p in expected}


# --- the exact counts of RULES.md §4 -------------------------------------------------------

#: RULES.md §4: every one of the C(48,7) dealt hands counted under its highest 手役
RULES_COUNTS = {
    None: 54_461_388, "赤": 4_689_960, "三本": 4_045_474, "短一": 2_606_706, "十一": 2_317_072,
    "喰付": 1_697_130, "立三本": 1_515_650, "光一": 1_155_870, "空巣": 885_854, "手四": 126_720,
    "はねけん": 95_040, "一二四": 31_680, "四三": 528,
}


def _hand_classes():
    """Every 7-card hand, grouped by what 手役 can see, with how many hands each group holds.

    A month's contribution is its card count, its cards' 手役 points, and for a three whether it
    is a standing one; months are folded one at a time, so the 73,629,072 hands become a few
    thousand groups. Yields (a representative hand as codes, number of hands).
    """
    states = {((), (), ()): ((), 1)}  # (month counts, 手役 points, three kinds) -> (codes, count)
    for m, kinds in MONTH_KINDS.items():
        physical = [f"{m}{k}" for k in kinds]
        choices = Counter()
        example = {}
        for n in range(5):
            for pick in combinations(range(4), n):
                chosen = tuple(physical[i] for i in pick)
                three = ()
                if n == 3:
                    standing = m in (4, 5, 7) or (m == 12 and "12h" not in chosen)
                    three = ("standing" if standing else "plain",)
                key = (n, tuple(sorted(hand_value(c) for c in chosen)), three)
                choices[key] += 1
                example.setdefault(key, chosen)
        new = {}
        for (counts, pts, threes), (hand, weight) in states.items():
            for key, ways in choices.items():
                n, cpts, three = key
                if len(hand) + n > 7:
                    continue
                state = (
                    tuple(sorted(counts + ((n,) if n else ()))),
                    tuple(sorted(pts + cpts)),
                    tuple(sorted(threes + three)),
                )
                old = new.get(state)
                new[state] = (old[0] if old else hand + example[key], (old[1] if old else 0) + weight * ways)
        states = new
    for (counts, _, _), (hand, weight) in states.items():
        if sum(counts) == 7:
            yield hand, weight


def test_exact_teyaku_counts_over_all_dealt_hands():
    engine, reference = Counter(), Counter()
    for hand, weight in _hand_classes():
        engine[teyaku([Card(int(c[:-1]), c[-1]) for c in hand])] += weight
        reference[own_teyaku(hand)] += weight
    assert sum(engine.values()) == 73_629_072
    assert dict(reference) == RULES_COUNTS  # the tests' own reading of the table
    assert dict(engine) == RULES_COUNTS
