"""TRADITIONAL.md §1, §4–6, §9 and §10 (engine switches): settling a round under ``fudawiki``.

下げ by any number of players, 勝負, cancel and played out; 特殊役 first-only and what they cancel;
the bonuses 飛び込み and 抜け役; the round's winner; kan 10 and 12; the switches a house-rule file
turns (built here with ``_replace``: the TOML parsing is tested elsewhere). Each test is named
after the sentence it checks.
"""

import pytest
from helpers import BIG_FIELD, EXAMPLE_PILES, SMALL_FIELD, TIE_PILES, ZEKKYO_FIELD, cards, mon, played_out, round_file

from scorekeeper.rules import FUDAWIKI, SDIN, check
from scorekeeper.scoring import RoundError, score_dict
from scorekeeper.yaku import special

F = FUDAWIKI
KAN12 = FUDAWIKI._replace(kan=12)

# 出来役 piles for rounds that ended (they need not hold all 48 cards)
AKATAN = "1rk 2rk 3rk"  # 赤短 7 kan
AOTAN = "6rk 9rk 10rk"  # 青短 7 kan
SHIKOU = "1hk 3hk 8hk 12hk"  # 四光 10 kan
INOSHIKACHO = "6tk 7tk 10tk"  # 猪鹿蝶: off under fudawiki

#: played out: Aki holds 赤短, Ben 青短, Chie nothing
TWO_HOLDERS = {
    "Aki": "1rk 2rk 3hrkk 7trkk 8ht 10tk 12hk",
    "Ben": "1hk 2tk 4trkk 5trkk 6trkk 8kk 9trkk 10rk 11tr 12kk",
    "Chie": "11hk",
}
#: played out: Aki holds 青短 and 176 points (a 二八 pile, were 特殊役 judged)
SAGE_NIHACHI = {
    "Aki": "2trkk 3kk 4trkk 5trkk 6rk 7tk 8hk 9trkk 10trkk 11hk 12hkkk",
    "Ben": "1hk 3hr 7rk 11tr",
    "Chie": "1rk 6tk 8tk",
}
#: no 出来役: every pile 88 (総八) and Aki's 16 kasu (素十六)
SOHACHI_SUJIROKU = {
    "Aki": "1hk 2kk 3hk 4kk 5kk 6kk 7kk 11htrk",
    "Ben": "2tr 3rk 8hk 9trkk 10rk 12hkkk",
    "Chie": "1rk 4tr 5tr 6tr 7tr 8tk 10tk",
}
#: no 出来役: Aki 199 points (二八, 10 + 31 = 41 kan), Ben 16 kasu (素十六)
NIHACHI_SUJIROKU = {
    "Aki": "1hr 3hk 2tk 4tr 5tr 6tr 7tr 9tk 10tk 8ht 11ht",
    "Ben": "1kk 4kk 5kk 6kk 7kk 8kk 11rk 12kk",
    "Chie": "2rk 3rk 9rk 10rk 12hk",
}
#: no 出来役: Aki 169 points (二八, 11 kan) and 17 kasu (素十六)
NIHACHI_AND_SUJIROKU_ONE_PLAYER = {
    "Aki": "1* 2* 3hk 4tk 5* 6rk 8ht 9kk 11* 12kk",
    "Ben": "4rk 7* 8kk 9tr 10* 12hk",
    "Chie": "3rk 6tk",
}
#: no 出来役, no 特殊役: Aki exactly 88 / exactly 89
AKI_88 = {
    "Aki": "1hr 3rk 5rk 6trkk 7trkk 10trkk",
    "Ben": "2trkk 3hk 8htkk 9kk 11htrk",
    "Chie": "1kk 4trkk 5tk 9tr 12hkkk",
}
AKI_89 = {
    "Aki": "4tk 5kk 6trkk 7trkk 9rk 11htrk",
    "Ben": "2trkk 3rk 12hkkk",
    "Chie": "1hrkk 3hk 4rk 5tr 8htkk 9tk 10trkk",
}

