"""TRADITIONAL.md §3: 手役 under ``fudawiki``, the best of Group A plus the best of Group B.

Each test is named after the sentence (or table row) it checks, and checks it at its boundary,
from both sides. Values are in kan; at kan 10 a 手役 of v kan costs each opponent 10 v 文.
"""

from collections import Counter

import pytest
from helpers import EXAMPLE_PILES, cards, codes, mon, played_out
from simulator import DECK

from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import RoundError, score_dict
from scorekeeper.yaku import teyaku_all, teyaku_made

#: 小場, and none of its cards is in a hand below
FIELD = ["2k", "4r", "6k", "7t", "9k", "10k"]
#: no 20-point card: a 小場 field is six of these the hand leaves over
_FIELD_CANDIDATES = ["10t", "10r", "9t", "9r", "6t", "6r", "7r", "5r", "2t", "2r", "4t", "4r", "10k", "9k", "6k", "7k"]


def field_beside(hand):
    """A 小場 field of six cards the hand does not hold (no month more than twice)."""
    left = Counter(DECK) - Counter(codes(hand or ""))
    out = []
    for c in _FIELD_CANDIDATES:
        if left[c] and sum(1 for f in out if f[:-1] == c[:-1]) < 2 and len(out) < 6:
            out.append(c)
            left[c] -= 1
    return out


def fa(text):
    """The 手役 a 7-card hand scores under fudawiki: (best of A, best of B), those it has."""
    hand = cards(text)
    assert len(hand) == 7, text
    return teyaku_all(hand, FUDAWIKI)


def plain_round_with(hand, declared=None, player="Chie"):
    """CONTRACT §4's piles (Aki 96, Ben 80, Chie 88) played out under fudawiki, with one hand.

    Chie's 88 earns no 抜け役, and a hand without a three of 5 or 12 no 飛び込み: so the round pays
    only the 手役 and the card points (Aki +8, Ben −8)."""
    extra = {"teyaku": {player: declared}} if declared is not None else {}
    data = played_out(EXAMPLE_PILES, field=field_beside(hand), hands={player: hand} if hand else None, **extra)
    return score_dict(data, rules=FUDAWIKI)


def paid(result, player="Chie"):
    """What ``player`` got for 手役: their result less the card points."""
    card = {"Aki": 8, "Ben": -8, "Chie": 0}[player]
    return result.players[player].mon - card


# --- "A player scores the best of Group A and the best of Group B, and the two add up" -------


def test_shisou_plus_karasu_is_24_kan():
    # the four 柳 cards are kasu, so 柳 ×4 + three 桐 kasu is 四三 and 空素
    assert fa("11* 12kkk") == ("四三", "空素")
    result = plain_round_with("11* 12kkk")
    assert result.players["Chie"].teyaku_all == ("四三", "空素")
    assert result.players["Chie"].teyaku == "四三"  # the first of them
    assert [(p.payer, p.mon, p.reason) for p in result.payments if p.payee == "Chie"] == [
        ("Aki", 200, "四三"), ("Ben", 200, "四三"), ("Aki", 40, "空素"), ("Ben", 40, "空素"),
    ]
    assert mon(result) == {"Aki": 8 - 240, "Ben": -8 - 240, "Chie": 480}


def test_the_same_hand_under_sdin_scores_only_its_single_highest():
    assert teyaku_all(cards("11* 12kkk"), SDIN) == ("四三",)


def test_a_hand_with_only_a_group_b_teyaku_scores_only_that():
    assert fa("1k 2k 3k 4k 5k 8k 11h") == ("空素",)


def test_a_hand_with_only_a_group_a_teyaku_scores_only_that():
    assert fa("1hrk 2t 3h 4t 8t") == ("三本",)


def test_a_hand_with_a_group_a_and_a_group_b_teyaku_is_paid_both():
    # three 松 (1r 1k 1k) is 三本; 松 梅 桜 ribbons and the rest kasu is 赤
    assert fa("1rkk 2r 3r 5k 8k") == ("三本", "赤")
    result = plain_round_with("1rkk 2r 3r 5k 8k")
    assert paid(result) == 2 * (20 + 20)


