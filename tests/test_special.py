"""RULES.md §6: 特殊役, judged only in a played-out round with no 出来役."""

import pytest
from helpers import (
    BIG_FIELD,
    EXAMPLE_PILES,
    cards,
    ledger,
    mon,
    played_out,
    round_file,
    yaku_won,
)

from scorekeeper.scoring import score_dict
from scorekeeper.yaku import special

# Whole played-out rounds without any 出来役; Aki's pile is the one under test.
NIHACHI = {
    167: {
        "Aki": "1hr 4* 5* 6* 7rk 8hk 9tk 10tk 11hk 12hk",
        "Ben": "2* 3kk 7tk 10rk 12kk",
        "Chie": "1kk 3hr 8tk 9rk 11tr",
    },
    168: {
        "Aki": "1* 2tk 4* 5tr 6tr 7tr 8hk 9* 11ht",
        "Ben": "5kk 6kk 10rk 11rk",
        "Chie": "2rk 3* 7kk 8tk 10tk 12*",
    },
    170: {
        "Aki": "2tr 3hr 4tk 5* 7* 8* 9tk 10rk 11*",
        "Ben": "1hk 2kk 6* 9rk 10tk 12*",
        "Chie": "1rk 3kk 4rk",
    },
}
SUJIROKU = {  # Aki's kasu, counting all four 柳 cards
    15: {
        "Aki": "1* 2tk 3rk 7tk 8kk 9rk 10tk 11* 12kk",
        "Ben": "4kk 5* 6kk 7rk 8ht 9tk 12hk",
        "Chie": "2rk 3hk 4tr 6tr 10rk",
    },
    16: {
        "Aki": "4kk 5rk 7rk 8* 9* 10* 11* 12kk",
        "Ben": "1* 2* 3hk 4tr 5tk 6tk 7tk 12hk",
        "Chie": "3rk 6rk",
    },
    17: {
        "Aki": "1hr 2kk 3kk 4kk 5tk 6tk 7* 8tk 9tr 10kk 11*",
        "Ben": "2tr 3hr 4tr 5rk 6rk 8hk 9kk 10tr 12*",
        "Chie": "1kk",
    },
}
#: Aki: 169 points and 17 kasu
BOTH = {
    "Aki": "1* 2* 3hk 4tk 5* 6rk 8ht 9kk 11* 12kk",
    "Ben": "4rk 7* 8kk 9tr 10* 12hk",
    "Chie": "3rk 6tk",
}
#: every pile totals exactly 88
SOHACHI = {
    "Aki": "2tk 6tk 8* 9* 10rk 11tk",
    "Ben": "1* 2rk 3kk 4kk 5* 6rk 7tr 10tk 12kk",
    "Chie": "3hr 4tr 7kk 11hr 12hk",
}


def specials(result):
    return {p: r.special for p, r in result.players.items()}


# --- 二八 -----------------------------------------------------------------------------------


def test_a_pile_of_167_is_no_nihachi():
    result = score_dict(played_out(NIHACHI[167]))
    assert result.players["Aki"].card_points == 167
    assert specials(result) == {"Aki": (), "Ben": (), "Chie": ()}
    assert result.kind == "札"


def test_nihachi_is_a_pile_of_168_worth_100():
    result = score_dict(played_out(NIHACHI[168]))
    assert result.players["Aki"].card_points == 168
    assert result.players["Aki"].special == ("二八",)
    assert mon(result) == yaku_won("Aki", 100)


def test_nihachi_gains_10_per_point_above_168():
    result = score_dict(played_out(NIHACHI[170]))
    assert result.players["Aki"].card_points == 170
    assert mon(result) == yaku_won("Aki", 120)


# --- 素十六 ---------------------------------------------------------------------------------


def test_fifteen_kasu_are_no_sujiroku():
    result = score_dict(played_out(SUJIROKU[15]))
    assert specials(result) == {"Aki": (), "Ben": (), "Chie": ()}


def test_sujiroku_is_sixteen_kasu_worth_120():
    result = score_dict(played_out(SUJIROKU[16]))
    assert result.players["Aki"].special == ("素十六",)
    assert mon(result) == yaku_won("Aki", 120)


def test_sujiroku_counts_all_four_willow_cards_as_kasu():
    pile = cards(SUJIROKU[16]["Aki"])
    assert sum(1 for c in pile if c.kind_code == "k") == 13  # plain kasu alone are too few
    assert {c.code for c in pile if c.month == 11} == {"11h", "11t", "11r", "11k"}
    assert special({"Aki": pile, "Ben": [], "Chie": []}, "Ben")["Aki"] == [("素十六", 120)]


