"""TRADITIONAL.md §8: the field multiplier carried over, the queue, and the `carry` key.

A round's multiplier and the queue it leaves depend on the night's state before it
(:class:`NightState`); a standalone round file may state the queue as ``carry``.
"""

import pytest
from helpers import mon, round_file

from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import NightState, Round, RoundError, score, score_dict

F = FUDAWIKI
STACK = F._replace(field="stack")
NONE = F._replace(field="none")

AKATAN = "1rk 2rk 3rk"  # 赤短 7 kan: Aki ends with it, 70 × multiplier from each


def field(*brights):
    """Six field cards: the given 光 and fillers of other months (never 場四)."""
    fill = ["2k", "4r", "6k", "7t", "9k", "10k"]
    return list(brights) + fill[: 6 - len(brights)]


def akatan_round(*brights, **extra):
    return round_file({"Aki": AKATAN}, field=field(*brights), ended_by="Aki", **extra)


def run(*brights, carry=(), rules=F):
    result = score_dict(akatan_round(*brights), rules=rules, state=NightState(carry=tuple(carry)))
    return result.multiplier, result.state.carry


# --- "each 光 gives a multiplier: 柳 or 桐 光 ×4, 松, 桜 or 芒 光 ×2" ----------------------------


@pytest.mark.parametrize("bright,times", [("11h", 4), ("12h", 4), ("1h", 2), ("3h", 2), ("8h", 2)])
def test_each_bright_on_the_field_gives_its_multiplier(bright, times):
    assert run(bright) == (times, ())


def test_no_bright_on_the_field_is_times_1():
    assert run() == (1, ())


def test_willow_cards_other_than_ono_no_michikaze_give_no_multiplier():
    result = score_dict(round_file({"Aki": AKATAN}, field=["11t", "11r", "11k", "2k", "4r", "6k"], ended_by="Aki"), rules=F)
    assert (result.multiplier, result.state.carry) == (1, ())


# --- "If multipliers are waiting ..., the round takes the largest waiting one, and all of this
#      field's multipliers join the queue" -------------------------------------------------------


def test_with_multipliers_waiting_the_round_takes_the_largest_waiting():
    assert run(carry=(4, 2)) == (4, (2,))


def test_with_multipliers_waiting_all_of_this_fields_join_the_queue():
    assert run("1h", "11h", carry=(2,)) == (2, (4, 2))


def test_the_waiting_one_is_taken_even_when_this_field_has_a_larger():
    assert run("12h", carry=(2,)) == (2, (4,))


def test_the_multiplier_applied_is_the_waiting_one():
    result = score_dict(akatan_round(), rules=F, state=NightState(carry=(4,)))
    assert result.field_class == "小場"  # the field's own class
    assert result.multiplier == 4
    assert mon(result) == {"Aki": 2 * 280, "Ben": -280, "Chie": -280}


# --- "Else the round takes this field's largest, and the others join the queue" -----------------


def test_with_nothing_waiting_the_round_takes_this_fields_largest():
    assert run("1h", "11h") == (4, (2,))


def test_with_nothing_waiting_the_others_join_the_queue():
    assert run("1h", "3h", "12h") == (4, (2, 2))
    assert run("11h", "12h", "8h") == (4, (4, 2))


def test_a_single_bright_leaves_nothing_waiting():
    assert run("8h") == (2, ())


# --- "The queue is kept largest first" ----------------------------------------------------------


def test_the_queue_is_kept_largest_first():
    assert run("11h", "1h", carry=(2, 2)) == (2, (4, 2, 2))
    assert run("3h", "12h", carry=(2,)) == (2, (4, 2))


def test_a_carry_key_is_read_largest_first():
    result = score_dict(akatan_round(carry=[2, 4, 2]), rules=F)
    assert result.round.carry == (4, 2, 2)
    assert (result.multiplier, result.state.carry) == (4, (2, 2))


# --- "a 場四 redeal uses up nothing" ------------------------------------------------------------


def test_a_bashi_redeal_uses_up_nothing():
    bashi = round_file({}, field=["9t", "9r", "9k", "9k", "11h", "1h"])
    result = score_dict(bashi, rules=F, state=NightState(carry=(4, 2)))
    assert result.redeal
    assert result.state.carry == (4, 2)  # nor do this field's 光 join
    assert result.to_json()["carry"] == [4, 2]
    assert result.winner is None


def test_a_standalone_bashi_files_carry_waits_on_after_it():
    bashi = round_file({}, field=["9t", "9r", "9k", "9k", "11h", "1h"], carry=[2, 4])
    result = score_dict(bashi, rules=F)
    assert result.redeal and result.to_json()["carry"] == [4, 2]


# --- "Switch stack: the round's multiplier is the product of this field's, no cap" ---------------


