"""TRADITIONAL §7 (nights of 4 to 6: dropping out, fees, 追い込み, the pot) and §9 (the winner and
the next 親), one test per sentence at its boundary, both sides; and CONTRACT §7's "also bad" lines
for the keys ``dropped`` and ``pot``.

Amounts at kan 10: v kan is 10 v 文 before the multiplier; the n-th fee is 10 × (n + 1) / 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import BIG_FIELD, EXAMPLE_PILES, SMALL_FIELD, TIE_PILES, codes, ledger, mon

from scorekeeper import night
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import POT, NightState, RoundError, score_dict
from scorekeeper.store import Book, SessionError
from helpers import add_round

F = FUDAWIKI
P4 = ["Aki", "Ben", "Chie", "Dan"]
P5 = P4 + ["Eri"]
P6 = P5 + ["Fumi"]
EX = {k: codes(v) for k, v in EXAMPLE_PILES.items()}  # Aki 96, Ben 80, Chie 88
TIE = {k: codes(v) for k, v in TIE_PILES.items()}  # Aki 93, Ben 93, Chie 78
#: all three piles at 88 (総八)
SOHACHI = json.loads((Path(__file__).parent / "golden/fudawiki/special-sohachi-over-sujiroku.round.json").read_text(
    encoding="utf-8"))["captured"]


def rf(players, dealer, piles=None, *, field=SMALL_FIELD, **extra):
    """A round file: ``piles`` maps the players who play to EX/TIE-style card lists."""
    data = {"players": list(players), "dealer": dealer, "field": list(field), "captured": dict(piles or {})}
    data.update(extra)
    return data


def fw(data, rules=F, state=None):
    return score_dict(data, rules=rules, state=state)


def roles(result):
    return {p: r.role for p, r in result.players.items()}


def three(a, b, c, piles=EX):
    """Map the example piles (Aki 96, Ben 80, Chie 88) onto the three who play."""
    return {a: piles["Aki"], b: piles["Ben"], c: piles["Chie"]}


def bad(data, rules=F, state=None) -> RoundError:
    with pytest.raises(RoundError) as e:
        fw(data, rules, state)
    return e.value


def zero_sum_with_pot(result, before=0):
    """The players' mon plus what the round put into the pot is zero; received − paid = mon."""
    net = {p: 0 for p in [*result.players, POT]}
    for x in result.payments:
        net[x.payer] -= x.mon
        net[x.payee] += x.mon
    assert net == {p: r.mon for p, r in result.players.items()} | {POT: result.state.pot - before}
    assert sum(mon(result).values()) + result.state.pot - before == 0


# ---------------------------------------------------------------------------------------------
# "A night may seat 3 to 6 players … With three seated there is no dropout phase"


@pytest.mark.parametrize("players", [P4, P5, P6])
def test_a_night_may_seat_four_to_six(players):
    result = fw(rf(players, "Aki", three("Aki", "Ben", "Chie")))
    assert set(result.players) == set(players)
    assert [p for p, r in roles(result).items() if r == "played"] == ["Aki", "Ben", "Chie"]


def test_seven_seated_need_the_blank_card_and_eight_are_refused():
    """TRADITIONAL §11.5: seven seat the 白札's holder (``blank``, required); eight never sit."""
    e = bad(rf(P6 + ["Gen"], "Aki", three("Aki", "Ben", "Chie")))
    assert e.where == "blank" and "白札" in e.problem
    assert fw(rf(P6 + ["Gen"], "Aki", three("Aki", "Ben", "Chie"), blank="Gen")).players["Gen"].role == "blank"
    e = bad(rf(P6 + ["Gen", "Hana"], "Aki", three("Aki", "Ben", "Chie")))
    assert e.where == "players" and "3 to 7" in e.problem


def test_with_three_seated_all_three_play():
    result = fw(rf(["Aki", "Ben", "Chie"], "Aki", EX))
    assert set(roles(result).values()) == {"played"}


def test_with_three_seated_dropped_must_be_empty():
    e = bad(rf(["Aki", "Ben", "Chie"], "Aki", EX, dropped=["Ben"]))
    assert e.where == "dropped"
    assert fw(rf(["Aki", "Ben", "Chie"], "Aki", EX, dropped=[])).winner == "Aki"


def test_with_three_seated_a_pot_is_refused():
    assert bad(rf(["Aki", "Ben", "Chie"], "Aki", EX, pot=10)).where == "pot"


# "Starting with that 親 and going round the seats, each says play or drop, until three play or
# everyone has spoken." / "Players who had not spoken when the third said play are forced out."


def test_the_seats_are_gone_round_from_the_nights_oya():
    result = fw(rf(P5, "Dan", three("Dan", "Eri", "Aki")))
    assert roles(result) == {"Aki": "played", "Ben": "forced_out", "Chie": "forced_out", "Dan": "played", "Eri": "played"}


