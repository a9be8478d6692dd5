"""TRADITIONAL §10–11: the house rules the tables play, each sentence at its boundary, both sides.

責任 (法度, ``liability``, §11.1), みずてん (``mizuten``, §11.2), 下り賃 and 追い込み賃 (``drop_fee``,
``forced_out_pay``, ``forced_out_paid_by``, §11.3) and seven at the table with the 白札 (§11.5):
the house file's keys and refusals, the round file's keys ``liable``, ``mizuten`` and ``blank``
and their refusals, and what each pays. Profiles are read from TOML text, as a table writes them.
"""

from __future__ import annotations

import json

import pytest
from helpers import EXAMPLE_PILES, SMALL_FIELD, codes, ledger, mon, played_out, round_file

from scorekeeper import house
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import POT, RoundError, score_dict

P4 = ["Aki", "Ben", "Chie", "Dan"]
P6 = P4 + ["Eri", "Fumi"]
P7 = P6 + ["Gen"]
EX = {k: codes(v) for k, v in EXAMPLE_PILES.items()}  # Aki 96, Ben 80, Chie 88; Aki holds all of month 3


def rules_of(**switches) -> house.Rules:
    return house.from_data({"base": "fudawiki", "name": "house", **switches})


LIABLE = rules_of(liability=True)
MIZU = rules_of(mizuten="fudawiki")
MIZU_FLAT = rules_of(mizuten="flat")
FLAT_FEES = rules_of(drop_fee="flat", forced_out_pay="flat", forced_out_paid_by="all")
ALL_ON = rules_of(liability=True, mizuten="fudawiki", drop_fee="flat", forced_out_pay="flat",
                  forced_out_paid_by="all", standing_three_pairs=False)

#: Aki ends with 赤短 (7 kan); the others hold no 出来役 (AKATAN_SAGE: Ben 青短, for a 下げ of his)
AKATAN = {"Aki": "1rk 2rk 3rk", "Ben": "6rk 9kk", "Chie": "11hk"}
AKATAN_SAGE = {"Aki": "1rk 2rk 3rk", "Ben": "6rk 9rk 10rk", "Chie": "11hk"}


def fw(data, rules=FUDAWIKI, **kw):
    return score_dict(data, rules=rules, **kw)


def bad(data, rules=FUDAWIKI) -> RoundError:
    with pytest.raises(RoundError) as e:
        fw(data, rules)
    return e.value


def rf(players, dealer, piles=None, **extra):
    data = {"players": list(players), "dealer": dealer, "field": list(SMALL_FIELD), "captured": dict(piles or {})}
    data.update(extra)
    return data


def three(a, b, c):
    return {a: EX["Aki"], b: EX["Ben"], c: EX["Chie"]}


def balanced(result, pot_before=0):
    """Received − paid = mon for every player, and the mon plus what went into the pot sum to zero."""
    net = {p: 0 for p in [*result.players, POT]}
    for x in result.payments:
        net[x.payer] -= x.mon
        net[x.payee] += x.mon
    assert {p: net[p] for p in result.players} == mon(result)
    assert sum(mon(result).values()) + result.state.pot - pot_before == 0


# ---------------------------------------------------------------------------------------------
# §10: the house file


@pytest.mark.parametrize(("key", "value"), [("liability", True), ("mizuten", "fudawiki"), ("mizuten", "flat"),
                                            ("drop_fee", "flat"), ("forced_out_pay", "flat"),
                                            ("forced_out_paid_by", "all")])
def test_a_switch_of_section_11_away_from_its_default_is_refused_under_sdin_naming_it(key, value):
    with pytest.raises(house.HouseRuleError) as e:
        house.from_data({"base": "sdin", "name": "s", key: value})
    assert e.value.key == key and "fudawiki" in e.value.problem and "\n" not in str(e.value)
    assert getattr(rules_of(**{key: value}).house(), "get")(key) == value


@pytest.mark.parametrize(("key", "value"), [("liability", False), ("mizuten", False), ("drop_fee", "ladder"),
                                            ("forced_out_pay", "hand"), ("forced_out_paid_by", "two")])