def test_sujiroku_gains_20_per_kasu_above_16():
    result = score_dict(played_out(SUJIROKU[17]))
    assert result.players["Aki"].special == ("素十六",)
    assert mon(result) == yaku_won("Aki", 140)


# --- 総八 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", ["Aki", "Ben", "Chie"])
def test_sohachi_all_three_piles_exactly_88_goes_to_the_dealer_only(dealer):
    result = score_dict(played_out(SOHACHI, dealer=dealer))
    assert [r.card_points for r in result.players.values()] == [88, 88, 88]
    assert specials(result) == {p: ("総八",) if p == dealer else () for p in ["Aki", "Ben", "Chie"]}
    assert mon(result) == yaku_won(dealer, 100)


def test_one_pile_of_88_is_no_sohachi_even_for_the_dealer():
    result = score_dict(played_out(EXAMPLE_PILES, dealer="Chie"))
    assert result.players["Chie"].card_points == 88
    assert specials(result) == {"Aki": (), "Ben": (), "Chie": ()}
    assert result.kind == "札"


# --- every special is paid ----------------------------------------------------------------


def test_nihachi_and_sujiroku_held_by_one_player_are_both_paid():
    result = score_dict(played_out(BOTH))
    aki = result.players["Aki"]
    assert (aki.card_points, aki.special) == (169, ("二八", "素十六"))
    assert mon(result) == yaku_won("Aki", 110 + 140)
    assert sorted(reason for *_, reason in ledger(result)) == ["二八", "二八", "素十六", "素十六"]


def test_special_is_multiplied_by_the_field():
    result = score_dict(played_out(NIHACHI[168], field=BIG_FIELD))
    assert result.multiplier == 2
    assert mon(result) == yaku_won("Aki", 200)


# --- a 特殊役 round -------------------------------------------------------------------------


def test_in_a_special_round_only_specials_are_paid_and_card_points_are_not_scored():
    result = score_dict(played_out(SUJIROKU[16]))
    assert result.kind == "特殊役"
    assert {p.reason for p in result.payments} == {"素十六"}


def test_teyaku_are_void_in_a_special_round_but_still_reported():
    hands = {"Ben": "1hrk 2trk 3h", "Chie": "12kkk 4r 5r 3k 6k"}  # 三本 and 赤
    data = played_out(SUJIROKU[16], hands=hands, field=["4k", "5k", "6k", "7k", "9k", "10k"])
    result = score_dict(data)
    assert mon(result) == yaku_won("Aki", 120)
    assert result.to_json()["players"]["Ben"]["teyaku"] == "三本"
    assert result.to_json()["players"]["Chie"]["teyaku"] == "赤"
    assert "三本" not in {p.reason for p in result.payments}


def test_the_same_hands_are_paid_in_a_plain_round():
    hands = {"Ben": "1hrk 2trk 3h"}
    data = played_out(NIHACHI[167], hands=hands, field=["4k", "5k", "6k", "7k", "9k", "10k"])
    assert score_dict(data).players["Ben"].mon == 2 * 20 + (38 - 88)


def test_no_special_in_a_round_ended_with_a_dekiyaku():
    # 五光 with 179 points and 17 kasu: only the 出来役 is paid
    result = score_dict(round_file({"Aki": "1* 3* 4* 5* 8* 11* 12*"}, ended_by="Aki"))
    aki = result.players["Aki"]
    assert aki.card_points == 179
    assert aki.special == ()
    assert mon(result) == yaku_won("Aki", 120)


def test_no_special_in_a_played_out_round_after_sage():
    piles = {
        "Aki": "1hk 3* 4kk 5* 6tk 7tr 8* 10* 11tk 12hk",  # 四光 and 猪鹿蝶, 174 points
        "Ben": "1rk 2tk 7kk 9kk 11hr",
        "Chie": "2rk 4tr 6rk 9tr 12kk",
    }
    result = score_dict(played_out(piles, sage="Aki"))
    assert result.players["Aki"].card_points == 174
    assert specials(result) == {"Aki": (), "Ben": (), "Chie": ()}
    assert mon(result) == yaku_won("Aki", 170 // 2)


def test_special_function_finds_each_special_of_played_out_piles():
    piles = {p: cards(pile) for p, pile in BOTH.items()}
    assert special(piles, "Chie") == {"Aki": [("二八", 110), ("素十六", 140)], "Ben": [], "Chie": []}
    piles = {p: cards(pile) for p, pile in SOHACHI.items()}
    assert special(piles, "Chie") == {"Aki": [], "Ben": [], "Chie": [("総八", 100)]}