#: a 7-card hand of each kind (none of them a three of 5 or 12, so no 飛び込み on EXAMPLE_PILES)
SANBON = "1hrk 4t 6t 8t 9t"  # 三本 2 kan
KARASU = "1k 2k 3k 4k 5k 8k 12k"  # 空素 4 kan
PIKAICHI = "1h 2k 3k 4k 5k 6k 8k"  # 光一 4 kan
TOICHI = "8t 1k 2k 3k 4k 5k 6k"  # 十一 3 kan


def fw(data, rules=F, **kw):
    return score_dict(data, rules=rules, **kw)


def ended(piles, by, field=SMALL_FIELD, **extra):
    return round_file(piles, field=field, ended_by=by, **extra)


def reasons(result, to=None):
    return [(p.payer, p.payee, p.mon, p.reason) for p in result.payments if to is None or p.payee == to]


# --- §1: "The amount paid is value_in_kan × kan × multiplier 文" -------------------------------


def test_a_yaku_of_v_kan_costs_v_times_kan_times_the_multiplier():
    result = fw(ended({"Aki": AKATAN}, "Aki", field=ZEKKYO_FIELD))
    assert reasons(result) == [("Ben", "Aki", 7 * 10 * 4, "赤短"), ("Chie", "Aki", 7 * 10 * 4, "赤短")]


def test_kan_12_prints_amounts_times_12():
    # 三本 2 kan × 12 = 24 文 from each at ×1
    data = played_out(EXAMPLE_PILES, field=SMALL_FIELD, teyaku={"Chie": "三本"})
    result = fw(data, rules=KAN12)
    assert [(p.payer, p.mon) for p in result.payments if p.reason == "三本"] == [("Aki", 24), ("Ben", 24)]
    assert fw(data).players["Chie"].mon == 2 * 20


def test_kan_12_with_the_multiplier():
    result = fw(ended({"Aki": AKATAN}, "Aki", field=BIG_FIELD), rules=KAN12)
    assert mon(result) == {"Aki": 2 * 7 * 12 * 2, "Ben": -7 * 12 * 2, "Chie": -7 * 12 * 2}


def test_card_points_are_mon_times_the_multiplier_never_times_kan():
    for rules in (F, KAN12):
        result = fw(played_out(EXAMPLE_PILES, field=BIG_FIELD), rules=rules)
        assert mon(result) == {"Aki": 8 * 2, "Ben": -8 * 2, "Chie": 0}


@pytest.mark.parametrize("rules,half", [(F, 35), (KAN12, 42)])
def test_with_kan_10_or_12_every_half_kan_amount_is_whole(rules, half):
    # 赤短 7 kan, halved by a cancel
    result = fw(ended({"Aki": AKATAN}, "Aki", sage="Aki", ended_how="cancel"), rules=rules)
    assert [p.mon for p in result.payments] == [half, half]
    assert all(type(p.mon) is int for p in result.payments)


@pytest.mark.parametrize("kan", [8, 11, 100])
def test_any_other_kan_is_refused(kan):
    with pytest.raises(ValueError, match="kan"):
        check(F._replace(kan=kan))


def test_kan_10_and_12_are_accepted():
    assert check(F._replace(kan=10)) == F and check(KAN12).kan == 12


# --- §4: "Any number of players may call 下げ" ------------------------------------------------


def test_two_players_may_call_sage_in_one_round():
    result = fw(ended({"Aki": AKATAN, "Ben": AOTAN}, "Aki", sage=["Ben", "Aki"]))
    assert result.round.sage == ("Ben", "Aki")


def test_all_three_players_may_call_sage():
    result = fw(ended({"Aki": AKATAN, "Ben": AOTAN, "Chie": SHIKOU}, "Aki", sage=["Aki", "Ben", "Chie"]))
    assert result.round.sage == ("Aki", "Ben", "Chie")


# --- §4: "Teyaku are paid in all three cases; card points are not scored; 特殊役 are not judged"


