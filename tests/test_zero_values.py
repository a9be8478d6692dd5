"""TRADITIONAL §10: a ``[values]`` value is a whole number of kan from 0 to 999; 0 pays nothing,
and is still shown. A payment of 0 文 is never a line of ``payments`` (CONTRACT §4: received minus
paid still equals ``mon``). For 二八, 素十六 and 七短 the value is the base: the steps stay 1, 2 and 1 kan.
"""

import json

import pytest
from fast_cli import FastRunner, one_line_error
from helpers import EXAMPLE_PILES, SMALL_FIELD, played_out, round_file
from test_fudawiki_pot import P4, rendered, rf, table_rows, three
from test_fudawiki_settlement import AKI_89
from test_special import NIHACHI, SUJIROKU

from scorekeeper import house, night
from scorekeeper.cli import app
from scorekeeper.house import HouseRuleError
from scorekeeper.render import round_view
from scorekeeper.scoring import POT, score_dict

runner = FastRunner()


def rules_with(base="fudawiki", **values):
    return house.from_data({"base": base, "name": "zero", "values": values})


def rules_with_switch(switches, **values):
    return house.from_data({"base": "fudawiki", "name": "zero", **switches, "values": values})


def no_zero_payment(result):
    assert all(p.mon > 0 for p in result.payments), result.payments
    assert net_of_payments_with_pot(result) == {p: r.mon for p, r in result.players.items()}


def net_of_payments_with_pot(result):
    net = {p: 0 for p in result.players}
    for p in result.payments:
        if p.payer != POT:
            net[p.payer] -= p.mon
        if p.payee != POT:
            net[p.payee] += p.mon
    return net


# --- "a whole number from 0 to 999" -----------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 1, 998, 999])
def test_a_value_from_0_to_999_kan_is_taken(value):
    assert rules_with(**{"三本": value}).teyaku["三本"] == value


@pytest.mark.parametrize("value", [-1, 1000, 2.5, 3.0, True, False, "3"])
def test_a_value_below_0_above_999_or_not_a_whole_number_is_refused(value):
    with pytest.raises(HouseRuleError) as e:
        rules_with(**{"三本": value})
    assert e.value.key == "values.三本" and "\n" not in str(e.value)


def test_the_refusal_names_the_range(tmp_path):
    path = tmp_path / "h.toml"
    for value in (-1, 1000):
        path.write_text(f'base = "fudawiki"\nname = "h"\n[values]\n"三本" = {value}\n', encoding="utf-8")
        line = one_line_error(runner.invoke(app, ["rules", str(path)]))
        assert f"{path}: values.三本: {value} kan" in line and "0 to 999" in line


@pytest.mark.parametrize("name", ["逃げ料", "飛び込み", "抜け役", "二八", "素十六", "総八", "七短", "五光", "空素"])
def test_every_kind_of_value_may_be_0(name):
    assert rules_with(**{name: 0}).values()[name] == 0


# --- "0: it pays nothing, and is still shown" --------------------------------------------------------


def plain_round(hand, rules, player="Chie"):
    data = played_out(EXAMPLE_PILES, field=["2k", "4r", "6k", "7t", "9k", "10k"], hands={player: hand})
    return score_dict(data, rules=rules)


def test_a_0_kan_teyaku_is_held_and_shown_but_pays_nothing():
    zero = rules_with(**{"三本": 0})
    result = plain_round("1hrk 4t 6t 8t 9t", zero)
    chie = result.players["Chie"]
    assert chie.teyaku == "三本" and chie.teyaku_all == ("三本",)
    assert not any(p.reason == "三本" for p in result.payments)
    assert chie.mon == 0  # 88 card points, and nothing for the 三本
    no_zero_payment(result)
    row = table_rows(rendered(round_view(result)), {"Chie"})["Chie"]
    assert row[1] == "三本 0"
    # one side of the boundary: at 1 kan it is paid
    one = plain_round("1hrk 4t 6t 8t 9t", rules_with(**{"三本": 1}))
    assert [(p.payer, p.mon) for p in one.payments if p.reason == "三本"] == [("Aki", 10), ("Ben", 10)]


def test_score_json_shows_a_0_kan_teyaku_and_dekiyaku_without_a_payment_of_0(tmp_path):
    path = tmp_path / "zero.toml"
    path.write_text('base = "fudawiki"\nname = "zero"\n[values]\n"三本" = 0\n"赤短" = 0\n', encoding="utf-8")
    data = round_file({"Aki": "1rk 2rk 3rk"}, hands={"Aki": "1hrk 4t 6t 8t 9t"}, ended_by="Aki")
    file = tmp_path / "r.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["score", "--json", "--rules", str(path), str(file)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["players"]["Aki"]["teyaku"] == "三本" and out["players"]["Aki"]["teyaku_all"] == ["三本"]
    assert out["players"]["Aki"]["dekiyaku"] == ["赤短"]
    assert out["payments"] == [] and all(p["mon"] == 0 for p in out["players"].values())