def test_the_speaking_stops_when_three_play_the_rest_are_forced_out():
    result = fw(rf(P6, "Aki", three("Aki", "Chie", "Dan"), dropped=["Ben"]))
    assert roles(result) == {"Aki": "played", "Ben": "dropped", "Chie": "played", "Dan": "played",
                             "Eri": "forced_out", "Fumi": "forced_out"}


def test_when_fewer_than_three_play_everyone_has_spoken_and_nobody_is_forced_out():
    result = fw(rf(P5, "Aki", dropped=["Ben", "Chie", "Dan", "Eri"]))
    assert roles(result) == {"Aki": "played", "Ben": "dropped", "Chie": "dropped", "Dan": "dropped", "Eri": "dropped"}


def test_a_name_in_dropped_who_never_spoke_is_bad():
    e = bad(rf(P5, "Aki", three("Aki", "Ben", "Chie"), dropped=["Eri"]))
    assert e.where == "dropped" and "'Eri'" in e.problem and "never spoke" in e.problem


def test_the_last_to_speak_before_the_third_volunteer_may_drop():
    result = fw(rf(P5, "Aki", three("Aki", "Ben", "Eri"), dropped=["Chie", "Dan"]))
    assert roles(result)["Dan"] == "dropped"


@pytest.mark.parametrize("value, word", [(["Ben", "Ben"], "twice"), (["Zed"], "not one of"), ("Ben", "list"), ([3], "list")])
def test_dropped_repeated_unknown_or_not_a_list_is_bad(value, word):
    e = bad(rf(P5, "Aki", three("Aki", "Chie", "Dan"), dropped=value))
    assert e.where == "dropped" and word in e.problem


def test_dropped_is_read_in_any_order():
    a = fw(rf(P5, "Aki", three("Ben", "Dan", "Eri"), dropped=["Chie", "Aki"]))
    b = fw(rf(P5, "Aki", three("Ben", "Dan", "Eri"), dropped=["Aki", "Chie"]))
    assert a.to_json() == b.to_json()


# forced_three: "nobody may drop once only three could still play"


def test_forced_three_refuses_a_drop_that_leaves_fewer_than_three():
    rules = F._replace(forced_three=True)
    e = bad(rf(P4, "Aki", three("Ben", "Chie", "Dan"), dropped=["Aki", "Ben"]), rules)
    assert e.where == "dropped" and "'Ben'" in e.problem and "forced_three" in e.problem


def test_forced_three_allows_a_drop_while_four_could_still_play():
    rules = F._replace(forced_three=True)
    assert roles(fw(rf(P4, "Aki", three("Ben", "Chie", "Dan"), dropped=["Aki"]), rules))["Aki"] == "dropped"
    # without the switch the second drop is allowed: a two-player round
    assert fw(rf(P4, "Aki", {"Chie": EX["Aki"][:4], "Dan": []}, dropped=["Aki", "Ben"])).winner == "Chie"


# "The n-th player to drop pays 逃げ料 of 1 + (n − 1)/2 kan × multiplier into a pot."


def test_fees_rise_by_half_a_kan_with_each_drop():
    result = fw(rf(P6, "Aki", dropped=P6))  # everyone drops: 1, 1.5, 2, 2.5, 3, 3.5 kan
    assert ledger(result) == [(p, POT, fee, "逃げ料") for p, fee in zip(P6, (10, 15, 20, 25, 30, 35))]
    assert result.state.pot == 135


def test_fees_times_the_multiplier():
    result = fw(rf(P5, "Aki", dropped=P5, field=BIG_FIELD))
    assert [x.mon for x in result.payments] == [20, 30, 40, 50, 60]


def test_fees_at_kan_12_are_whole():
    result = fw(rf(P4, "Aki", dropped=P4), F._replace(kan=12))
    assert [x.mon for x in result.payments] == [12, 18, 24, 30]


def test_a_house_fee_value_scales_every_fee():
    result = fw(rf(P4, "Aki", dropped=P4), F._replace(fee=2))
    assert [x.mon for x in result.payments] == [20, 30, 40, 50]


def test_the_order_of_drops_is_the_seats_from_the_oya():
    result = fw(rf(P4, "Chie", dropped=["Aki", "Ben", "Chie", "Dan"]))
    assert [(x.payer, x.mon) for x in result.payments] == [("Chie", 10), ("Dan", 15), ("Aki", 20), ("Ben", 25)]


def test_fees_take_the_carried_multiplier():
    result = fw(rf(P4, "Aki", dropped=P4, carry=[4]))
    assert result.multiplier == 4 and [x.mon for x in result.payments] == [40, 60, 80, 100]


# "The first player who chose to play is the round's 親: they play first, and 総八 is theirs."


def test_sohachi_goes_to_the_first_volunteer_not_the_nights_oya():
    piles = {"Ben": SOHACHI["Aki"], "Chie": SOHACHI["Ben"], "Dan": SOHACHI["Chie"]}
    result = fw(rf(P4, "Aki", piles, dropped=["Aki"]))
    assert result.players["Ben"].special == ("総八",) and result.winner == "Ben"
    result = fw(rf(P4, "Ben", piles))  # Aki forced out, Ben the night's and the round's 親
    assert result.players["Ben"].special == ("総八",)


