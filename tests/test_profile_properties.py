"""Invariants over simulated rounds under both built-in profiles (sdin and fudawiki), and the
fudawiki carry queue over a night, with hypothesis. The engine is checked against the simulator's
independent reference settlements (tests/simulator.py: RULES.md for sdin, TRADITIONAL.md for
fudawiki). The sdin-only invariants are in test_properties.py.
"""

import random
from collections import Counter

from helpers import mon, net_of_payments
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simulator import DECK as DECK_CODES
from simulator import (
    Simulation,
    fudawiki_dekiyaku,
    own_dekiyaku,
    own_teyaku,
    own_teyaku_groups,
    pile_points,
    reference_carry,
    reference_settlement,
    reference_settlement_fudawiki,
    simulate,
)

from scorekeeper.notation import parse_cards
from scorekeeper.rules import profile
from scorekeeper.scoring import NightState, Round, score, score_dict
from scorekeeper.yaku import teyaku_all

PROFILE = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LIGHT = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PLAYER_NAMES = st.permutations(["Aki", "Ben", "Chie", "Dan", "花子", "親", "Ünal"]).map(lambda names: names[:3])
#: a queue of waiting multipliers, largest first (TRADITIONAL §8)
QUEUES = st.lists(st.sampled_from([2, 4]), max_size=4).map(lambda q: tuple(sorted(q, reverse=True)))


@st.composite
def simulations(draw, rules=None) -> tuple[str, Simulation]:
    """(profile name, a round dealt and played to its end under it)."""
    name = rules or draw(st.sampled_from(["sdin", "fudawiki"]))
    seed = draw(st.integers(min_value=0, max_value=2**64 - 1))
    players = draw(PLAYER_NAMES)
    stop_chance = draw(st.sampled_from([0.0, 0.3, 0.5, 0.8, 1.0]))
    cancel_chance = draw(st.sampled_from([0.0, 0.2, 0.5]))
    return name, simulate(random.Random(seed), players, stop_chance=stop_chance, rules=name, cancel_chance=cancel_chance)


def scored(case, state=None):
    name, sim = case
    return score_dict(sim.round, rules=profile(name), state=state)


@PROFILE
@given(simulations())
def test_scoring_a_simulated_round_never_raises_under_either_profile(case):
    name, sim = case
    result = scored(case)
    assert result.rules.name == name and result.to_json()["profile"] == name
    assert not result.redeal
    if "sage" in sim.round or "ended_by" in sim.round:
        assert result.kind == "出来役"
    else:
        assert result.kind in ("札", "特殊役")


@PROFILE
@given(simulations(), QUEUES)
def test_the_three_results_sum_to_zero_under_either_profile(case, queue):
    state = NightState(carry=queue) if case[0] == "fudawiki" else None
    assert sum(mon(scored(case, state)).values()) == 0


@PROFILE
@given(simulations())
def test_received_minus_paid_is_each_players_result_under_either_profile(case):
    result = scored(case)
    assert net_of_payments(result) == mon(result)
    out = result.to_json()
    net = Counter()
    for pay in out["payments"]:
        assert pay["mon"] > 0 and pay["from"] != pay["to"]
        net[pay["to"]] += pay["mon"]
        net[pay["from"]] -= pay["mon"]
    assert {p: net[p] for p in out["players"]} == {p: r["mon"] for p, r in out["players"].items()}


@PROFILE
@given(simulations())
def test_a_played_out_round_holds_264_points_in_48_cards_under_either_profile(case):
    _, sim = case
    result = scored(case)
    total = sum(len(pile) for pile in sim.round["captured"].values())
    if sim.played_out:
        assert total == 48
        assert sum(r.card_points for r in result.players.values()) == 264
    else:
        assert total <= 48


@PROFILE
@given(simulations(), QUEUES)
def test_the_engine_agrees_with_the_reference_settlement_under_either_profile(case, queue):
    name, sim = case
    if name == "sdin":
        result = scored(case)
        expected, dealer = reference_settlement(sim.round)
        assert mon(result) == expected and result.next_dealer == dealer
        for p, r in result.players.items():
            assert set(r.dekiyaku) == own_dekiyaku(sim.piles[p])
            assert r.teyaku == (own_teyaku(sim.dealt[p]) if p in sim.round.get("hands", {}) else None)
        return
    result = scored(case, NightState(carry=queue))
    ref = reference_settlement_fudawiki(sim.round, waiting=queue)
    assert mon(result) == ref["mon"]
    assert result.winner == result.next_dealer == ref["winner"]
    assert (result.multiplier, result.state.carry) == (ref["multiplier"], ref["carry"])
    assert {p: r.bonuses for p, r in result.players.items()} == ref["bonuses"]
    for p, r in result.players.items():
        assert set(r.dekiyaku) == fudawiki_dekiyaku(sim.piles[p])  # shown even where they earn nothing
        assert r.card_points == pile_points(sim.piles[p])
        shown = p in sim.round.get("hands", {})
        assert r.teyaku_all == (own_teyaku_groups(sim.dealt[p]) if shown else ())
        assert r.teyaku == (r.teyaku_all[0] if r.teyaku_all else None)