def test_a_0_kan_dekiyaku_is_not_shown_void_and_is_in_the_rounds_yaku():
    zero = rules_with(**{"赤短": 0})
    result = score_dict(round_file({"Aki": "1rk 2rk 3rk 6rk 9rk 10rk"}, ended_by="Aki"), rules=zero)
    assert result.players["Aki"].dekiyaku == ("赤短", "青短")
    assert [p.reason for p in result.payments] == ["青短", "青短"]
    no_zero_payment(result)
    row = table_rows(rendered(round_view(result)), {"Aki"})["Aki"]
    assert row[2] == "赤短 0 · 青短 70"
    assert ("Aki", "赤短") in night.round_yaku(result)


def test_a_void_dekiyaku_is_still_shown_void():
    """The other side: the 下げ player's own 出来役 when another ends the round earn nothing (void)."""
    data = round_file({"Aki": "1rk 2rk 3rk", "Ben": "6rk 9rk 10rk"}, sage="Aki", ended_by="Ben")
    result = score_dict(data, rules=rules_with(**{"赤短": 0}))
    row = table_rows(rendered(round_view(result)), {"Aki"})["Aki"]
    assert "赤短 0 (void)" in row[2]
    assert ("Aki", "赤短") not in night.round_yaku(result)


def test_a_0_kan_bonus_is_earned_and_shown_but_pays_nothing():
    piles = AKI_89
    data = played_out(piles, field=["2k", "4r", "6k", "10t", "9k", "10k"], teyaku={"Aki": "十一"})
    result = score_dict(data, rules=rules_with(**{"抜け役": 0}))
    assert result.players["Aki"].bonuses == ("抜け役",)
    assert not any(p.reason == "抜け役" for p in result.payments)
    no_zero_payment(result)
    paid = score_dict(data, rules=rules_with(**{"抜け役": 1}))
    assert [p.mon for p in paid.payments if p.reason == "抜け役"] == [10, 10]


def test_a_0_kan_fee_puts_nothing_into_the_pot():
    zero = rules_with(**{"逃げ料": 0})
    result = score_dict(rf(P4, "Aki", dropped=P4), rules=zero)  # everyone drops: a misdeal
    assert result.payments == () and result.state.pot == 0
    one_drop = score_dict(rf(P4, "Aki", three("Ben", "Chie", "Dan"), dropped=["Aki"]), rules=zero)
    assert not any(p.reason == "逃げ料" for p in one_drop.payments)
    assert one_drop.players["Aki"].role == "dropped" and one_drop.players["Aki"].mon == 0
    no_zero_payment(one_drop)
    paid = score_dict(rf(P4, "Aki", dropped=P4), rules=rules_with(**{"逃げ料": 1}))
    assert [p.mon for p in paid.payments] == [10, 15, 20, 25]


# --- "for 二八, 素十六 and 七短 it is the base (the steps stay 1, 2 and 1 kan)" --------------------


def special_paid(piles, rules):
    result = score_dict(played_out(piles, field=SMALL_FIELD), rules=rules)
    no_zero_payment(result)
    return result.kind, result.players["Aki"].special, [p.mon for p in result.payments if p.payee == "Aki"]


def test_nihachi_of_base_0_is_judged_and_pays_nothing_at_168_and_1_kan_a_point_above():
    zero = rules_with(**{"二八": 0})
    assert special_paid(NIHACHI[168], zero) == ("特殊役", ("二八",), [])
    assert special_paid(NIHACHI[170], zero) == ("特殊役", ("二八",), [20, 20])
    assert special_paid(NIHACHI[167], zero)[1] == ()


def test_sujiroku_of_base_0_pays_nothing_at_16_and_2_kan_a_kasu_above():
    zero = rules_with(**{"素十六": 0})
    assert special_paid(SUJIROKU[16], zero) == ("特殊役", ("素十六",), [])
    assert special_paid(SUJIROKU[17], zero) == ("特殊役", ("素十六",), [20, 20])
    assert special_paid(SUJIROKU[15], zero)[1] == ()


def test_nanatan_of_base_0_pays_nothing_at_seven_ribbons_and_1_kan_each_beyond():
    zero = rules_with_switch({"nanatan_plus": True}, **{"七短": 0, "赤短": 1})
    seven = score_dict(round_file({"Aki": "1rk 2rk 3rk 4rk 5rk 6rk 7rk"}, ended_by="Aki"), rules=zero)
    assert seven.players["Aki"].dekiyaku == ("七短", "赤短")
    assert [(p.reason, p.mon) for p in seven.payments] == [("赤短", 10), ("赤短", 10)]
    eight = score_dict(round_file({"Aki": "1rk 2rk 3rk 4rk 5rk 6rk 7rk 11rk"}, ended_by="Aki"), rules=zero)
    assert [(p.reason, p.mon) for p in eight.payments if p.reason == "七短"] == [("七短", 10), ("七短", 10)]