def test_a_switch_of_section_11_at_its_default_changes_nothing_under_either_base(key, value):
    for base, built_in in (("sdin", SDIN), ("fudawiki", FUDAWIKI)):
        rules = house.from_data({"base": base, "name": "s", key: value})
        assert rules.to_dict() == {**built_in.to_dict(), "name": "s"}


@pytest.mark.parametrize(("key", "value"), [("liability", "yes"), ("mizuten", True), ("mizuten", "blind"),
                                            ("drop_fee", "steep"), ("forced_out_pay", 1), ("forced_out_paid_by", "three")])
def test_a_bad_value_of_a_section_11_switch_is_refused_in_one_line(key, value):
    with pytest.raises(house.HouseRuleError) as e:
        house.from_data({"base": "fudawiki", "name": "s", key: value})
    assert e.value.key == key and "\n" not in str(e.value)


def test_oikomi_and_mizuten_values_are_accepted_with_their_switch_off_and_under_sdin_unused():
    for base in ("sdin", "fudawiki"):
        rules = house.from_data({"base": base, "name": "s", "values": {"追い込み": 3, "みずてん": 2}})
        assert (rules.forced_value, rules.mizuten_value) == (3, 2)
    with pytest.raises(house.HouseRuleError):  # unlike 猪鹿蝶
        house.from_data({"base": "fudawiki", "name": "s", "values": {"猪鹿蝶": 7}})


def test_seven_seats_need_no_switch_and_a_guessed_key_says_so():
    with pytest.raises(house.HouseRuleError) as e:
        house.from_data({"base": "fudawiki", "name": "s", "seven_players": True})
    assert e.value.key == "seven_players" and "白札" in e.value.problem


def test_a_profile_with_a_section_11_switch_stores_it_and_reads_it_back():
    rules = rules_of(liability=True, mizuten="flat", drop_fee="flat", values={"みずてん": 2})
    stored = json.loads(json.dumps(rules.to_dict(), ensure_ascii=False))
    assert stored["liability"] is True and stored["mizuten"] == "flat" and stored["mizuten_value"] == 2
    assert house.Rules.from_dict(stored) == rules and rules.key() != rules_of().key()
    assert "liability" not in FUDAWIKI.to_dict() and "mizuten" not in FUDAWIKI.to_dict()


# ---------------------------------------------------------------------------------------------
# §11.1 責任


def test_liable_shoubu_the_feeder_pays_double_and_the_other_nothing():
    plain = fw(round_file(AKATAN, ended_by="Aki"), LIABLE)
    assert mon(plain) == {"Aki": 140, "Ben": -70, "Chie": -70}
    fed = fw(round_file(AKATAN, ended_by="Aki", liable={"Aki": {"赤短": "Ben"}}), LIABLE)
    assert ledger(fed) == [("Ben", "Aki", 140, "赤短")]
    balanced(fed)


def test_liable_shoubu_the_doubling_gives_way_whoever_called_sage():
    # Ben alone called 下げ: he would pay double; Chie fed it, so Chie pays double and Ben nothing
    data = round_file(AKATAN_SAGE, ended_by="Aki", sage="Ben")
    assert mon(fw(data, LIABLE)) == {"Aki": 140, "Ben": -140, "Chie": 0}
    fed = fw({**data, "liable": {"Aki": {"赤短": "Chie"}}}, LIABLE)
    assert ledger(fed) == [("Chie", "Aki", 140, "赤短")]


def test_liable_applies_to_that_yaku_only_the_others_paid_as_section_4_says():
    piles = {"Aki": "1rk 2rk 3rk 6rk 9rk 10rk", "Ben": "11hk", "Chie": "8hk"}  # 赤短 and 青短
    result = fw(round_file(piles, ended_by="Aki", liable={"Aki": {"青短": "Chie"}}), LIABLE)
    assert sorted(ledger(result)) == sorted([("Ben", "Aki", 70, "赤短"), ("Chie", "Aki", 70, "赤短"),
                                             ("Chie", "Aki", 140, "青短")])