@PROFILE
@given(simulations(rules="fudawiki"))
def test_the_fudawiki_simulator_plays_by_traditional_section_4(case):
    _, sim = case
    sage = sim.round.get("sage")
    callers = [sage] if isinstance(sage, str) else list(sage or [])
    assert len(set(callers)) == len(callers)
    ended = sim.round.get("ended_by")
    holders = {p for p, pile in sim.piles.items() if fudawiki_dekiyaku(pile)}
    assert holders <= {*callers, ended} - {None}
    assert set(callers) <= holders
    if sim.round.get("ended_how") == "cancel":
        assert ended in callers
    assert sim.played_out == (ended is None)


@LIGHT
@given(simulations(rules="fudawiki"))
def test_a_fudawiki_round_written_back_out_scores_the_same(case):
    rules = profile("fudawiki")
    rnd = Round.from_dict(case[1].round, rules=rules)
    again = Round.from_dict(rnd.to_dict(), rules=rules)
    assert score(again, rules).to_json() == score(rnd, rules).to_json()


# --- the carry queue over a night (TRADITIONAL §8) ------------------------------------------------


@LIGHT
@given(st.lists(st.integers(min_value=0, max_value=2**32), min_size=1, max_size=12), st.sampled_from([0.3, 0.7]))
def test_replaying_a_night_the_multiplier_is_1_2_or_4_and_the_queue_stays_largest_first(seeds, stop_chance):
    rules = profile("fudawiki")
    state = NightState()
    ref_queue: tuple[int, ...] = ()
    dealer = "Aki"
    for seed in seeds:
        sim = simulate(random.Random(seed), dealer=dealer, stop_chance=stop_chance, rules="fudawiki")
        result = score(Round.from_dict(sim.round, rules=rules), rules, state)
        assert result.multiplier in (1, 2, 4)
        queue = result.state.carry
        assert list(queue) == sorted(queue, reverse=True)
        assert set(queue) <= {2, 4}
        ref_mult, ref_queue = reference_carry(sim.round["field"], ref_queue)
        assert (result.multiplier, queue) == (ref_mult, ref_queue)
        assert result.to_json()["carry"] == list(queue)
        state, dealer = result.state, result.next_dealer


@LIGHT
@given(simulations(rules="fudawiki"), st.booleans())
def test_declaring_each_dealt_hands_teyaku_by_name_scores_the_same_but_tobikomi(case, as_list):
    _, sim = case
    rules = profile("fudawiki")
    declared = {}
    for p, hand in sim.dealt.items():
        names = own_teyaku_groups(hand)
        if names:
            declared[p] = list(names) if as_list or len(names) > 1 else names[0]
    by_hand = dict(sim.round, hands=sim.dealt)
    both = dict(by_hand, teyaku=declared)
    by_name = {k: v for k, v in by_hand.items() if k != "hands"} | {"teyaku": declared}
    expected = score_dict(by_hand, rules=rules)
    assert score_dict(both, rules=rules).to_json() == expected.to_json()
    named = score_dict(by_name, rules=rules)
    # 飛び込み needs the dealt hand (TRADITIONAL §6); everything else is the same
    assert [p for p in named.payments if p.reason != "飛び込み"] == [p for p in expected.payments if p.reason != "飛び込み"]
    assert not any(p.reason == "飛び込み" for p in named.payments)
    for p, r in named.players.items():
        assert r.teyaku_all == expected.players[p].teyaku_all
        assert r.bonuses == tuple(b for b in expected.players[p].bonuses if b != "飛び込み")


def test_the_fudawiki_simulator_reaches_every_ending_of_section_4():
    """Fixed seeds, so the properties above are known to see them: several 下げ callers, a cancel,
    a 勝負 with a lone 下げ opponent, a played-out round with two or more callers, a 特殊役."""
    seen = Counter()
    for seed in range(1500):
        sim = simulate(random.Random(seed), stop_chance=0.0 if seed % 2 else 0.5, rules="fudawiki", cancel_chance=0.3)
        rnd = sim.round
        callers = [rnd["sage"]] if isinstance(rnd.get("sage"), str) else rnd.get("sage", [])
        ended = rnd.get("ended_by")
        seen["several callers"] += len(callers) >= 2
        seen["cancel"] += rnd.get("ended_how") == "cancel"
        seen["lone 下げ opponent"] += bool(ended) and rnd.get("ended_how") != "cancel" and len(set(callers) - {ended}) == 1
        seen["played out, several callers"] += sim.played_out and len(callers) >= 2
        seen["特殊役"] += reference_settlement_fudawiki(rnd)["kind"] == "特殊役"
    assert all(seen[k] for k in ("several callers", "cancel", "lone 下げ opponent", "played out, several callers", "特殊役")), seen


HANDS = st.lists(st.sampled_from(range(48)), min_size=7, max_size=7, unique=True)


@settings(max_examples=500, deadline=None)
@given(HANDS)
def test_the_engines_fudawiki_teyaku_equal_the_simulators(ix):
    hand = [DECK_CODES[i] for i in ix]
    assert teyaku_all(parse_cards(" ".join(hand)), profile("fudawiki")) == own_teyaku_groups(hand)