def test_no_teyaku_in_either_group():
    assert fa("1h 2t 3h 4t 5t 6t 8t") == ()
    result = plain_round_with("1h 2t 3h 4t 5t 6t 8t")
    assert result.players["Chie"].teyaku is None and result.players["Chie"].teyaku_all == ()
    assert mon(result) == {"Aki": 8, "Ben": -8, "Chie": 0}


# --- "Each row's condition is tested on its own, so a hand makes every row that holds" -------


def test_shisou_also_makes_teshi_and_sanbon():
    assert {"四三", "手四", "三本"} <= set(teyaku_made(cards("1* 2trk"), FUDAWIKI))
    assert fa("1* 2trk") == ("四三",)


def test_hanekenn_also_makes_sanbon():
    assert {"はねけん", "三本"} <= set(teyaku_made(cards("1hrk 2tr 3rk"), FUDAWIKI))
    assert fa("1hrk 2tr 3rk") == ("はねけん",)


def test_a_standing_three_makes_tatesanbon_not_sanbon():
    made = teyaku_made(cards("4trk 1h 2t 3h 8t"), FUDAWIKI)
    assert "立三本" in made and "三本" not in made


def test_a_groups_best_is_the_highest_value():
    # 四三 (20) over 手四 (6) and 三本 (2); 一二四 (8) over 手四 (6)
    assert fa("1* 2trk")[0] == "四三"
    assert fa("1* 2tr 3k")[0] == "一二四"


# --- Group A, row by row, each at its boundary ------------------------------------------------


def test_shisou_is_a_four_and_a_three():
    assert fa("1* 2trk") == ("四三",)


def test_a_four_and_two_and_one_is_not_shisou_but_ichinishi():
    assert fa("1* 2tr 3k") == ("一二四",)


def test_ichinishi_is_a_four_a_pair_and_one_more():
    assert fa("9* 1hr 3k") == ("一二四",)


def test_a_four_without_the_pair_is_teshi_not_ichinishi():
    assert fa("1* 2t 3k 4k") == ("手四",)


def test_futatate_sanbon_is_two_threes_both_standing():
    assert fa("4trk 5trk 1h") == ("二立三本",)
    assert fa("7trk 12kkk 1h") == ("二立三本",)  # the three 桐 kasu stand


def test_two_threes_one_of_them_kiri_with_the_phoenix_are_not_futatate():
    assert fa("4trk 12hkk 1h") == ("三本立三本",)


def test_sanbon_tate_sanbon_is_two_threes_one_standing():
    assert fa("4trk 1hrk 3h") == ("三本立三本",)


def test_two_threes_neither_standing_are_not_sanbon_tate_sanbon_but_futa_sanbon():
    assert fa("1hrk 2trk 3h") == ("二三本",)


def test_futa_sanbon_is_two_threes_neither_standing():
    assert fa("12hkk 8htk 3h") == ("二三本",)  # 桐 with 鳳凰 does not stand


def test_hanekenn_is_one_three_and_two_pairs():
    assert fa("1hrk 2tr 3rk") == ("はねけん",)


def test_one_three_one_pair_and_two_singles_is_not_hanekenn():
    assert fa("1hrk 2tr 3k 4k") == ("三本",)


def test_teshi_is_a_four():
    assert fa("9* 1h 3h 8t") == ("手四",)


def test_kuttsuki_is_three_pairs():
    assert fa("1hr 2tr 3hr 4t") == ("喰付",)


def test_two_pairs_are_not_kuttsuki():
    assert fa("1hr 2tr 3h 4t 8t") == ()


@pytest.mark.parametrize("three", ["4trk", "5trk", "7trk", "12kkk"])
def test_a_standing_three_is_fuji_ayame_hagi_or_the_three_kiri_kasu(three):
    assert fa(f"{three} 1h 2t 3h 8t") == ("立三本",)