def test_a_tie_of_card_points_goes_to_the_earliest_from_the_rounds_oya():
    # 親 Chie drops; Dan, Aki, Ben play in that order: Dan and Aki tie at 93, Dan is earlier
    piles = {"Dan": TIE["Aki"], "Aki": TIE["Ben"], "Ben": TIE["Chie"]}
    result = fw(rf(P4, "Chie", piles, dropped=["Chie"]))
    assert result.winner == "Dan" and result.next_dealer == "Dan"
    # the other side: Aki and Ben tie; Aki comes before Ben after Dan
    piles = {"Dan": TIE["Chie"], "Aki": TIE["Aki"], "Ben": TIE["Ben"]}
    assert fw(rf(P4, "Chie", piles, dropped=["Chie"])).winner == "Aki"


# "Forced out (追い込み). Each is paid, by each of the two active players other than the round's 親 …"


#: a field clear of the cards the hands below hold
FORCED_FIELD = ["6k", "10k", "11t", "12k", "7r", "5r"]


def forced(hand, rules=F, field=FORCED_FIELD, **extra):
    """Dan forced out with ``hand`` (Aki, Ben, Chie play from the 親 Aki): what Ben and Chie pay him."""
    data = rf(P4, "Aki", three("Aki", "Ben", "Chie"), field=field, **extra)
    if hand is not None:
        data["hands"] = {"Dan": codes(hand)}
    result = fw(data, rules)
    paid = [(x.payer, x.mon) for x in result.payments if x.reason == "追い込み"]
    assert all(x.payee == "Dan" for x in result.payments if x.reason == "追い込み")
    assert result.players["Dan"].role == "forced_out"
    return paid


def owed(hand, **kw):
    paid = forced(hand, **kw)
    assert [p for p, _ in paid] in ([], ["Ben", "Chie"])  # never the round's 親 Aki
    assert len({m for _, m in paid}) <= 1
    return paid[0][1] if paid else 0


def test_forced_out_is_paid_by_the_two_other_than_the_rounds_oya():
    assert forced("2t 2r 2k 3h 6r 9r 11k") == [("Ben", 19), ("Chie", 19)]


def test_forced_out_payers_follow_the_rounds_oya_when_the_nights_oya_drops():
    data = rf(P5, "Aki", three("Ben", "Chie", "Dan"), dropped=["Aki"], hands={"Eri": codes("2t 2r 2k 4k 5k 7k 8k")})
    result = fw(data)
    assert [(x.payer, x.payee, x.mon) for x in result.payments if x.reason == "追い込み"] == [("Chie", "Eri", 10), ("Dan", "Eri", 10)]


def test_half_the_teyaku_total_of_both_groups():
    # 三本 (梅) and no 3-文 card: 2 kan / 2 = 10
    assert owed("2t 2r 2k 4k 5k 7k 8k") == 10
    # 四三 20 kan → 100, no 3-文 card outside (1h, 1r inside the four)
    assert owed("1h 1r 1k 1k 4k 4k 4t") == 100
    # Group A 三本 + Group B 赤 (three 短冊, four kasu) + the 赤短 inside: (2 + 2 + 7) / 2 kan = 55;
    # a Group B hand: no 3-文 card
    assert owed("1r 1k 1k 2r 3r 5k 8k") == 55
    # 三本 + 赤 without a 出来役: (2 + 2) / 2 = 20
    assert owed("1r 1k 1k 2r 6r 5k 8k") == 20


def test_the_dekiyaku_inside_the_hand_is_added_and_its_cards_are_not_counted():
    # 赤短 7 kan in the hand (1r 2r 3r inside it), no 手役 (4t is not a kasu, no three): 35
    assert owed("1r 2r 3r 4t 5k 7k 8t") == 35
    # 青短 7 kan: 35; 1h outside it, and outside the 三本 of 菊? no three here: + 3
    assert owed("6r 9r 10r 1h 4t 5t 8t") == 38


def test_five_brights_in_the_hand_are_goko_all_five_inside():
    # 五光 12 kan (四光 inside it is not paid): 60, every 光 inside; no 手役 (4k 5k: not six kasu)
    assert owed("1h 3h 8h 11h 12h 4k 5k") == 60


def test_four_brights_without_the_willow_leave_no_card_outside():
    assert owed("1h 3h 8h 12h 4k 5k 7k") == 50


def test_the_willow_bright_outside_a_dekiyaku_counts():
    # 1h 3h 8h 11h: no 四光 (it needs 桐), so each 光 is a 3-文 card: 12
    assert owed("1h 3h 8h 11h 4k 5k 7k") == 12


@pytest.mark.parametrize("card, counted", [("11h", True), ("1h", True), ("1r", True), ("6r", True), ("10r", True),
                                           ("11r", False), ("4r", False), ("5t", False), ("6t", False)])