def test_liable_cancel_the_feeder_pays_in_full_the_other_nothing():
    data = round_file(AKATAN, ended_by="Aki", sage="Aki", ended_how="cancel")
    assert mon(fw(data, LIABLE)) == {"Aki": 70, "Ben": -35, "Chie": -35}
    fed = fw({**data, "liable": {"Aki": {"赤短": "Ben"}}}, LIABLE)
    assert ledger(fed) == [("Ben", "Aki", 70, "赤短")]


def test_a_shikou_that_became_goko_is_liable_as_goko():
    piles = {"Aki": "1hk 3hk 8hk 11hk 12hk", "Ben": "2kk", "Chie": "4kk"}
    result = fw(round_file(piles, ended_by="Aki", liable={"Aki": {"五光": "Ben"}}), LIABLE)
    assert ledger(result) == [("Ben", "Aki", 240, "五光")]
    e = bad(round_file(piles, ended_by="Aki", liable={"Aki": {"四光": "Ben"}}), LIABLE)
    assert e.where == "liable.Aki.四光" and "not paid" in str(e)


SANBON_OF_3 = "3hrk 1k 5t 8t 10t"  # 三本 of month 3: Aki's pile holds all four (飛び込み)


def test_liable_tobikomi_the_feeder_pays_twice_its_value_the_other_nothing():
    data = played_out(EXAMPLE_PILES, hands={"Aki": SANBON_OF_3})
    plain = fw(data, LIABLE)
    assert plain.players["Aki"].bonuses == ("飛び込み",)
    assert ("Ben", "Aki", 10, "飛び込み") in ledger(plain) and ("Chie", "Aki", 10, "飛び込み") in ledger(plain)
    fed = fw({**data, "liable": {"Aki": {"飛び込み": "Chie"}}}, LIABLE)
    tobikomi = [x for x in ledger(fed) if x[3] == "飛び込み"]
    assert tobikomi == [("Chie", "Aki", 20, "飛び込み")]
    balanced(fed)


def test_liable_is_refused_in_a_round_played_out_but_for_tobikomi():
    piles = {"Aki": "1hr 2tr 3rk 6rk 9* 10*", "Ben": "1kk 3hk 4rk 5rk 7rk 8* 11* 12hk",
             "Chie": "2kk 4tk 5tk 6tk 7tk 12kk"}  # played out after Aki's 下げ: 赤短 and 青短, halved
    data = played_out(piles, sage="Aki")
    assert fw(data, LIABLE)
    e = bad({**data, "liable": {"Aki": {"赤短": "Ben"}}}, LIABLE)
    assert e.where == "liable.Aki.赤短" and "played out" in str(e)


def test_liable_is_refused_for_a_yaku_the_receiver_is_not_paid():
    e = bad(round_file(AKATAN_SAGE, ended_by="Aki", sage="Ben", liable={"Ben": {"青短": "Chie"}}), LIABLE)
    assert e.where == "liable.Ben.青短" and "not paid" in str(e)
    e = bad(played_out(EXAMPLE_PILES, liable={"Aki": {"飛び込み": "Ben"}}), LIABLE)  # no hand: no 飛び込み
    assert e.where == "liable.Aki.飛び込み"


def test_nanatan_is_never_liable():
    piles = {"Aki": "1rk 2rk 4rk 5rk 6rk 7rk 9rk", "Ben": "8hk", "Chie": "11hk"}
    assert fw(round_file(piles, ended_by="Aki"), LIABLE).players["Aki"].dekiyaku == ("七短",)
    e = bad(round_file(piles, ended_by="Aki", liable={"Aki": {"七短": "Ben"}}), LIABLE)
    assert e.where == "liable.Aki.七短" and "七短" in str(e)


def test_inoshikacho_is_liable_only_when_on():
    piles = {"Aki": "6tk 7tk 10tk", "Ben": "8hk", "Chie": "11hk"}
    on = rules_of(liability=True, inoshikacho=True)
    assert ledger(fw(round_file(piles, ended_by="Aki", liable={"Aki": {"猪鹿蝶": "Ben"}}), on)) == [
        ("Ben", "Aki", 140, "猪鹿蝶")]
    e = bad(round_file(AKATAN, ended_by="Aki", liable={"Aki": {"猪鹿蝶": "Ben"}}), LIABLE)
    assert e.where == "liable.Aki.猪鹿蝶"