def test_kiri_phoenix_with_two_kiri_kasu_is_a_plain_three():
    assert fa("12hkk 1h 2t 3h 8t") == ("三本",)


@pytest.mark.parametrize("three", ["1hrk", "2trk", "3hrk", "6trk", "8htk", "9trk", "10trk", "11htr"])
def test_sanbon_is_one_three_of_any_other_month(three):
    assert fa(f"{three} 4t 5t 7t 12h") == ("三本",)


TABLE_A = {
    "四三": ("1* 2trk", 20),
    "一二四": ("1* 2tr 3k", 8),
    "二立三本": ("4trk 7trk 1h", 8),
    "三本立三本": ("4trk 1hrk 3h", 7),
    "はねけん": ("1hrk 2tr 3rk", 7),
    "二三本": ("1hrk 3hrk 8h", 6),
    "手四": ("9* 1h 3h 8t", 6),
    "喰付": ("1hr 3hr 8ht 4t", 4),
    "立三本": ("4trk 1h 2t 3h 8t", 3),
    "三本": ("1hrk 4t 5t 7t 12h", 2),
}


@pytest.mark.parametrize("name", list(TABLE_A))
def test_every_group_a_row_is_paid_its_kan_by_each_opponent(name):
    hand, kan = TABLE_A[name]
    assert fa(hand) == (name,)
    result = plain_round_with(hand)
    assert sorted((p.payer, p.mon) for p in result.payments if p.reason == name) == [("Aki", 10 * kan), ("Ben", 10 * kan)]
    assert paid(result) == 2 * 10 * kan


# --- Group B: every 柳 card counts as kasu ------------------------------------------------------


def test_karasu_is_seven_kasu():
    assert fa("1k 2k 3k 4k 5k 8k 12k") == ("空素",)


def test_six_kasu_and_a_ten_point_card_is_not_karasu_but_toichi():
    assert fa("1k 3k 4k 5k 8k 12k 2t") == ("十一",)


def test_ono_no_michikaze_and_six_kasu_is_karasu_not_pikaichi():
    assert fa("11h 1k 2k 3k 4k 5k 8k") == ("空素",)


def test_willow_swallow_and_willow_ribbon_are_kasu_too():
    assert fa("11t 1k 2k 3k 4k 5k 8k") == ("空素",)
    assert fa("11r 1k 2k 3k 4k 5k 8k") == ("空素",)


def test_pikaichi_is_one_bright_and_six_kasu():
    assert fa("1h 2k 3k 4k 5k 6k 8k") == ("光一",)


def test_two_brights_and_five_kasu_are_not_pikaichi():
    assert fa("1h 3h 2k 4k 5k 6k 8k") == ()


def test_pikaichi_with_ono_no_michikaze_as_a_seventh_kasu():
    assert fa("12h 11h 2k 4k 5k 6k 8k") == ("光一",)


def test_toichi_is_one_tane_and_six_kasu():
    assert fa("8t 1k 2k 3k 4k 5k 6k") == ("十一",)


def test_two_tane_are_not_toichi():
    assert fa("8t 9t 1k 2k 3k 4k 5k") == ()


def test_tanichi_is_one_tanzaku_and_six_kasu():
    assert fa("4r 1k 2k 3k 5k 6k 8k") == ("短一",)


def test_aka_is_two_or_more_tanzaku_of_any_colour_the_rest_kasu():
    assert fa("1r 6r 1k 2k 3k 5k 8k") == ("赤",)  # a red poem and a blue one
    assert fa("4r 5r 7r 9r 10r 1k 2k") == ("赤",)


def test_tanzaku_with_a_tane_among_the_rest_are_not_aka():
    assert fa("1r 6r 2t 2k 3k 5k 8k") == ()


