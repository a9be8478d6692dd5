"""Invariants over simulated rounds (tests/simulator.py) and the card notation, with hypothesis."""

import random
from collections import Counter

from helpers import mon, net_of_payments
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simulator import DECK as DECK_CODES
from simulator import (
    Simulation,
    month,
    own_dekiyaku,
    own_teyaku,
    pile_points,
    reference_settlement,
    simulate,
)

from scorekeeper.cards import DECK
from scorekeeper.notation import format_cards, format_compact, parse_cards
from scorekeeper.scoring import Round, score, score_dict

PROFILE = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: for the extra properties beyond the invariants
LIGHT = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: three players in play order, from names of several scripts
PLAYER_NAMES = st.permutations(["Aki", "Ben", "Chie", "Dan", "花子", "親", "Mr. 0", "Ünal"]).map(lambda names: names[:3])


@st.composite
def simulations(draw) -> Simulation:
    """A round dealt and played to its end by the simulator."""
    seed = draw(st.integers(min_value=0, max_value=2**64 - 1))
    players = draw(PLAYER_NAMES)
    stop_chance = draw(st.sampled_from([0.0, 0.3, 0.5, 0.8, 1.0]))
    return simulate(random.Random(seed), players, stop_chance=stop_chance)


@PROFILE
@given(simulations())
def test_scoring_a_simulated_round_never_raises(sim):
    result = score_dict(sim.round)
    assert not result.redeal
    if "sage" in sim.round or "ended_by" in sim.round:
        assert result.kind == "出来役"
    else:
        assert result.kind in ("札", "特殊役")
    if result.kind != "特殊役":
        assert all(r.special == () for r in result.players.values())


@PROFILE
@given(simulations())
def test_the_three_results_sum_to_zero(sim):
    result = score_dict(sim.round)
    assert len(result.players) == 3
    assert sum(mon(result).values()) == 0


@PROFILE
@given(simulations())
def test_received_minus_paid_is_each_players_result(sim):
    result = score_dict(sim.round)
    assert net_of_payments(result) == mon(result)
    out = result.to_json()
    net = Counter()
    for pay in out["payments"]:
        net[pay["to"]] += pay["mon"]
        net[pay["from"]] -= pay["mon"]
    assert {p: net[p] for p in out["players"]} == {p: r["mon"] for p, r in out["players"].items()}


@PROFILE
@given(simulations())
def test_a_played_out_rounds_piles_hold_48_cards_and_264_points(sim):
    result = score_dict(sim.round)
    if sim.played_out:
        assert sum(len(pile) for pile in sim.round["captured"].values()) == 48
        assert sum(r.card_points for r in result.players.values()) == 264
    else:  # ended by a 出来役, at the latest on the last capture
        assert sum(len(pile) for pile in sim.round["captured"].values()) <= 48


@PROFILE
@given(simulations())
def test_payments_are_positive_whole_mon_between_two_players(sim):
    result = score_dict(sim.round)
    players = set(sim.round["players"])
    for pay in result.payments:
        assert type(pay.mon) is int and pay.mon > 0
        assert pay.mon % result.multiplier == 0
        assert pay.payer in players and pay.payee in players and pay.payer != pay.payee
        assert pay.reason


@PROFILE
@given(simulations())
def test_the_next_dealer_has_the_highest_result(sim):
    result = score_dict(sim.round)
    results = mon(result)
    best = max(results.values())
    assert results[result.next_dealer] == best
    if results[sim.round["dealer"]] == best:
        assert result.next_dealer == sim.round["dealer"]


@PROFILE
@given(simulations())
def test_the_engine_agrees_with_the_reference_settlement(sim):
    result = score_dict(sim.round)
    expected_mon, expected_dealer = reference_settlement(sim.round)
    assert mon(result) == expected_mon
    assert result.next_dealer == expected_dealer
    for p, r in result.players.items():
        assert set(r.dekiyaku) == own_dekiyaku(sim.piles[p])  # shown even where they earn nothing
        assert r.card_points == pile_points(sim.piles[p])
        if p in sim.round.get("hands", {}):
            assert r.teyaku == own_teyaku(sim.dealt[p])  # shown even where void
        else:
            assert r.teyaku is None