def test_stack_multiplies_this_fields_multipliers():
    assert run("1h", "11h", rules=STACK) == (8, ())


def test_stack_with_all_five_brights_is_times_128():
    result = score_dict(round_file({"Aki": AKATAN}, field=["1h", "3h", "8h", "11h", "12h", "2k"], ended_by="Aki"), rules=STACK)
    assert result.multiplier == 128
    assert mon(result)["Aki"] == 2 * 70 * 128


def test_stack_with_no_bright_is_times_1_and_nothing_waits():
    assert run(rules=STACK) == (1, ())


def test_stack_ignores_what_a_night_had_waiting():
    assert run("8h", carry=(4,), rules=STACK) == (2, ())


# --- "Switch none (SDIN): the largest, and nothing waits" -------------------------------------


def test_none_takes_the_largest_and_nothing_waits():
    assert run("1h", "11h", rules=NONE) == (4, ())
    assert run("3h", "8h", rules=NONE) == (2, ())


def test_sdin_is_field_none():
    assert SDIN.field.key == "none" and F.field.key == "carry"
    assert run("1h", "11h", rules=SDIN) == (4, ())


# --- "multiplier is the one applied"; JSON carry is the queue after the round -----------------


def test_json_multiplier_is_the_one_applied_and_carry_the_queue_after():
    out = score_dict(akatan_round("1h", "11h", carry=[2]), rules=F).to_json()
    assert (out["field_class"], out["multiplier"], out["carry"]) == ("絶場", 2, [4, 2])


def test_json_carry_is_empty_under_sdin():
    assert score_dict(akatan_round("1h", "11h")).to_json()["carry"] == []


# --- state in, state out ------------------------------------------------------------------------


def test_a_nights_state_goes_in_and_the_next_comes_out():
    state = NightState()
    got = []
    for brights in [("1h", "11h"), (), ("3h",), ()]:
        result = score(Round.from_dict(akatan_round(*brights), rules=F), F, state)
        got.append((result.multiplier, result.state.carry))
        state = result.state
    assert got == [(4, (2,)), (2, ()), (2, ()), (1, ())]


def test_a_standalone_rounds_state_is_its_carry_key():
    rnd = Round.from_dict(akatan_round(carry=[4]), rules=F)
    assert score(rnd, F).multiplier == 4
    assert score(rnd, F, NightState(carry=(4,))).multiplier == 4


def test_a_carry_key_that_disagrees_with_the_nights_state_is_refused():
    rnd = Round.from_dict(akatan_round(carry=[4]), rules=F)
    with pytest.raises(RoundError) as e:
        score(rnd, F, NightState(carry=(2,)))
    assert e.value.where == "carry"


def test_the_pot_passes_through_a_three_player_round():
    result = score_dict(akatan_round(), rules=F, state=NightState(carry=(), pot=0))
    assert result.state.pot == 0 and result.to_json()["pot"] == 0


def test_a_round_written_back_out_keeps_its_carry():
    rnd = Round.from_dict(akatan_round(carry=[2, 4]), rules=F)
    assert rnd.to_dict()["carry"] == [4, 2]
    assert Round.from_dict(rnd.to_dict(), rules=F) == rnd


# --- the `carry` key: "a list of 2s and 4s ...; it must be absent or empty under stack and none"


@pytest.mark.parametrize("bad", [[3], [2, 1], [8], ["4"], [2.0], [True], 2, "4", {"4": 1}, [[4]]])
def test_carry_not_a_list_of_2s_and_4s_is_bad(bad):
    with pytest.raises(RoundError) as e:
        score_dict(akatan_round(carry=bad), rules=F)
    assert e.value.where == "carry"


@pytest.mark.parametrize("good", [[], None, [2], [4], [4, 4, 2, 2]])
def test_carry_of_2s_and_4s_or_empty_is_good_under_carry(good):
    score_dict(akatan_round(carry=good), rules=F)


@pytest.mark.parametrize("rules", [STACK, NONE, SDIN], ids=["stack", "none", "sdin"])
def test_carry_non_empty_under_stack_or_none_is_bad(rules):
    with pytest.raises(RoundError) as e:
        score_dict(akatan_round(carry=[2]), rules=rules)
    assert e.value.where == "carry"


@pytest.mark.parametrize("rules", [STACK, NONE, SDIN], ids=["stack", "none", "sdin"])
def test_carry_empty_or_absent_under_stack_or_none_is_good(rules):
    for carry in ([], None):
        assert score_dict(akatan_round(carry=carry), rules=rules).state.carry == ()


def test_a_bashi_round_keeps_its_profile():
    bashi = Round.from_dict(round_file({}, field=["9t", "9r", "9k", "9k", "11h", "1h"]), rules=F)
    assert bashi.rules == F
    assert score(bashi).to_json()["profile"] == "fudawiki"