def test_three_mon_for_each_bright_akatan_and_aotan_card_outside(card, counted):
    hand = f"8k 8k 9t 9k 9k 2t {card}"  # 三本 (菊, plain), a pair of 芒; two 種: no Group B
    assert owed(hand) == 10 + (3 if counted else 0)


def test_the_willow_bright_with_six_kasu_is_karasu_and_so_part_of_it():
    # Group B counts every 柳 card as kasu: 11h and six kasu is 空素 (4 kan → 20), no 3-文 card
    assert owed("11h 2k 4k 5k 7k 8k 9k") == 20
    # and with a 種 beside the 三本 it makes 十一 (3 kan): 三本 + 十一 = 5 kan → 25, no card
    assert owed("8k 8k 9t 9k 9k 12k 11h") == 25


def test_the_inoshikacho_cards_count_only_when_that_dekiyaku_is_on():
    hand = "8k 8k 9t 9k 9k 2t 7t"
    assert owed(hand) == 10
    assert owed(hand, rules=F._replace(dekiyaku={**F.dekiyaku, "猪鹿蝶": 7})) == 13


def test_the_card_part_of_the_three_is_not_counted():
    assert owed("1h 1r 1k 4k 5k 7k 9t") == 10  # 1h, 1r are of the three of 松
    assert owed("1h 1r 2k 2k 2t 4k 9t") == 10 + 6  # the three is 梅: 1h and 1r are outside it


def test_yonsan_the_four_and_the_three():
    assert owed("1h 1r 1k 1k 3h 3r 3k") == 100


def test_teshi_only_the_four():
    # 手四 (松) 6 kan → 30; 3h and 2r outside: + 6 (4k a kasu)
    assert owed("1h 1r 1k 1k 3h 2r 4k") == 36


def test_ichinishi_all_seven():
    # four 松, a pair of 桜 (3h 3r), and 4k: 8 kan → 40, no card outside
    assert owed("1h 1r 1k 1k 3h 3r 4k") == 40


def test_hanekken_all_seven():
    # three 松, pair 桜 (3h 3r), pair 菖蒲 (5t 5k): 7 kan → 35
    assert owed("1h 1r 1k 3h 3r 5t 5k") == 35


def test_kuttsuki_the_six():
    # pairs 松 (1h 1r), 梅 (2r 2k), 4 (4k 4k); 3h single outside: 4 kan → 20, + 3
    assert owed("1h 1r 2r 2k 4k 4k 3h") == 23


def test_two_threes_their_six():
    # threes 松 and 桜 (both plain): 二三本 6 kan → 30; 6r the seventh: + 3
    assert owed("1h 1r 1k 3h 3r 3k 6r") == 33


def test_a_group_b_hand_is_all_part_of_it():
    # 光一: 11h? no, 柳 is kasu in Group B: 1h with six kasu — 4 kan → 20, the 光 not counted
    assert owed("1h 2k 4k 5k 7k 9k 12k") == 20


def test_the_compensation_is_times_the_multiplier():
    assert owed("2t 2r 2k 3h 6r 9r 11k", field=BIG_FIELD) == 38


def test_a_hand_with_nothing_is_paid_nothing():
    assert forced("2t 4t 5k 7k 9t 10t 12k") == []


def test_without_the_hand_a_declared_teyaku_is_paid_half_and_nothing_for_cards():
    assert forced(None, teyaku={"Dan": "三本"}) == [("Ben", 10), ("Chie", 10)]
    assert forced(None, teyaku={"Dan": ["三本", "赤"]}) == [("Ben", 20), ("Chie", 20)]


def test_with_neither_hand_nor_declaration_nothing_is_paid():
    assert forced(None) == []


def test_a_declared_teyaku_with_the_hand_must_agree():
    e = bad(rf(P4, "Aki", three("Aki", "Ben", "Chie"), hands={"Dan": codes("2t 2r 2k 4k 5k 7k 8k")}, teyaku={"Dan": "四三"}))
    assert e.where == "teyaku.Dan"


# "Two volunteers: they play a two-player round for the pot (switch split …)"


def two(piles, dropped=("Aki", "Ben"), rules=F, **extra):
    return fw(rf(P4, "Aki", piles, dropped=list(dropped), **extra), rules)


def test_two_volunteers_play_for_the_pot():
    result = two({"Chie": codes("2* 4rk"), "Dan": codes("5rk 6tk 9rk")})
    assert result.players["Chie"].role == result.players["Dan"].role == "played"
    assert result.winner == "Chie" and result.state.pot == 0


def test_two_player_the_loser_pays_the_difference_of_card_points_times_the_multiplier():
    result = two({"Chie": codes("2* 4rk"), "Dan": codes("5* 9tk")}, field=BIG_FIELD)  # Chie 23, Dan 17 + 11 = 28
    assert ("Chie", "Dan", (28 - 23) * 2, "札") in ledger(result) and result.winner == "Dan"


def test_two_player_a_tie_goes_to_the_rounds_oya_and_nobody_pays():
    result = two({"Chie": codes("2* 4rk"), "Dan": codes("5rk 6tk 9rk")})
    assert [x for x in result.payments if x.reason == "札"] == [] and result.winner == "Chie"