@pytest.mark.parametrize(("feeder", "where"), [("Aki", "own"), ("Dan", "did not play"), ("Zed", "not one of")])
def test_the_feeder_is_an_active_opponent_of_the_receiver(feeder, where):
    data = rf(P4, "Aki", {"Aki": codes(AKATAN["Aki"]), "Ben": codes("4kk"), "Chie": codes("5kk")}, ended_by="Aki",
              liable={"Aki": {"赤短": feeder}})
    e = bad(data, LIABLE)
    assert e.where == "liable.Aki.赤短" and where in str(e)


def test_liable_is_refused_in_a_two_player_round():
    data = rf(P4, "Aki", {"Aki": codes(AKATAN["Aki"]), "Ben": codes("4kk")}, dropped=["Chie", "Dan"],
              ended_by="Aki")
    assert fw(data, LIABLE).players["Aki"].mon > 0
    e = bad({**data, "liable": {"Aki": {"赤短": "Ben"}}}, LIABLE)
    assert "two-player" in str(e)


def test_liable_without_the_switch_is_refused_and_empty_means_none_under_every_profile():
    data = round_file(AKATAN, ended_by="Aki")
    e = bad({**data, "liable": {"Aki": {"赤短": "Ben"}}})
    assert e.where == "liable.Aki" and "liability" in str(e)
    for rules in (SDIN, FUDAWIKI, LIABLE):
        assert mon(fw({**data, "liable": {}}, rules)) == mon(fw(data, rules))
        assert mon(fw({**data, "liable": {"Aki": {}}}, rules)) == mon(fw(data, rules))


def test_score_json_repeats_liable_and_one_payment_from_the_feeder():
    out = fw(round_file(AKATAN, ended_by="Aki", liable={"Aki": {"akatan": "Ben"}}), LIABLE).to_json()
    assert out["liable"] == {"Aki": {"赤短": "Ben"}}
    assert out["payments"] == [{"from": "Ben", "to": "Aki", "mon": 140, "reason": "赤短"}]
    assert "liable" not in fw(round_file(AKATAN, ended_by="Aki"), LIABLE).to_json()


# ---------------------------------------------------------------------------------------------
# §11.2 みずてん

AKI_88 = {"Aki": "1hr 3rk 5rk 6trkk 7trkk 10trkk", "Ben": "2trkk 3hk 8htkk 9kk 11htrk",
          "Chie": "1kk 4trkk 5tk 9tr 12hkkk"}
AKI_89 = {"Aki": "4tk 5kk 6trkk 7trkk 9rk 11htrk", "Ben": "2trkk 3rk 12hkkk",
          "Chie": "1hrkk 3hk 4rk 5tr 8htkk 9tk 10trkk"}


def mizuten_lines(result):
    return [x for x in ledger(result) if x[3] == "みずてん"]


def test_fudawiki_mizuten_89_or_more_every_other_seat_pays_the_declarer():
    result = fw(played_out(AKI_89, mizuten=True), MIZU)
    assert mizuten_lines(result) == [("Ben", "Aki", 10, "みずてん"), ("Chie", "Aki", 10, "みずてん")]
    balanced(result)


def test_fudawiki_mizuten_fewer_than_89_the_declarer_pays_each_other_active_player():
    result = fw(played_out(AKI_88, mizuten=True), MIZU)
    assert mizuten_lines(result) == [("Aki", "Ben", 10, "みずてん"), ("Aki", "Chie", 10, "みずてん")]


def test_fudawiki_mizuten_those_who_dropped_pay_a_winning_declarer_but_are_not_paid_by_a_losing_one():
    win = fw(rf(P4, "Aki", three("Aki", "Ben", "Chie"), mizuten=True), MIZU)  # Aki 96 ≥ 89, Dan forced out
    assert {x[0] for x in mizuten_lines(win)} == {"Ben", "Chie", "Dan"}
    lose = fw(rf(P4, "Ben", three("Chie", "Ben", "Dan"), dropped=[], mizuten=True), MIZU)  # Ben 80
    assert {x[2 - 1] for x in mizuten_lines(lose)} == {"Chie", "Dan"} and {x[0] for x in mizuten_lines(lose)} == {"Ben"}
    balanced(win)
    balanced(lose)