@PROFILE
@given(simulations())
def test_the_simulator_deals_and_captures_by_the_rules(sim):
    assert sorted(len(h) for h in sim.dealt.values()) == [7, 7, 7]
    field = sim.round["field"]
    assert len(field) == 6 and max(Counter(month(c) for c in field).values()) < 4  # no 場四
    dealt = Counter(field) + Counter(c for h in sim.dealt.values() for c in h)
    assert dealt <= Counter(DECK_CODES) and sum(dealt.values()) == 27  # 21 left for the stock
    for pile in sim.piles.values():
        assert all(n in (2, 4) for n in Counter(month(c) for c in pile).values())
    holders = {p for p, pile in sim.piles.items() if own_dekiyaku(pile)}
    assert holders <= {sim.round.get("sage"), sim.round.get("ended_by")}


@LIGHT
@given(simulations(), st.data())
def test_null_optional_keys_are_the_keys_absent(sim, data):
    with_nulls = dict(sim.round)
    for key in ("hands", "teyaku", "sage", "ended_by"):
        if key not in with_nulls and data.draw(st.booleans()):
            with_nulls[key] = None
    assert score_dict(with_nulls).to_json() == score_dict(sim.round).to_json()


@LIGHT
@given(simulations())
def test_declaring_each_dealt_hands_teyaku_by_name_scores_the_same(sim):
    declared = {p: own_teyaku(h) for p, h in sim.dealt.items() if own_teyaku(h)}
    by_hand = dict(sim.round, hands=sim.dealt)
    by_name = {k: v for k, v in sim.round.items() if k != "hands"}
    by_name["teyaku"] = declared
    both = dict(by_hand, teyaku=declared)
    expected = score_dict(by_hand).to_json()
    assert score_dict(by_name).to_json() == expected
    assert score_dict(both).to_json() == expected


@LIGHT
@given(simulations())
def test_a_round_written_back_out_scores_the_same(sim):
    rnd = Round.from_dict(sim.round)
    again = Round.from_dict(rnd.to_dict())
    assert score(again).to_json() == score(rnd).to_json()


# --- the notation ---------------------------------------------------------------------------

SUBDECKS = st.lists(st.sampled_from(range(48)), unique=True, max_size=48).map(lambda ix: [DECK[i] for i in ix])


@settings(max_examples=300, deadline=None)
@given(SUBDECKS)
def test_format_cards_parses_back_to_the_same_cards(cards):
    assert Counter(parse_cards(format_cards(cards))) == Counter(cards) if cards else format_cards(cards) == ""


@settings(max_examples=300, deadline=None)
@given(SUBDECKS)
def test_format_compact_parses_back_to_the_same_cards(cards):
    text = format_compact(cards)
    if not cards:
        assert text == ""
        return
    assert Counter(parse_cards(text)) == Counter(cards)
    assert len(text.split()) == len({c.month for c in cards})


_FULL_WIDTH = {ord(c): ord(c) + 0xFEE0 for c in "0123456789hrtkHRTK*"}


@settings(max_examples=300, deadline=None)
@given(SUBDECKS.filter(bool), st.sampled_from(["upper", "full", "names", "commas"]))
def test_any_way_of_writing_the_cards_parses_to_the_same_cards(cards, style):
    if style == "upper":
        text = format_compact(cards).upper()
    elif style == "full":
        text = format_cards(cards).translate(_FULL_WIDTH)
    elif style == "names":
        text = " ".join(c.ja for c in cards)
    else:
        text = "、".join(c.code for c in cards)
    assert Counter(parse_cards(text)) == Counter(cards)