def test_two_player_shoubu_the_one_opponent_pays_no_doubling():
    # Dan called 下げ; Chie ends with 赤短: Dan pays once, 70
    piles = {"Chie": codes("1rk 2rk 3rk"), "Dan": codes("6rk 9rk 10rk")}
    result = two(piles, sage=["Dan", "Chie"], ended_by="Chie")
    assert [(x.payer, x.payee, x.mon, x.reason) for x in result.payments if x.reason == "赤短"] == [("Dan", "Chie", 70, "赤短")]


def test_two_player_cancel_half():
    piles = {"Chie": codes("1rk 2rk 3rk"), "Dan": codes("4kk")}
    result = two(piles, sage=["Chie"], ended_by="Chie", ended_how="cancel")
    assert ("Dan", "Chie", 35, "赤短") in ledger(result)


def test_two_player_played_out_with_dekiyaku_each_holder_half_from_the_opponent():
    piles = {"Chie": codes("1rk 2rk 3rk"), "Dan": codes("6rk 9rk 10rk")}
    result = two(piles, sage=["Dan", "Chie"])
    assert ("Dan", "Chie", 35, "赤短") in ledger(result) and ("Chie", "Dan", 35, "青短") in ledger(result)
    assert result.winner == "Dan"


def test_two_player_teyaku_from_the_one_opponent():
    result = two({"Chie": codes("2* 4rk"), "Dan": codes("5rk 6tk 9rk")}, teyaku={"Chie": "三本", "Dan": "赤"})
    assert ("Dan", "Chie", 20, "三本") in ledger(result) and ("Chie", "Dan", 20, "赤") in ledger(result)


def test_two_player_no_tokushuyaku_and_no_bonus():
    # Chie's 18 kasu would be 素十六; Dan's 十一 with 106 points would be 抜け役: neither is judged
    chie = codes("1kk 2kk 3kk 4kk 5kk 6kk 7kk 8kk 9kk")  # 18
    dan = codes("1hr 9tr 10tr 11ht 12hk")  # 25 + 15 + 15 + 30 + 21 = 106
    result = two({"Chie": chie, "Dan": dan}, teyaku={"Dan": "十一"})
    assert result.kind == "札" and result.players["Chie"].special == () and result.players["Dan"].bonuses == ()
    assert ledger(result)[2:4] == [("Chie", "Dan", 30, "十一"), ("Chie", "Dan", 106 - 18, "札")]


def test_two_player_piles_need_not_hold_all_48_but_three_players_do():
    assert two({"Chie": codes("2kk"), "Dan": []}).winner == "Chie"
    e = bad(rf(P4, "Aki", {"Ben": codes("2kk"), "Chie": [], "Dan": []}, dropped=["Aki"]))
    assert e.where == "captured" and "48" in e.problem


def test_split_shares_the_pot_the_odd_mon_to_the_first_volunteer():
    rules = F._replace(two_volunteers="split")
    result = fw(rf(P4, "Aki", dropped=["Aki", "Ben"], pot=16), rules)
    assert ledger(result)[2:] == [(POT, "Chie", 21, "pot"), (POT, "Dan", 20, "pot")]
    assert result.winner is None and result.next_dealer == "Aki" and result.state.pot == 0
    assert mon(result) == {"Aki": -10, "Ben": -15, "Chie": 21, "Dan": 20}
    zero_sum_with_pot(result, before=16)


def test_split_an_even_pot_halves():
    rules = F._replace(two_volunteers="split")
    result = fw(rf(P4, "Aki", dropped=["Aki", "Ben"], pot=15), rules)
    assert [x.mon for x in result.payments if x.payer == POT] == [20, 20]


def test_split_nothing_is_played_a_pile_is_bad():
    rules = F._replace(two_volunteers="split")
    e = bad(rf(P4, "Aki", {"Chie": codes("2kk")}, dropped=["Aki", "Ben"]), rules)
    assert e.where == "captured.Chie" and "split" in e.problem


def test_split_uses_up_the_multiplier():
    rules = F._replace(two_volunteers="split")
    result = fw(rf(P4, "Aki", dropped=["Aki", "Ben"], carry=[4, 2]), rules)
    assert result.multiplier == 4 and result.state.carry == (2,)


# "One volunteer takes the pot and wins; nothing is played."


def test_one_volunteer_takes_the_pot_and_wins():
    result = fw(rf(P4, "Aki", dropped=["Aki", "Ben", "Chie"], pot=7))
    assert result.winner == result.next_dealer == "Dan"
    assert ledger(result)[-1] == (POT, "Dan", 7 + 45, "pot") and result.state.pot == 0
    zero_sum_with_pot(result, before=7)


def test_one_volunteer_nothing_is_played():
    e = bad(rf(P4, "Aki", {"Dan": codes("2kk")}, dropped=["Aki", "Ben", "Chie"]))
    assert e.where == "captured.Dan" and "one volunteer" in e.problem
    e = bad(rf(P4, "Aki", dropped=["Aki", "Ben", "Chie"], ended_by="Dan"))
    assert e.where == "ended_by"