def test_fudawiki_mizuten_is_judged_on_the_pile_as_it_stood_in_a_round_ended_by_a_dekiyaku():
    result = fw(round_file(AKATAN, ended_by="Aki", mizuten=True), MIZU)  # Aki's pile: 30 points
    assert mizuten_lines(result) == [("Aki", "Ben", 10, "みずてん"), ("Aki", "Chie", 10, "みずてん")]


def test_fudawiki_mizuten_pays_nothing_in_a_special_round_or_a_two_player_round():
    sohachi = json.loads((__import__("pathlib").Path(__file__).parent
                          / "golden/fudawiki/special-sohachi-over-sujiroku.round.json").read_text(encoding="utf-8"))
    assert not mizuten_lines(fw({**sohachi, "mizuten": True}, MIZU))
    two = rf(P4, "Aki", {"Aki": EX["Aki"], "Ben": EX["Ben"]}, dropped=["Chie", "Dan"], mizuten=True)
    assert not mizuten_lines(fw(two, MIZU))


def test_fudawiki_mizuten_the_declarers_pile_is_always_asked():
    data = round_file(AKATAN, ended_by="Aki", sage="Aki")
    asked = {**data, "captured": {"Aki": data["captured"]["Aki"]}, "unasked": ["Ben", "Chie"]}
    assert fw(asked, MIZU)  # without みずてん nobody's else pile is asked
    e = bad({**round_file({"Aki": AKATAN["Aki"]}, ended_by="Aki", sage="Aki"), "unasked": ["Chie"], "mizuten": True,
             "dealer": "Chie"}, MIZU)
    assert e.where == "unasked"
    named = {**round_file({}, ended_by="Aki"), "dekiyaku": {"Aki": "赤短"}}
    assert fw(named, MIZU)
    e = bad({**named, "mizuten": True}, MIZU)
    assert e.where == "dekiyaku.Aki"


@pytest.mark.parametrize(("value", "where"), [("Aki", "only the night's 親"), ("Ben", "only the night's 親")])
def test_fudawiki_mizuten_is_true_never_a_name(value, where):
    e = bad(played_out(AKI_89, mizuten=value), MIZU)
    assert e.where == "mizuten" and where in str(e)


def test_fudawiki_mizuten_the_declarer_may_not_drop_nor_hold_the_blank():
    e = bad(rf(P4, "Aki", three("Ben", "Chie", "Dan"), dropped=["Aki"], mizuten=True), MIZU)
    assert e.where == "mizuten" and "may not drop" in str(e)
    e = bad(rf(P7, "Aki", three("Ben", "Chie", "Dan"), blank="Aki", mizuten=True), MIZU)
    assert e.where == "mizuten"


def test_mizuten_without_the_switch_is_refused_and_false_means_none_under_every_profile():
    from scorekeeper.lang import in_language

    data = played_out(AKI_89)
    e = bad({**data, "mizuten": True})
    assert e.where == "mizuten" and 'mizuten = "fudawiki" or mizuten = "flat"' in str(e)
    worded = in_language("ja", lambda: str(bad({**data, "mizuten": True})))  # no English "or" in it
    assert 'mizuten = "fudawiki"か' in worded and " or " not in worded
    for rules in (SDIN, FUDAWIKI, MIZU, MIZU_FLAT):
        assert mon(fw({**data, "mizuten": False}, rules)) == mon(fw(data, rules))


def test_flat_mizuten_any_player_who_plays_declares_and_every_other_seat_pays_whatever_the_cards():
    result = fw(rf(P4, "Aki", three("Aki", "Ben", "Chie"), mizuten="Ben"), MIZU_FLAT)  # Ben 80 points
    assert mizuten_lines(result) == [("Aki", "Ben", 10, "みずてん"), ("Chie", "Ben", 10, "みずてん"),
                                     ("Dan", "Ben", 10, "みずてん")]
    assert mizuten_lines(fw(played_out(AKI_88, mizuten=True), MIZU_FLAT))[0] == ("Ben", "Aki", 10, "みずてん")
    balanced(result)