@pytest.mark.parametrize("how", ["shoubu", "cancel", "played out"])
def test_teyaku_are_paid_in_all_three_cases(how):
    if how == "played out":
        data = played_out(TWO_HOLDERS, sage=["Aki", "Ben"], teyaku={"Chie": "三本"})
    else:
        data = ended({"Aki": AKATAN}, "Aki", sage="Aki", teyaku={"Chie": "三本"},
                     **({"ended_how": "cancel"} if how == "cancel" else {}))
    result = fw(data)
    assert sorted((p.payer, p.mon) for p in result.payments if p.reason == "三本") == [("Aki", 20), ("Ben", 20)]
    assert not any(p.reason == "札" for p in result.payments)


def test_card_points_are_not_scored_in_a_played_out_round_after_sage():
    result = fw(played_out(TWO_HOLDERS, sage=["Aki", "Ben"]))
    assert result.players["Aki"].card_points != 88
    assert not any(p.reason == "札" for p in result.payments)


def test_tokushuyaku_are_not_judged_in_a_played_out_round_after_sage():
    result = fw(played_out(SAGE_NIHACHI, sage="Aki"))
    assert result.players["Aki"].card_points >= 168
    assert all(r.special == () for r in result.players.values())
    assert mon(result) == {"Aki": 70, "Ben": -35, "Chie": -35}  # 青短 halved, no 二八


# --- §4 勝負: "each opponent pays P the total of P's 出来役" ------------------------------------


def test_shoubu_without_sage_each_opponent_pays_the_total():
    result = fw(ended({"Aki": AKATAN + " " + AOTAN}, "Aki"))
    assert sorted(reasons(result)) == [
        ("Ben", "Aki", 70, "赤短"), ("Ben", "Aki", 70, "青短"), ("Chie", "Aki", 70, "赤短"), ("Chie", "Aki", 70, "青短"),
    ]


def test_shoubu_by_a_sage_caller_with_no_other_caller_each_opponent_pays_once():
    result = fw(ended({"Aki": AKATAN}, "Aki", sage="Aki"))
    assert mon(result) == {"Aki": 140, "Ben": -70, "Chie": -70}


def test_shoubu_with_exactly_one_opponent_having_called_sage_that_opponent_pays_double():
    result = fw(ended({"Aki": AKATAN, "Ben": AOTAN}, "Aki", sage="Ben"))
    assert reasons(result) == [("Ben", "Aki", 140, "赤短")]
    assert mon(result) == {"Aki": 140, "Ben": -140, "Chie": 0}


def test_shoubu_the_lone_sage_opponent_pays_double_also_when_the_ender_called_too():
    result = fw(ended({"Aki": AKATAN, "Ben": AOTAN}, "Aki", sage=["Ben", "Aki"]))
    assert mon(result) == {"Aki": 140, "Ben": -140, "Chie": 0}


def test_shoubu_with_both_opponents_having_called_sage_each_pays_once():
    result = fw(ended({"Aki": AKATAN, "Ben": AOTAN, "Chie": SHIKOU}, "Aki", sage=["Ben", "Chie"]))
    assert sorted(reasons(result)) == [("Ben", "Aki", 70, "赤短"), ("Chie", "Aki", 70, "赤短")]


def test_shoubu_the_doubled_payment_is_one_payment_per_yaku():
    result = fw(ended({"Aki": AKATAN + " " + AOTAN, "Ben": SHIKOU}, "Aki", sage="Ben"))
    assert reasons(result) == [("Ben", "Aki", 140, "赤短"), ("Ben", "Aki", 140, "青短")]


def test_shoubu_nobody_elses_dekiyaku_earns_anything():
    result = fw(ended({"Aki": AKATAN, "Ben": SHIKOU, "Chie": AOTAN}, "Aki", sage=["Ben", "Chie"]))
    assert {p.payee for p in result.payments} == {"Aki"}
    assert result.players["Ben"].dekiyaku == ("四光",)  # shown, earns nothing