def test_one_volunteer_uses_up_the_multiplier():
    result = fw(rf(P4, "Aki", dropped=["Aki", "Ben", "Chie"], field=["1h", "8h", "2k", "4r", "6k", "7t"]))
    assert result.multiplier == 2 and result.state.carry == (2,)


# "Nobody plays: a misdeal. The fees stay in the pot …; the same 親 deals again."


def test_nobody_plays_is_a_misdeal_the_fees_stay_the_same_oya_deals():
    result = fw(rf(P4, "Ben", dropped=P4, pot=5))
    assert result.kind == "流れ" and result.winner is None and result.next_dealer == "Ben"
    assert result.state.pot == 5 + 70
    zero_sum_with_pot(result, before=5)


def test_a_misdeal_uses_up_the_multiplier():
    result = fw(rf(P4, "Ben", dropped=P4, carry=[4]))
    assert result.multiplier == 4 and result.state.carry == ()


def test_a_bashi_uses_nothing_and_keeps_the_pot():
    bashi = ["9t", "9r", "9k", "9k", "2k", "4r"]
    result = fw(rf(P4, "Ben", dropped=P4, field=bashi, pot=30, carry=[4]))
    assert result.redeal and result.state == NightState((4,), 30) and result.winner is None


# "The winner of a round takes the whole pot." / "Fees and compensation are paid before play"


def test_the_winner_takes_the_whole_pot_with_this_rounds_fees():
    result = fw(rf(P5, "Aki", three("Ben", "Dan", "Eri"), dropped=["Chie", "Aki"], pot=100))
    assert ledger(result)[-1] == (POT, "Ben", 125, "pot") and result.state.pot == 0
    zero_sum_with_pot(result, before=100)


def test_an_empty_pot_pays_nothing():
    result = fw(rf(P4, "Aki", three("Aki", "Ben", "Chie")))
    assert all(POT not in (x.payer, x.payee) for x in result.payments)


def test_fees_and_compensation_stand_in_a_tokushuyaku_round():
    piles = {"Ben": SOHACHI["Aki"], "Chie": SOHACHI["Ben"], "Dan": SOHACHI["Chie"]}
    data = rf(P5, "Aki", piles, dropped=["Aki"], teyaku={"Eri": "手四", "Ben": "三本"})
    result = fw(data)
    assert result.kind == "特殊役"
    assert ("Aki", POT, 10, "逃げ料") in ledger(result)
    assert ("Chie", "Eri", 30, "追い込み") in ledger(result) and ("Dan", "Eri", 30, "追い込み") in ledger(result)
    assert not any(x.reason == "三本" for x in result.payments)  # the players' 手役 are void


# "The hands of players who dropped or were forced out go back under the stock …"


def test_a_dropped_players_hand_is_checked_against_the_field_and_the_other_hands():
    e = bad(rf(P4, "Aki", three("Ben", "Chie", "Dan"), dropped=["Aki"],
               hands={"Aki": codes("1h 1r 1k 1k 3h 3r 3k"), "Ben": codes("1h 2k 4k 5k 7k 9k 12k")}))
    assert "1h" in str(e)
    e = bad(rf(P4, "Aki", three("Ben", "Chie", "Dan"), dropped=["Aki"], hands={"Aki": codes("2k 2k 4r 5k 7k 8k 12k")}))
    assert "2k" in str(e) and "field" in str(e)


def test_a_dropped_players_hand_earns_nothing():
    result = fw(rf(P4, "Aki", three("Ben", "Chie", "Dan"), dropped=["Aki"], hands={"Aki": codes("1h 1r 1k 1k 3h 3r 3k")}))
    assert result.players["Aki"].teyaku == "四三" and result.players["Aki"].mon == -10
    assert [x for x in result.payments if x.payee == "Aki"] == []


def test_the_hands_of_players_out_may_be_in_the_piles():
    # Dan's hand went under the stock: its 2t 2r are in Aki's or Ben's pile, and that is fine
    assert forced("2t 2r 2k 3h 6r 9r 11k") == [("Ben", 19), ("Chie", 19)]


@pytest.mark.parametrize("key, value", [("captured", {"Dan": ["2k", "2k"]}), ("sage", "Dan"), ("ended_by", "Dan")])
def test_a_player_who_did_not_play_can_hold_no_pile_sage_or_ended_by(key, value):
    data = rf(P4, "Aki", three("Aki", "Ben", "Chie"))
    if key == "captured":  # a pair moved from Chie's pile to Dan's
        value = {"Chie": codes("5* 8hk 11hr 12*"), "Dan": codes("9kk")}
    data[key] = {**data["captured"], **value} if key == "captured" else value
    e = bad(data)
    assert e.where.startswith(key) and "'Dan'" in e.problem and "did not play" in e.problem


def test_an_empty_pile_for_a_player_out_is_fine():
    data = rf(P4, "Aki", {**three("Aki", "Ben", "Chie"), "Dan": []})
    assert fw(data).players["Dan"].role == "forced_out"