def test_flat_mizuten_pays_in_two_player_and_special_rounds_not_with_one_volunteer():
    two = rf(P4, "Aki", {"Aki": EX["Aki"], "Ben": EX["Ben"]}, dropped=["Chie", "Dan"], mizuten="Ben")
    assert len(mizuten_lines(fw(two, MIZU_FLAT))) == 3
    solo = rf(P4, "Aki", dropped=["Ben", "Chie", "Dan"], mizuten="Aki")
    assert not mizuten_lines(fw(solo, MIZU_FLAT))


@pytest.mark.parametrize(("who", "extra"), [("Aki", {"dropped": ["Aki"]}), ("Dan", {})])
def test_flat_mizuten_refuses_a_player_who_did_not_choose_to_play(who, extra):
    piles = three("Ben", "Chie", "Dan") if extra else three("Aki", "Ben", "Chie")
    e = bad(rf(P4, "Aki", piles, mizuten=who, **extra), MIZU_FLAT)  # dropped, or forced out
    assert e.where == "mizuten" and "did not choose to play" in str(e)


def test_score_json_repeats_mizuten_as_the_declarers_name():
    out = fw(played_out(AKI_89, mizuten=True), MIZU).to_json()
    assert out["mizuten"] == "Aki"
    assert "mizuten" not in fw(played_out(AKI_89, mizuten=False), MIZU).to_json()


def test_on_a_bashi_liable_and_mizuten_are_not_judged():
    bashi = {"players": ["Aki", "Ben", "Chie"], "dealer": "Aki", "field": codes("1hrkk 2k 3k"), "captured": {},
             "mizuten": True, "liable": {"Aki": {"赤短": "Aki"}}}
    result = fw(bashi, FUDAWIKI)
    assert result.redeal and "mizuten" not in result.to_json()


# ---------------------------------------------------------------------------------------------
# §11.3 下り賃 and 追い込み賃


def fees(result):
    return [x[2] for x in ledger(result) if x[3] == "逃げ料"]


def test_drop_fee_flat_every_player_who_drops_pays_the_fee_whatever_their_place():
    data = rf(P6, "Aki", three("Dan", "Eri", "Fumi"), dropped=["Aki", "Ben", "Chie"])
    assert fees(fw(data)) == [10, 15, 20]
    assert fees(fw(data, FLAT_FEES)) == [10, 10, 10]
    assert fees(fw(data, rules_of(drop_fee="flat", values={"逃げ料": 2}))) == [20, 20, 20]


def comp(result):
    return sorted(x[:3] for x in ledger(result) if x[3] == "追い込み")


def test_forced_out_pay_flat_the_oikomi_value_from_each_payer_whatever_the_hand():
    data = rf(P4, "Aki", three("Aki", "Ben", "Chie"), hands={"Dan": codes("1h 3h 8h 11h 12h 2k 4k")})
    assert comp(fw(data))[0][2] > 10  # five 光 in hand: much more than 1 kan
    assert comp(fw(data, rules_of(forced_out_pay="flat"))) == [("Ben", "Dan", 10), ("Chie", "Dan", 10)]
    assert comp(fw(rf(P4, "Aki", three("Aki", "Ben", "Chie")), rules_of(forced_out_pay="flat", values={"追い込み": 3}))) \
        == [("Ben", "Dan", 30), ("Chie", "Dan", 30)]


def test_forced_out_paid_by_all_the_rounds_oya_pays_too():
    data = rf(P4, "Aki", three("Aki", "Ben", "Chie"), hands={"Dan": codes("1h 3h 8h 11h 12h 2k 4k")})
    assert {x[0] for x in comp(fw(data))} == {"Ben", "Chie"}
    assert {x[0] for x in comp(fw(data, rules_of(forced_out_paid_by="all")))} == {"Aki", "Ben", "Chie"}


def test_a_fee_and_compensation_keep_their_reasons_under_every_section_11_3_switch():
    result = fw(rf(P6, "Aki", three("Ben", "Chie", "Dan"), dropped=["Aki"]), FLAT_FEES)
    assert {x[3] for x in ledger(result)} >= {"逃げ料", "追い込み"}
    balanced(result)


