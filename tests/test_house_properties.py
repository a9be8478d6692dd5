"""TRADITIONAL §11 with hypothesis: random nights of 3 to 7 under every house switch at once.

Nights dealt and played by tests/simulator.py (random drops, two-player rounds, 出来役 ended by
勝負 or cancel, played out), a seventh seat holding the 白札 now and then, a みずてん declared, and
each 出来役 or 飛び込み that can be liable given a feeder at random. The invariants: the players'
mon plus what went into the pot sum to zero; for each player received − paid is their mon; a
played-out round of three still holds 264 points; the 白札's holder pays and is paid nothing;
and the night's totals plus its pot are zero.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simulator import simulate_seated

from scorekeeper import house, night
from scorekeeper.catalog import LIABLE
from scorekeeper.scoring import POT, START, score_dict

NIGHTS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEATS = ["Aki", "Ben", "Chie", "Dan", "花子", "Ünal"]
STANDING = {"二立三本": "二三本", "三本立三本": "二三本"}


def profile(mizuten: str, flat: bool) -> house.Rules:
    switches = {"liability": True, "mizuten": mizuten, "standing_three_pairs": False}
    if flat:
        switches.update(drop_fee="flat", forced_out_pay="flat", forced_out_paid_by="all")
    return house.from_data({"base": "fudawiki", "name": f"all-{mizuten}-{int(flat)}", **switches})


def _without_standing_pairs(rnd: dict) -> None:
    """A declared 二立三本 or 三本立三本 is 二三本 on a table that does not play them (§11.4)."""
    for p, names in list(rnd.get("teyaku", {}).items()):
        rnd["teyaku"][p] = ([STANDING.get(n, n) for n in names] if isinstance(names, list)
                            else STANDING.get(names, names))


@st.composite
def nights(draw):
    seed = draw(st.integers(min_value=0, max_value=2**64 - 1))
    n = draw(st.integers(min_value=3, max_value=6))
    players = draw(st.permutations(SEATS))[:n]
    seven = n == 6 and draw(st.booleans())
    rules = profile(draw(st.sampled_from(["fudawiki", "flat"])), draw(st.booleans()))
    drop_chance = draw(st.sampled_from([0.0, 0.3, 0.6, 1.0]))
    stop_chance = draw(st.sampled_from([0.0, 0.5, 1.0]))
    length = draw(st.integers(min_value=1, max_value=6))
    rng = random.Random(seed)
    seated = list(players)
    blank_at = rng.randrange(7) if seven else None
    if seven:
        seated.insert(blank_at, "Gen")
    dealer = players[0]
    rounds, state = [], START
    for _ in range(length):
        sim = simulate_seated(rng, players, dealer, drop_chance=drop_chance, stop_chance=stop_chance)
        rnd = dict(sim.round)
        _without_standing_pairs(rnd)
        if seven:
            rnd["players"], rnd["blank"] = seated, "Gen"
        vols = sim.volunteers
        if vols and rng.random() < 0.6:
            if rules.mizuten.by_pile:
                if vols[0] == dealer:
                    rnd["mizuten"] = True
            else:
                rnd["mizuten"] = rng.choice(vols)
        first = score_dict(rnd, rules=rules, state=state)
        liable: dict = {}
        playing = first.round.playing
        if len(playing) == 3:
            for p in playing:
                paid = [y for y in (*first.players[p].dekiyaku, *first.players[p].bonuses)
                        if y in LIABLE and (p, y) in first.earned and (y == "飛び込み" or p == first.round.ended_by)]
                for y in paid:
                    if rng.random() < 0.7:
                        liable.setdefault(p, {})[y] = rng.choice([o for o in playing if o != p])
        if liable:
            rnd["liable"] = liable
        result = score_dict(rnd, rules=rules, state=state)
        rounds.append((rnd, result, state))
        dealer, state = result.next_dealer, result.state
    session = {"id": "s", "name": "night", "players": seated, "dealer": players[0], "profile": rules.to_dict(),
               "rounds": [{"round": r, "rules": rules.name} for r, _res, _st in rounds], "planned_rounds": 12,
               "rate": None}
    return session, rounds


@NIGHTS
@given(nights())
def test_every_round_is_zero_sum_with_the_pot_and_its_ledger_is_its_results(case):
    _session, rounds = case
    for _rnd, result, before in rounds:
        net = {p: 0 for p in [*result.players, POT]}
        for x in result.payments:
            assert x.mon > 0
            net[x.payer] -= x.mon
            net[x.payee] += x.mon
        assert {p: net[p] for p in result.players} == {p: r.mon for p, r in result.players.items()}
        assert sum(r.mon for r in result.players.values()) + result.state.pot - before.pot == 0


@NIGHTS
@given(nights())
def test_a_played_out_round_of_three_holds_264_points(case):
    _session, rounds = case
    for _rnd, result, _before in rounds:
        rnd = result.round
        if len(rnd.playing) == 3 and rnd.played_out:
            assert sum(result.players[p].card_points for p in rnd.playing) == 264


@NIGHTS
@given(nights())
def test_the_blanks_holder_pays_and_is_paid_nothing(case):
    _session, rounds = case
    for rnd, result, _before in rounds:
        if "blank" in rnd:
            assert result.players["Gen"].role == "blank" and result.players["Gen"].mon == 0
            assert all("Gen" not in (x.payer, x.payee) for x in result.payments)


@NIGHTS
@given(nights())
def test_the_night_replays_as_scored_and_its_totals_plus_the_pot_are_zero(case):
    session, rounds = case
    results = night.replay(session)
    assert [r.to_json() for r in results] == [res.to_json() for _r, res, _s in rounds]
    totals = night.totals(results, session["players"])
    assert sum(totals.values()) + night.current_state(results).pot == 0


@NIGHTS
@given(nights())
def test_a_round_file_given_back_scores_the_same(case):
    session, rounds = case
    rules = house.Rules.from_dict(session["profile"])
    for _rnd, result, before in rounds:
        again = score_dict(result.round.to_dict(), rules=rules, state=before)
        assert again.to_json() == result.to_json()