def test_willow_ribbon_is_a_kasu_so_one_more_tanzaku_is_tanichi_not_aka():
    assert fa("11r 4r 1k 2k 3k 5k 8k") == ("短一",)


TABLE_B = {
    "空素": ("1k 2k 3k 4k 5k 8k 12k", 4),
    "光一": ("1h 2k 3k 4k 5k 6k 8k", 4),
    "十一": ("8t 1k 2k 3k 4k 5k 6k", 3),
    "短一": ("4r 1k 2k 3k 5k 6k 8k", 3),
    "赤": ("1r 6r 1k 2k 3k 5k 8k", 2),
}


@pytest.mark.parametrize("name", list(TABLE_B))
def test_every_group_b_row_is_paid_its_kan_by_each_opponent(name):
    hand, kan = TABLE_B[name]
    assert fa(hand) == (name,)
    assert paid(plain_round_with(hand)) == 2 * 10 * kan


# --- "Output names: these, exactly (空素 here, 空巣 in SDIN; both are accepted as input)" -------


@pytest.mark.parametrize("typed", ["空素", "空巣"])
def test_karasu_is_output_as_karasu_with_su_under_fudawiki_whichever_is_typed(typed):
    result = plain_round_with(None, declared=typed)
    assert result.players["Chie"].teyaku == "空素"
    assert paid(result) == 2 * 40


@pytest.mark.parametrize("typed", ["空素", "空巣"])
def test_karasu_is_output_as_karasu_with_nest_under_sdin_whichever_is_typed(typed):
    data = played_out(EXAMPLE_PILES, field=FIELD, teyaku={"Chie": typed})
    assert score_dict(data).players["Chie"].teyaku == "空巣"


# --- "A declared 手役 may name one or two of them, one per group, as a list" ------------------


def test_a_declared_list_of_one_per_group_is_paid_both():
    result = plain_round_with(None, declared=["三本", "赤"])
    assert result.players["Chie"].teyaku_all == ("三本", "赤")
    assert paid(result) == 2 * (20 + 20)


def test_a_declared_list_is_reported_group_a_first_whatever_the_order_typed():
    result = plain_round_with(None, declared=["赤", "三本"])
    assert result.players["Chie"].teyaku_all == ("三本", "赤")
    assert result.to_json()["players"]["Chie"]["teyaku"] == "三本"


def test_a_declared_single_name_is_one_teyaku():
    assert paid(plain_round_with(None, declared="十一")) == 2 * 30


def test_a_declared_list_of_two_of_one_group_is_bad():
    with pytest.raises(RoundError) as e:
        plain_round_with(None, declared=["三本", "手四"])
    assert e.value.where == "teyaku.Chie"


def test_an_empty_declared_list_is_no_declaration():
    assert paid(plain_round_with(None, declared=[])) == 0


# --- "With the hand also given, the list names exactly the hand's best of each group" ---------


def test_with_the_hand_the_list_naming_both_groups_best_is_accepted():
    result = plain_round_with("1rkk 2r 3r 5k 8k", declared=["三本", "赤"])
    assert result.players["Chie"].teyaku_all == ("三本", "赤")


def test_with_the_hand_a_list_leaving_out_a_group_the_hand_has_is_bad():
    with pytest.raises(RoundError) as e:
        plain_round_with("1rkk 2r 3r 5k 8k", declared=["三本"])
    assert e.value.where == "teyaku.Chie"


def test_with_the_hand_a_list_naming_a_group_the_hand_lacks_is_bad():
    with pytest.raises(RoundError):
        plain_round_with("1hrk 2t 3h 4t 8t", declared=["三本", "赤"])


def test_with_the_hand_a_row_the_hand_makes_but_not_its_best_is_bad():
    # 四三 also makes 手四 and 三本, but its best is 四三
    with pytest.raises(RoundError):
        plain_round_with("11* 12kkk", declared=["手四", "空素"])
    assert plain_round_with("11* 12kkk", declared=["四三", "空素"]).players["Chie"].teyaku_all == ("四三", "空素")