def test_shoubu_p_wins_the_round():
    result = fw(ended({"Aki": AKATAN, "Ben": AOTAN}, "Ben", sage="Aki"))
    assert result.winner == "Ben" and result.next_dealer == "Ben"


# --- §4 cancel: "each opponent pays P half the total of P's 出来役, with no doubling" ----------


def test_cancel_each_opponent_pays_half():
    result = fw(ended({"Aki": AKATAN}, "Aki", sage="Aki", ended_how="cancel"))
    assert reasons(result) == [("Ben", "Aki", 35, "赤短"), ("Chie", "Aki", 35, "赤短")]


def test_cancel_with_one_other_sage_caller_is_not_doubled():
    result = fw(ended({"Aki": AKATAN, "Ben": AOTAN}, "Aki", sage=["Ben", "Aki"], ended_how="cancel"))
    assert mon(result) == {"Aki": 70, "Ben": -35, "Chie": -35}


def test_cancel_after_sage_with_two_yaku_halves_each():
    result = fw(ended({"Aki": SHIKOU + " 2rk 6rk"}, "Aki", sage="Aki", ended_how="cancel"))
    assert sorted(reasons(result)) == [("Ben", "Aki", 50, "四光"), ("Chie", "Aki", 50, "四光")]


def test_cancel_p_wins():
    result = fw(ended({"Aki": AKATAN, "Ben": AOTAN}, "Ben", sage=["Aki", "Ben"], ended_how="cancel"))
    assert result.winner == "Ben"


def test_shoubu_is_the_default_ending_and_may_be_written():
    a = fw(ended({"Aki": AKATAN, "Ben": AOTAN}, "Aki", sage="Ben"))
    b = fw(ended({"Aki": AKATAN, "Ben": AOTAN}, "Aki", sage="Ben", ended_how="shoubu"))
    assert a.to_json() == b.to_json()


# --- §4 played out: "every holder is paid half of their own total by each opponent" ------------


def test_played_out_every_holder_is_paid_half_by_each_opponent():
    result = fw(played_out(TWO_HOLDERS, sage=["Aki", "Ben"]))
    assert sorted(reasons(result)) == [
        ("Aki", "Ben", 35, "青短"), ("Ben", "Aki", 35, "赤短"), ("Chie", "Aki", 35, "赤短"), ("Chie", "Ben", 35, "青短"),
    ]
    assert mon(result) == {"Aki": 35, "Ben": 35, "Chie": -70}


def test_played_out_the_first_sage_caller_wins():
    assert fw(played_out(TWO_HOLDERS, sage=["Ben", "Aki"])).winner == "Ben"
    assert fw(played_out(TWO_HOLDERS, sage=["Aki", "Ben"])).winner == "Aki"


def test_played_out_half_is_multiplied_by_the_field():
    result = fw(played_out(TWO_HOLDERS, sage=["Aki", "Ben"], field=ZEKKYO_FIELD))
    assert mon(result) == {"Aki": 35 * 4, "Ben": 35 * 4, "Chie": -70 * 4}


# --- §4: "A 出来役 held at the end by a player who neither ended the round nor called 下げ" -----


def test_a_dekiyaku_held_by_a_player_who_neither_ended_nor_called_sage_is_bad():
    with pytest.raises(RoundError) as e:
        fw(ended({"Aki": AKATAN, "Ben": AOTAN}, "Aki"))
    assert e.value.where == "captured.Ben"
    with pytest.raises(RoundError):
        fw(played_out(TWO_HOLDERS, sage="Aki"))


def test_a_sage_caller_whose_pile_holds_no_dekiyaku_is_bad():
    with pytest.raises(RoundError) as e:
        fw(ended({"Aki": AKATAN, "Ben": "4rk"}, "Aki", sage="Ben"))
    assert e.value.where == "sage"