# ---------------------------------------------------------------------------------------------
# §11.5 seven at the table


def test_seven_seated_the_blanks_holder_sits_out_and_pays_nothing():
    result = fw(rf(P7, "Aki", three("Ben", "Chie", "Dan"), blank="Eri", dropped=["Aki"]), FLAT_FEES)
    assert result.players["Eri"].role == "blank" and result.players["Eri"].mon == 0
    assert all("Eri" not in (x[0], x[1]) for x in ledger(result))
    assert [p for p, r in result.players.items() if r.role == "forced_out"] == ["Fumi", "Gen"]  # Eri skipped
    assert result.to_json()["blank"] == "Eri" and result.to_json()["players"]["Eri"]["role"] == "blank"
    balanced(result)


def test_when_the_oya_holds_the_blank_the_next_seat_starts_and_is_the_rounds_oya():
    result = fw(rf(P7, "Aki", three("Ben", "Chie", "Dan"), blank="Aki"))
    assert result.round.round_dealer == "Ben" and result.players["Aki"].role == "blank"


def test_seven_seated_a_misdeal_is_everyone_but_the_blank_dropping():
    result = fw(rf(P7, "Aki", blank="Gen", dropped=P6))
    assert result.kind == "流れ" and result.state.pot > 0 and result.players["Gen"].mon == 0


@pytest.mark.parametrize("key", ["hands", "teyaku", "dropped", "captured", "sage", "ended_by"])
def test_the_blanks_holder_may_not_be_named(key):
    value = {"hands": {"Gen": codes("1h 1r 1k 4t 5t 6t 7t")}, "teyaku": {"Gen": "三本"}, "dropped": ["Gen"],
             "captured": {**three("Ben", "Chie", "Dan"), "Gen": codes("1kk")}, "sage": "Gen", "ended_by": "Gen"}[key]
    data = {**rf(P7, "Aki", three("Ben", "Chie", "Dan"), blank="Gen", dropped=["Aki"]), key: value}
    e = bad(data)
    assert e.where.startswith(key) and "白札" in str(e)


def test_blank_is_required_with_seven_and_refused_otherwise_and_under_sdin():
    assert bad(rf(P7, "Aki", three("Aki", "Ben", "Chie"))).where == "blank"
    assert bad(rf(P6, "Aki", three("Aki", "Ben", "Chie"), blank="Fumi")).where == "blank"
    assert bad(round_file(AKATAN, ended_by="Aki", blank="Chie"), SDIN).where == "blank"
    assert bad(rf(P7, "Aki", three("Aki", "Ben", "Chie"), blank="Gen"), SDIN).where == "players"


def test_the_field_is_the_blank_holders_six_and_a_bashi_among_them_is_a_redeal():
    result = fw({"players": P7, "dealer": "Aki", "field": codes("1hrkk 2k 3k"), "blank": "Gen", "captured": {}})
    assert result.redeal and result.to_json()["blank"] == "Gen"


def test_a_liable_or_mizuten_naming_the_blank_is_refused():
    data = rf(P7, "Aki", {"Aki": codes(AKATAN["Aki"]), "Ben": codes("4kk"), "Chie": codes("5kk")}, blank="Gen",
              ended_by="Aki")
    assert bad({**data, "liable": {"Aki": {"赤短": "Gen"}}}, LIABLE).where == "liable.Aki.赤短"
    assert bad({**data, "mizuten": "Gen"}, MIZU_FLAT).where == "mizuten"


def test_every_switch_on_with_seven_a_round_stays_zero_sum():
    data = rf(P7, "Aki", {"Aki": codes(AKATAN["Aki"]), "Ben": codes("4kk"), "Chie": codes("5kk")}, blank="Gen",
              dropped=[], ended_by="Aki", mizuten=True, liable={"Aki": {"赤短": "Chie"}})
    result = fw(data, ALL_ON)
    balanced(result)
    assert ("Chie", "Aki", 140, "赤短") in ledger(result) and result.players["Gen"].mon == 0
    assert round_trip(result) == mon(result)


def round_trip(result):
    """The round file the round gives back scores the same."""
    return mon(fw(result.round.to_dict(), result.rules))