# the pot key: "a round file given to a session with either key set otherwise is refused"


@pytest.mark.parametrize("value", [-1, 1.5, "10", True, [10]])
def test_pot_must_be_a_whole_number_of_mon(value):
    assert bad(rf(P4, "Aki", three("Aki", "Ben", "Chie"), pot=value)).where == "pot"


def test_a_pot_stated_otherwise_than_the_nights_is_refused():
    data = rf(P4, "Aki", three("Aki", "Ben", "Chie"), pot=10)
    e = bad(data, state=NightState((), 25))
    assert e.where == "pot" and "25" in e.problem
    assert fw(data, state=NightState((), 10)).state.pot == 0
    assert bad({**data, "pot": 0}, state=NightState((), 10)).where == "pot"
    assert fw({k: v for k, v in data.items() if k != "pot"}, state=NightState((), 10)).state.pot == 0


# the JSON (CONTRACT §7)


def test_the_json_has_roles_winner_pot_and_pot_payments():
    out = fw(rf(P5, "Aki", three("Ben", "Dan", "Eri"), dropped=["Chie", "Aki"])).to_json()
    assert {p: v["role"] for p, v in out["players"].items()} == {
        "Aki": "dropped", "Ben": "played", "Chie": "dropped", "Dan": "played", "Eri": "played"}
    assert out["winner"] == "Ben" and out["pot"] == 0 and out["next_dealer"] == "Ben"
    assert {"from": "Aki", "to": "pot", "mon": 10, "reason": "逃げ料"} in out["payments"]
    assert {"from": "pot", "to": "Ben", "mon": 25, "reason": "pot"} in out["payments"]


# ---------------------------------------------------------------------------------------------
# §9: the round's winner and the next 親, in nights of 4 to 6


def test_shoubu_the_ender_wins_and_takes_the_pot():
    piles = {"Ben": codes("1hrkk 2rk 3rk"), "Chie": [], "Dan": []}
    result = fw(rf(P4, "Aki", piles, dropped=["Aki"], ended_by="Ben"))
    assert result.winner == result.next_dealer == "Ben" and ledger(result)[-1] == (POT, "Ben", 10, "pot")


def test_played_out_with_dekiyaku_the_first_sage_caller_wins():
    from helpers import SAGE_AKA_AO
    piles = three("Ben", "Chie", "Dan", {k: codes(v) for k, v in SAGE_AKA_AO.items()})
    result = fw(rf(P4, "Aki", piles, dropped=["Aki"], sage="Ben"))
    assert result.winner == "Ben"


def test_a_misdeal_or_split_nobody_wins_the_oya_stays():
    assert fw(rf(P4, "Chie", dropped=P4)).next_dealer == "Chie"
    split = F._replace(two_volunteers="split")
    assert fw(rf(P4, "Chie", dropped=["Chie", "Dan"]), split).next_dealer == "Chie"


# ---------------------------------------------------------------------------------------------
# the night: replay carries the pot; summary, settlement


def session(rounds, players=P4, dealer="Ben", rules=F):
    return {"id": "s1", "name": "night", "players": players, "dealer": dealer, "profile": rules.to_dict(),
            "rounds": [{"round": r, "rules": rules.name} for r in rounds]}


MISDEAL = {"players": P4, "dealer": "Ben", "field": ["1h", "8h", "2k", "4r", "6k", "7t"], "dropped": P4}
AFTER = {"players": P4, "dealer": "Ben", "field": SMALL_FIELD, "captured": three("Ben", "Chie", "Dan")}


def test_a_misdeal_then_the_next_winner_takes_the_pot_over_a_night():
    results = night.replay(session([MISDEAL, AFTER]))
    assert results[0].state == NightState((2,), 140) and results[0].next_dealer == "Ben"
    assert results[1].multiplier == 2 and results[1].state == NightState((), 0)
    assert ledger(results[1])[-1] == (POT, "Ben", 140, "pot")
    assert night.totals(results, P4) == {"Aki": -50, "Ben": 136, "Chie": -46, "Dan": -40}
    data = night.summary_data(session([MISDEAL, AFTER]), results)
    assert data["pot"] == 0 and sum(data["totals"].values()) == 0
    assert len(data["settlement"]) <= 3


def test_while_the_pot_holds_anything_the_settlement_pays_it_back():
    s = session([MISDEAL])
    data = night.summary_data(s, night.replay(s))
    assert data["pot"] == 140
    assert data["totals"] == {"Aki": -50, "Ben": -20, "Chie": -30, "Dan": -40}  # as the ledger has them
    assert data["settlement"] == []  # each is paid back what they paid in