def test_cancel_needs_an_earlier_sage_by_the_same_player():
    with pytest.raises(RoundError) as e:
        fw(ended({"Aki": AKATAN, "Ben": AOTAN}, "Aki", sage="Ben", ended_how="cancel"))
    assert e.value.where == "ended_how"
    assert fw(ended({"Aki": "4rk", "Ben": AOTAN}, "Ben", sage="Ben", ended_how="cancel")).winner == "Ben"


# --- §5 特殊役: "Only in a played-out round with no 出来役, and then only the first" ------------


def test_sohachi_goes_before_sujiroku():
    result = fw(played_out(SOHACHI_SUJIROKU, dealer="Ben"))
    assert {p: r.special for p, r in result.players.items()} == {"Aki": (), "Ben": ("総八",), "Chie": ()}
    assert mon(result) == {"Aki": -100, "Ben": 200, "Chie": -100}
    assert result.winner == "Ben"


def test_the_same_piles_under_sdin_rules_pay_sohachi_and_sujiroku():
    piles = {p: cards(pile) for p, pile in SOHACHI_SUJIROKU.items()}
    assert special(piles, "Ben", SDIN) == {"Aki": [("素十六", 120)], "Ben": [("総八", 100)], "Chie": []}
    assert special(piles, "Ben", F) == {"Aki": [], "Ben": [("総八", 100)], "Chie": []}


def test_sohachi_goes_before_nihachi():
    # with a real deck the two never meet (three piles of 88 hold no 168); a profile whose 二八
    # starts at 88 makes every pile of SOHACHI_SUJIROKU one, and 総八 still comes first
    rules = F._replace(nihachi_from=88)
    piles = {p: cards(pile) for p, pile in SOHACHI_SUJIROKU.items()}
    assert special(piles, "Ben", rules) == {"Aki": [], "Ben": [("総八", 100)], "Chie": []}
    everything = special(piles, "Ben", rules._replace(special_mode="all"))
    assert [n for n, _ in everything["Ben"]] == ["総八", "二八"]


def test_nihachi_goes_before_sujiroku_of_another_player():
    result = fw(played_out(NIHACHI_SUJIROKU))
    assert {p: r.special for p, r in result.players.items()} == {"Aki": ("二八",), "Ben": (), "Chie": ()}
    assert mon(result) == {"Aki": 2 * 410, "Ben": -410, "Chie": -410}  # 10 + (199 − 168) = 41 kan


def test_nihachi_goes_before_sujiroku_of_the_same_player():
    result = fw(played_out(NIHACHI_AND_SUJIROKU_ONE_PLAYER))
    assert result.players["Aki"].special == ("二八",)
    assert mon(result)["Aki"] == 2 * 110  # 10 + 1 kan
    assert score_dict(played_out(NIHACHI_AND_SUJIROKU_ONE_PLAYER)).players["Aki"].special == ("二八", "素十六")


def test_sohachi_the_rounds_dealer_takes_10_kan_from_each():
    for dealer in ("Aki", "Chie"):
        result = fw(played_out(SOHACHI_SUJIROKU, dealer=dealer))
        assert mon(result)[dealer] == 200 and result.winner == dealer


def test_nihachi_is_10_kan_plus_1_per_point_above_168_at_kan_12():
    result = fw(played_out(NIHACHI_AND_SUJIROKU_ONE_PLAYER), rules=KAN12)
    assert mon(result)["Aki"] == 2 * 11 * 12


def test_a_tokushuyaku_cancels_every_teyaku_and_bonus():
    # Aki's 十一 with 169 points would earn 抜け役 and Ben's 三本 of 7s with 7* in his pile 飛び込み
    data = played_out(NIHACHI_AND_SUJIROKU_ONE_PLAYER, teyaku={"Aki": "十一"}, hands={"Ben": "7trk 1h 3h 8t 9t"},
                      field=["2k", "4r", "6k", "10t", "9k", "10k"])
    result = fw(data)
    assert {p.reason for p in result.payments} == {"二八"}
    assert result.players["Ben"].teyaku == "立三本" and result.players["Ben"].bonuses == ()
    assert result.players["Aki"].bonuses == ()
    assert result.winner == "Aki"


def test_otherwise_teyaku_are_paid_and_each_scores_points_minus_88_times_the_multiplier():
    result = fw(played_out(EXAMPLE_PILES, field=BIG_FIELD, teyaku={"Ben": "三本"}))
    assert sorted(reasons(result)) == sorted(
        [("Aki", "Ben", 40, "三本"), ("Chie", "Ben", 40, "三本"), ("Ben", "Aki", 16, "札")]
    )


# --- §6 bonuses: "1 kan from each opponent, × multiplier" ---------------------------------------

#: a field that shares no card with the hands below
BONUS_FIELD = ["2k", "4r", "6k", "10t", "9k", "10k"]


def plain(hands=None, teyaku=None, piles=EXAMPLE_PILES, field=BONUS_FIELD):
    extra = {"teyaku": teyaku} if teyaku else {}
    return fw(played_out(piles, field=field, hands=hands, **extra))


def test_tobikomi_a_dealt_three_whose_fourth_card_is_in_the_pile():
    # Chie's pile holds 5*; her hand's three of 菖蒲 is 立三本
    result = plain(hands={"Chie": "5trk 1h 3h 8t 9t"})
    assert result.players["Chie"].bonuses == ("飛び込み",)
    assert reasons(result, "Chie") == [
        ("Aki", "Chie", 30, "立三本"), ("Ben", "Chie", 30, "立三本"), ("Aki", "Chie", 10, "飛び込み"), ("Ben", "Chie", 10, "飛び込み"),
    ]


def test_tobikomi_is_not_earned_when_the_pile_lacks_that_months_four():
    result = plain(hands={"Chie": "1hrk 3h 4t 8t 9t"})  # Chie holds no 松
    assert result.players["Chie"].bonuses == ()


def test_tobikomi_is_not_earned_when_the_pile_holds_two_of_that_month():
    result = plain(hands={"Chie": "8tkk 1h 3h 4t 9t"})  # Chie's pile holds 8h 8k, Ben's 8t 8k
    assert result.players["Chie"].teyaku == "三本" and result.players["Chie"].bonuses == ()


def test_tobikomi_pays_once_however_many_threes_are_completed():
    result = plain(hands={"Chie": "5trk 12kkk 1h"})  # 5* and 12* both in Chie's pile
    assert result.players["Chie"].teyaku == "二立三本"
    assert [p.reason for p in result.payments].count("飛び込み") == 2  # once from each opponent
    assert result.players["Chie"].bonuses == ("飛び込み",)


def test_tobikomi_needs_a_three_with_no_four():
    # 四三: 12* and 5trk; both months complete in Chie's pile, but the hand has a four
    result = plain(hands={"Chie": "12* 5trk"})
    assert result.players["Chie"].teyaku == "四三" and result.players["Chie"].bonuses == ()


def test_tobikomi_not_for_teshi_or_ichinishi():
    assert plain(hands={"Chie": "12* 1h 3h 8t"}).players["Chie"].bonuses == ()  # 手四
    assert plain(hands={"Chie": "12* 5tr 1h"}).players["Chie"].bonuses == ()  # 一二四


def test_tobikomi_declared_only_by_name_earns_none():
    result = plain(teyaku={"Chie": "立三本"})
    assert result.players["Chie"].bonuses == ()
    assert not any(p.reason == "飛び込み" for p in result.payments)


def test_tobikomi_with_hand_and_declared_name_is_earned():
    result = plain(hands={"Chie": "5trk 1h 3h 8t 9t"}, teyaku={"Chie": "立三本"})
    assert result.players["Chie"].bonuses == ("飛び込み",)


def test_bonus_is_multiplied_by_the_field():
    result = plain(hands={"Chie": "5trk 1h 3h 8t 9t"}, field=["11h", "2k", "4r", "6k", "10t", "9k"])
    assert [p.mon for p in result.payments if p.reason == "飛び込み"] == [40, 40]