def test_the_pot_paid_back_only_since_it_was_last_emptied():
    won = {**AFTER, "dropped": ["Ben"], "captured": three("Chie", "Dan", "Aki")}  # Ben 10 in, Chie wins it
    s = session([won, {"players": P4, "dealer": "Chie", "field": SMALL_FIELD, "dropped": P4}])
    results = night.replay(s)
    assert results[0].state.pot == 0 and results[1].state.pot == 70
    data = night.summary_data(s, results)
    net = data["totals"]
    # round 1: Ben 10 in; Chie 96 wins 札 8 from Dan and the 10. Round 2 from Chie: 10, 15, 20, 25
    assert net == {"Aki": 0 - 20, "Ben": -10 - 25, "Chie": 18 - 10, "Dan": -8 - 15}
    # paid back the 70 of round 2 only (Ben's 10 of round 1 was won): what is left is round 1
    assert data["settlement"] == [{"from": "Ben", "to": "Chie", "mon": 10}, {"from": "Dan", "to": "Chie", "mon": 8}]


def test_a_stated_pot_in_a_session_round_is_refused_and_never_stored():
    with pytest.raises(night.StoredRoundError):
        night.replay(session([MISDEAL, {**AFTER, "pot": 10}]))
    assert night.replay(session([MISDEAL, {**AFTER, "pot": 140}]))[1].state.pot == 0


def test_read_export_takes_four_to_six_players():
    s = session([MISDEAL, AFTER])
    data = night.read_export(night.export_data({**s, "created": None, "planned_rounds": 12, "rate": None}))
    assert data["players"] == P4 and len(data["rounds"]) == 2 and "pot" not in data["rounds"][1]
    with pytest.raises(RoundError):
        night.read_export({"players": P6 + ["Gen", "Hana"], "rounds": [], "rules": "fudawiki"})  # seven seat the 白札 (§11.5)


# ---------------------------------------------------------------------------------------------
# the book: "A night of 4 to 6 needs the fudawiki profile; under sdin a night is three players"


def test_a_book_session_of_five_under_fudawiki(tmp_path):
    book = Book.open(tmp_path / "book.json")
    sid = book.new_session(P5, rules=F, dealer="Aki")
    add_round(book, sid, {"field": SMALL_FIELD, "dropped": ["Chie", "Aki"], "captured": three("Ben", "Dan", "Eri")})
    add_round(book, sid, {"field": SMALL_FIELD, "dropped": P5})
    s = book.session(sid)
    results = night.replay(s)
    assert results[1].round.dealer == "Ben" and results[1].state.pot == 10 + 15 + 20 + 25 + 30
    assert "pot" not in s["rounds"][1]["round"]
    data = night.summary_data(s, results)
    assert data["pot"] == 100 and set(data["totals"]) == set(P5)


def test_a_book_session_of_four_under_sdin_is_refused(tmp_path):
    book = Book.open(tmp_path / "book.json")
    with pytest.raises(SessionError) as e:
        book.new_session(P4)
    assert "three players" in str(e.value) and "fudawiki" in str(e.value)
    with pytest.raises(SessionError):
        book.new_session(P6 + ["Gen", "Hana"], rules=F)  # seven sit with the 白札 (§11.5), eight never
    with pytest.raises(SessionError):
        book.new_session(P6 + ["Gen"])


def test_sdin_refuses_a_round_of_four_with_a_clear_line():
    e = bad(rf(P4, "Aki", three("Aki", "Ben", "Chie")), SDIN)
    assert e.where == "players" and "sdin" in e.problem and "fudawiki" in e.problem


# ---------------------------------------------------------------------------------------------
# the views: a player who did not play shows – where nothing was paid, else their fee or compensation


def rendered(renderable) -> str:
    from rich.console import Console

    console = Console(width=200, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def table_rows(text: str, first: set[str]) -> dict[str, list[str]]:
    """The first row starting with each name, cells split on the table's bars."""
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("│")]
        key = cells[0].split(" ")[0] if cells[0] else ""
        if key in first and key not in rows:
            rows[key] = cells
    return rows


def test_round_view_shows_a_dash_for_a_seat_that_paid_nothing_and_the_fee_otherwise():
    from scorekeeper.render import round_view

    result = fw(rf(P5, "Aki", three("Ben", "Dan", "Eri"), dropped=["Chie", "Aki"]))
    rows = table_rows(rendered(round_view(result)), set(P5))
    assert [rows[p][-1] for p in P5] == ["-10", "+33", "-15", "-8", "0"]
    result = fw(rf(P5, "Aki", three("Aki", "Ben", "Chie")))  # Dan and Eri forced out, nothing given
    rows = table_rows(rendered(round_view(result)), set(P5))
    assert [rows[p][-1] for p in P5] == ["+8", "-8", "0", "–", "–"]


def test_summary_view_shows_a_dash_for_a_seat_that_paid_nothing():
    from scorekeeper.night_view import summary_view

    s = session([MISDEAL, AFTER])
    rows = table_rows(rendered(summary_view({**s, "planned_rounds": 12, "rate": None}, night.replay(s))), {"1", "2"})
    assert rows["1"][-4:] == ["-50", "-20", "-30", "-40"]  # the fees of the misdeal
    assert rows["2"][-4:] == ["–", "+156", "-16", "0"]  # Aki forced out with nothing; Dan played, 0