def test_nukeyaku_a_group_b_teyaku_and_89_points():
    result = plain(teyaku={"Aki": "十一"}, piles=AKI_89)
    assert result.players["Aki"].bonuses == ("抜け役",)
    assert [(p.payer, p.mon) for p in result.payments if p.reason == "抜け役"] == [("Ben", 10), ("Chie", 10)]


def test_nukeyaku_not_at_88_points():
    result = plain(teyaku={"Aki": "十一"}, piles=AKI_88)
    assert result.players["Aki"].bonuses == ()


def test_nukeyaku_not_for_pikaichi():
    result = plain(teyaku={"Aki": "光一"}, piles=AKI_89)
    assert result.players["Aki"].bonuses == ()


@pytest.mark.parametrize("name", ["空素", "十一", "短一", "赤"])
def test_nukeyaku_for_every_group_b_teyaku_but_pikaichi(name):
    assert plain(teyaku={"Aki": name}, piles=AKI_89).players["Aki"].bonuses == ("抜け役",)


def test_nukeyaku_not_for_a_group_a_teyaku_alone():
    assert plain(teyaku={"Aki": "三本"}, piles=AKI_89).players["Aki"].bonuses == ()


def test_nukeyaku_needs_only_the_name():
    by_name = plain(teyaku={"Aki": "十一"}, piles=AKI_89)
    by_hand = plain(hands={"Aki": TOICHI}, piles=AKI_89, field=["2k", "4r", "6k", "10t", "9k", "12k"])
    assert by_name.players["Aki"].bonuses == by_hand.players["Aki"].bonuses == ("抜け役",)


def test_bonuses_are_paid_in_dekiyaku_rounds_too_after_everything_else():
    data = ended({"Aki": AKATAN + " 4*"}, "Aki", hands={"Aki": "4trk 5t 6t 8t 9t"}, field=["2k", "5r", "6k", "10t", "9k", "10k"])
    result = fw(data)
    assert result.players["Aki"].bonuses == ("飛び込み",)
    assert [p.reason for p in result.payments] == ["立三本", "立三本", "赤短", "赤短", "飛び込み", "飛び込み"]


def test_nukeyaku_in_a_dekiyaku_round():
    # Aki ends with 四光 and 赤短 on a pile of 102 points, with a declared 十一
    result = fw(ended({"Aki": "1* 2rk 3* 8hk 12hk"}, "Aki", teyaku={"Aki": "十一"}))
    assert result.players["Aki"].card_points == 102
    assert result.players["Aki"].bonuses == ("抜け役",)
    assert mon(result)["Aki"] == 2 * (30 + 100 + 70 + 10)


def test_no_bonuses_under_sdin():
    data = played_out(EXAMPLE_PILES, field=BONUS_FIELD, hands={"Chie": "5trk 1h 3h 8t 9t"})
    assert score_dict(data).players["Chie"].bonuses == ()


# --- §9: the round's winner and the next 親 -----------------------------------------------------


def test_plain_round_winner_is_the_highest_card_points_not_the_highest_result():
    # Ben's 四三 makes his result the highest, but Aki's 96 card points win
    result = plain(hands={"Ben": "11* 12kkk"}, field=["2k", "4r", "6k", "10t", "9k", "10k"])
    assert mon(result)["Ben"] > mon(result)["Aki"]
    assert result.winner == "Aki" and result.next_dealer == "Aki"


@pytest.mark.parametrize("dealer,winner", [("Aki", "Aki"), ("Ben", "Ben"), ("Chie", "Aki")])
def test_plain_round_a_tie_goes_to_the_earliest_in_turn_order_from_the_dealer(dealer, winner):
    # Aki 93, Ben 93, Chie 78
    assert fw(played_out(TIE_PILES, dealer=dealer)).winner == winner


def test_tokushuyaku_winner_is_its_holder():
    assert fw(played_out(NIHACHI_SUJIROKU, dealer="Chie")).winner == "Aki"


def test_the_winner_deals_the_next_round():
    for data in (played_out(TWO_HOLDERS, sage=["Ben", "Aki"]), ended({"Chie": AKATAN}, "Chie")):
        result = fw(data)
        assert result.next_dealer == result.winner
        assert result.to_json()["winner"] == result.winner


# --- §10 switches that are engine behaviour ---------------------------------------------------

#: seven 短冊 other than 柳に短冊 (no 赤短: 3r missing; no 青短: 10r missing)
SEVEN = "1rk 2rk 4rk 5rk 6rk 7rk 9rk"


def test_nanatan_off_by_default_is_flat_10_kan_with_the_willow_ribbon_too():
    result = fw(ended({"Aki": SEVEN + " 11rk"}, "Aki"))
    assert mon(result)["Aki"] == 2 * 100


def test_nanatan_plus_counts_the_willow_ribbon_beyond_seven():
    plus = F._replace(nanatan_plus=True)
    assert mon(fw(ended({"Aki": SEVEN}, "Aki"), rules=plus))["Aki"] == 2 * 100
    assert mon(fw(ended({"Aki": SEVEN + " 11rk"}, "Aki"), rules=plus))["Aki"] == 2 * 110


def test_nanatan_plus_still_needs_seven_other_than_the_willow_ribbon():
    six = "1rk 2rk 4rk 5rk 6rk 7rk 11rk"
    with pytest.raises(RoundError):
        fw(ended({"Aki": six}, "Aki"), rules=F._replace(nanatan_plus=True))


def test_nanatan_plus_one_per_ribbon_beyond_seven():
    eight_and_willow = SEVEN + " 3rk 11rk"  # 8 + 柳に短冊 = 9 短冊: 七短 12, and 赤短 7
    result = fw(ended({"Aki": eight_and_willow}, "Aki"), rules=F._replace(nanatan_plus=True))
    assert sorted((p.reason, p.mon) for p in result.payments if p.payer == "Ben") == [("七短", 120), ("赤短", 70)]


def test_inoshikacho_is_off_under_fudawiki():
    with pytest.raises(RoundError) as e:
        fw(ended({"Aki": INOSHIKACHO}, "Aki"))
    assert e.value.where == "ended_by"
    assert fw(ended({"Aki": AKATAN, "Ben": INOSHIKACHO}, "Aki")).players["Ben"].dekiyaku == ()


def test_inoshikacho_switched_on_is_7_kan():
    on = F._replace(dekiyaku={**F.dekiyaku, "猪鹿蝶": 7})
    assert on.inoshikacho
    assert mon(fw(ended({"Aki": INOSHIKACHO}, "Aki"), rules=on))["Aki"] == 2 * 70


def test_values_a_teyakus_value_changes():
    table = tuple(row._replace(kan=3) if row.name == "三本" else row for row in F.teyaku_table)
    rules = F._replace(teyaku_table=table)
    result = fw(played_out(EXAMPLE_PILES, teyaku={"Chie": "三本"}), rules=rules)
    assert result.players["Chie"].mon == 2 * 30


def test_values_for_nihachi_is_the_base_the_step_stays_1_kan():
    rules = F._replace(special={**F.special, "二八": 15})
    assert mon(fw(played_out(NIHACHI_AND_SUJIROKU_ONE_PLAYER), rules=rules))["Aki"] == 2 * 160


def test_values_for_nanatan_is_the_base_the_step_stays_1_kan():
    rules = F._replace(dekiyaku={**F.dekiyaku, "七短": 12}, nanatan_plus=True)
    assert mon(fw(ended({"Aki": SEVEN + " 11rk"}, "Aki"), rules=rules))["Aki"] == 2 * 130


def test_values_a_bonus_value_changes():
    rules = F._replace(bonuses={**F.bonuses, "抜け役": 2})
    result = fw(played_out(AKI_89, teyaku={"Aki": "十一"}), rules=rules)
    assert [p.mon for p in result.payments if p.reason == "抜け役"] == [20, 20]
