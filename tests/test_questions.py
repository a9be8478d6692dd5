"""The round's question model (scorekeeper.questions) on its own, without any front.

Every step under sdin and fudawiki with 3 to 6 seated; what each step depends on (any order of
answers, as the phones give them); taking an answer back from every step; a pile complete only
when its player says so; what the round stands at (the multiplier carried and waiting, the fees,
the pot); who may answer; and a hypothesis test that no sequence of answers and take-backs
reaches a state the draft validator refuses without the model saying so.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import money
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import questions as q
from scorekeeper.check import check_draft
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import NightState, score_dict

from serve_helpers import answers_of, bundled_night
from simulator import simulate

PLAYERS = ("Aki", "Ben", "Chie")
GOLDEN = Path(__file__).parent / "golden" / "sdin"
FIELD = "2t 3k 8h 8t 8k 10t"  # 芒に月: 大場 ×2
ZEKKYO = "11h 2k 4r 6k 7t 9k"  # 柳に小野道風: 絶場 ×4
INOSHIKACHO = "6t 6r 7t 7k 10t 10r"  # and 6r 10r of 青短: with 9r 9k, 青短 too


def g3(**kw):
    return q.Givens(PLAYERS, kw.pop("dealer", "Aki"), **kw)


def keys(v):
    return [s.key for s in v.steps]


def status(v, key):
    return v.step(key).status


# ---------------------------------------------------------------------------------------------
# the steps in the table's order, for every profile and 3 to 6 seated


def test_three_seated_the_steps_in_the_tables_order():
    v = q.view(g3(dealer="Ben"), {})
    assert keys(v) == ["dealer", "field", "hand:Ben", "hand:Chie", "hand:Aki", "sage", "ended",
                       "pile:Ben", "pile:Chie", "pile:Aki"]
    assert status(v, "dealer") == "answered"  # the proposed 親 stands until another is answered
    assert status(v, "field") == "open" and status(v, "ended") == "open"
    assert all(status(v, f"pile:{p}") == "waiting" for p in PLAYERS)  # the field comes before the piles


@pytest.mark.parametrize("n", [4, 5, 6])
def test_four_to_six_seated_ask_the_seats_before_anything_of_who_plays(n):
    players = tuple("ABCDEF"[:n])
    g = q.Givens(players, "B", FUDAWIKI)
    v = q.view(g, {})
    assert keys(v) == ["dealer", "field", "seat:B"]  # the hands, ending and piles wait for the seating
    v = q.view(g, {"seat:B": "play", "seat:C": "drop", "seat:D": "play"})
    assert not v.settled and keys(v)[-1] == ("seat:E" if n > 4 else "seat:A")
    answers = {"seat:B": "play", "seat:C": "drop", "seat:D": "play", f"seat:{players[(4) % n]}": "play"}
    v = q.view(g, answers)
    assert v.settled and len(v.order) == 3 and v.order[0] == "B"
    forced = [p for p in v.seating.forced_out]
    assert keys(v)[-5:] == ["sage", "ended", *[f"pile:{p}" for p in v.order]]
    assert [k for k in keys(v) if k.startswith("hand:")] == [f"hand:{p}" for p in [*forced, *v.order]]


@pytest.mark.parametrize("rules", [SDIN, FUDAWIKI], ids=["sdin", "fudawiki"])
def test_cancel_is_asked_only_where_the_profile_has_it_and_the_ender_called(rules):
    g = g3(rules=rules)
    base = {"field": FIELD, "ended": "Aki", "sage": "Aki"}
    assert ("how" in keys(q.view(g, base))) == rules.cancel.allowed
    assert "how" not in keys(q.view(g, {**base, "sage": ""}))


def test_every_golden_round_answered_in_any_order_scores_as_its_file():
    for path in sorted(GOLDEN.glob("*.round.json")):
        data = json.loads(path.read_text("utf-8"))
        answers = answers_of(data)
        g = g3(dealer=data["dealer"])
        for seed in range(3):
            order = list(answers.items())
            random.Random(seed).shuffle(order)
            form = q.Form(g)
            for key, text in order:
                try:
                    form.answer(key, text, done=False)
                except q.NotAsked:  # not open yet (a pile before the field): answered later
                    pass
            for key, text in order:
                if not form.view().redeal:
                    form.answer(key, text, done=False)
            v = form.view()
            if v.redeal:
                assert v.result.redeal
                continue
            assert not v.complete  # every pile typed, none said complete
            for p in data["players"]:
                v = form.mark(p, True)
            assert v.complete, (path.name, v.missing)
            assert v.result.to_json() == score_dict(data).to_json()


@pytest.mark.parametrize("seed", range(30))
def test_a_simulated_round_of_four_to_six_answered_step_by_step_scores_as_its_file(seed):
    from simulator import simulate_seated

    players = tuple("ABCDEF"[: 4 + seed % 3])
    data = simulate_seated(random.Random(seed), players, players[seed % len(players)]).round
    dropped = set(data.get("dropped") or ())  # a dropped hand earns nothing, and is never asked
    data = {**data, **{k: {p: h for p, h in (data.get(k) or {}).items() if p not in dropped} for k in ("hands", "teyaku")}}
    g = q.Givens(players, data["dealer"], FUDAWIKI)
    form = q.Form(g)
    for key, text in seat_answers(data, players).items():
        v = form.answer(key, text)
    assert v.complete, v.missing
    assert money(v.result) == money(score_dict(data, rules=FUDAWIKI))


def seat_answers(data, players):
    """A round file of a night of 4–6 as the answers that type it, step by step."""
    g = q.Givens(tuple(players), data["dealer"], FUDAWIKI)
    dropped = set(data.get("dropped") or ())
    answers = {"field": " ".join(data["field"])}
    while True:
        v = q.view(g, answers)
        nxt = next((s for s in v.steps if s.status == "open"), None)
        if nxt is None:
            return answers
        kind, p = nxt.kind, nxt.player
        if kind == "seat":
            answers[nxt.key] = "drop" if p in dropped else "play"
        elif kind == "hand":
            hand = " ".join((data.get("hands") or {}).get(p) or [])
            name = (data.get("teyaku") or {}).get(p)
            name = " ".join(name) if isinstance(name, list) else name or ""
            answers[nxt.key] = " ".join(x for x in (hand, name) if x)
        elif kind == "ended":
            answers[nxt.key] = data.get("ended_by") or ""
        elif kind == "sage":
            sage = data.get("sage") or []
            answers[nxt.key] = " ".join([sage] if isinstance(sage, str) else sage)
        elif kind == "how":
            answers[nxt.key] = data.get("ended_how") or "勝負"
        elif kind == "pile":
            answers[nxt.key] = " ".join(data["captured"].get(p) or [])
        else:
            raise AssertionError(nxt.key)


# ---------------------------------------------------------------------------------------------
# what each step depends on


def test_a_pile_before_the_field_is_not_open_and_nothing_of_it_is_kept():
    form = q.Form(g3())
    with pytest.raises(q.NotAsked) as info:
        form.answer("pile:Aki", "1h 1k")
    assert "is not asked yet: first 場札 field" in str(info.value)
    assert "pile:Aki" not in form.answers


def test_before_the_seats_are_settled_the_ending_is_not_asked():
    """Behaviour 4: 2,000 characters posted as the ending before the seats: refused, nothing kept."""
    g = q.Givens(tuple("ABCD"), "A", FUDAWIKI)
    form = q.Form(g, {"field": FIELD})
    with pytest.raises(q.NotAsked) as info:
        form.answer("ended", "x" * 2000)
    assert "\n" not in str(info.value) and "how the round ended is not asked yet" in str(info.value)
    assert "ended" not in form.answers


def test_a_question_of_a_player_who_does_not_play_is_not_asked():
    g = q.Givens(tuple("ABCD"), "A", FUDAWIKI)
    form = q.Form(g, {"field": FIELD, "seat:A": "play", "seat:B": "drop", "seat:C": "play", "seat:D": "play"})
    for key in ("pile:B", "hand:B"):
        with pytest.raises(q.NotAsked) as info:
            form.answer(key, "1h 1k")
        assert "B does not play this round" in str(info.value)
    with pytest.raises(q.NoSuchQuestion):
        form.answer("pile:Zed", "1h")
    with pytest.raises(q.NoSuchQuestion):
        q.Form(g3()).answer("seat:Aki", "play")  # three seated: no seats


def test_a_changed_seat_sets_aside_what_no_longer_fits_and_brings_it_back():
    g = q.Givens(tuple("ABCD"), "A", FUDAWIKI)
    answers = {"field": FIELD, "seat:A": "play", "seat:B": "play", "seat:C": "play", "pile:C": "1h 1k"}
    v = q.view(g, answers)
    assert v.seating.forced_out == ("D",) and "pile:C" in v.keys
    v = q.view(g, {**answers, "seat:C": "drop", "seat:D": "play"})
    assert "pile:C" not in v.keys and "pile:D" in v.keys  # C's pile is not part of this round
    v = q.view(g, answers)
    assert v.step("pile:C").text == "1h 1k"  # and is there again when C plays again


# ---------------------------------------------------------------------------------------------
# a pile is complete when its player says so


def test_a_round_ended_by_a_dekiyaku_waits_for_the_stopper_to_say_the_pile_is_complete():
    """Behaviour 3: Ben stops with 猪鹿蝶; his six cards check out, but the round is not complete
    until he says so, and then 9r 9k (青短) count too: +280, not +140."""
    form = q.Form(g3(), {"field": "1k 2k 3k 4k 5k 12k", "hand:Aki": "", "hand:Ben": "", "hand:Chie": "",
                         "ended": "Ben", "sage": ""}, done={"Aki", "Chie"})
    form.answer("pile:Aki", "", done=True)
    form.answer("pile:Chie", "", done=True)
    v = form.answer("pile:Ben", INOSHIKACHO, done=False)
    assert not v.complete and v.result is None and v.step("pile:Ben").status == "typing"
    v = form.answer("pile:Ben", f"{INOSHIKACHO} 9r 9k", done=False)
    assert not v.complete
    v = form.mark("Ben", True)
    assert v.complete and v.result.mon("Ben") == 280


def test_a_tap_reopens_a_pile_said_complete():
    form = q.Form(g3(), {"field": FIELD})
    form.answer("pile:Aki", "1h 1k", done=True)
    assert form.view().step("pile:Aki").done
    v = form.answer("pile:Aki", "1h 1k 3h 3k", done=False)
    assert not v.step("pile:Aki").done and v.step("pile:Aki").status == "typing"


def test_an_odd_month_while_typing_is_soft_and_hard_once_said_complete():
    form = q.Form(g3(), {"field": FIELD})
    v = form.answer("pile:Aki", "1h", done=False)  # half a capture, mid-tapping: kept
    step = v.step("pile:Aki")
    assert step.problem.code == "odd" and step.soft and step.status == "typing"
    v = form.mark("Aki", True)
    step = v.step("pile:Aki")
    assert step.problem.code == "odd" and not step.soft and step.status == "refused"
    with pytest.raises(q.Refused):  # a terminal's whole answer with it is refused
        q.Form(g3(), {"field": FIELD}).answer("pile:Aki", "1h")


def test_a_card_in_two_piles_refuses_the_tap_even_while_both_are_typed():
    form = q.Form(g3(), {"field": FIELD})
    form.answer("pile:Aki", "1h", done=False)
    with pytest.raises(q.Refused) as info:
        form.answer("pile:Ben", "1h", done=False)
    assert info.value.problem.code == "deck" and info.value.problem.card == "1h"
    assert "pile:Ben" not in form.answers


def test_rest_waits_for_the_other_two_piles_and_then_is_the_deck_less_them():
    """Behaviour 2 (the model): rest, typed as any of its words, is rest: never a card named so."""
    data = json.loads((GOLDEN / "plain-teyaku.round.json").read_text("utf-8"))
    a = answers_of(data)
    last = f"pile:{[*q.order(g3(dealer=data['dealer']), {})][-1]}"
    for word in ("rest", "残り", "REST"):
        form = q.Form(g3(dealer=data["dealer"]), {k: v for k, v in a.items() if k != last and not k.startswith("pile:")})
        v = form.answer(last, word, done=False)
        assert v.step(last).rest and v.step(last).status == "waiting" and v.step(last).soft
        assert v.step(last).problem.code == "waits"
        for key in (k for k in a if k.startswith("pile:") and k != last):
            form.answer(key, a[key], done=True)
        v = form.view()
        assert v.step(last).rest and v.step(last).status == "answered" and v.complete
        assert v.result.to_json() == score_dict(data).to_json()


def test_rest_is_refused_where_the_round_was_not_played_out_by_three():
    form = q.Form(g3(), {"field": FIELD, "ended": "Aki"})
    with pytest.raises(q.Refused) as info:
        form.answer("pile:Chie", "rest")
    assert "rest is only for the last pile of a played-out round of three" in str(info.value)


# ---------------------------------------------------------------------------------------------
# who may answer


def test_only_players_who_play_are_offered_as_the_ender_or_a_sage_caller():
    """Behaviour 6: choices, the label's example and the answers taken; a number is still the seat's."""
    g = q.Givens(tuple("ABCD"), "A", FUDAWIKI)
    v = q.view(g, {"field": FIELD, "seat:A": "play", "seat:B": "drop", "seat:C": "play", "seat:D": "play"})
    ended = v.step("ended")
    assert [c.player for c in ended.choices if c.player] == ["A", "C", "D"]
    assert str(ended.label).endswith("1 A, 3 C, 4 D)")
    assert [c.player for c in v.step("sage").choices if c.player] == ["A", "C", "D"]
    form = q.Form(g, {"field": FIELD, "seat:A": "play", "seat:B": "drop", "seat:C": "play", "seat:D": "play"})
    with pytest.raises(q.Refused) as info:
        form.answer("ended", "2")  # seat 2 is B, who dropped
    assert str(info.value) == "B does not play this round: answer 1 A, 3 C, 4 D"
    assert form.answer("ended", "4").step("ended").value == "D"  # seat 4: D
    with pytest.raises(q.Refused):
        form.answer("sage", "C B")


def test_the_dealer_off_the_chain_needs_a_yes_naming_the_winner():
    g = g3(chain="Ben", dealer="Ben")
    choices = q.view(g, {}).step("dealer").choices
    assert [c.confirm is not None for c in choices] == [True, False, True]
    assert "Ben won the last round" in str(choices[0].confirm)


# ---------------------------------------------------------------------------------------------
# what the round stands at


def test_the_multiplier_shown_before_the_seats_is_the_one_the_round_pays():
    """Behaviour 5: 絶場 ×4 with a ×2 carried: ×2 (carried over), ×4 waiting, before play or drop."""
    g = q.Givens(tuple("ABCD"), "A", FUDAWIKI, NightState((2,), 0))
    before = q.view(g, {})
    assert str(before.stand.line()) == "×2 (carried over)"
    v = q.view(g, {"field": ZEKKYO})
    assert v.stand.multiplier == 2 and v.stand.waiting == (4,)
    assert str(v.stand.line()) == "絶場 (ぜつば) ×2 (carried over), ×4 waiting"
    assert not v.settled  # nobody has said play or drop yet
    played = q.view(g, {"field": ZEKKYO, "seat:A": "drop", "seat:B": "drop", "seat:C": "drop", "seat:D": "drop"})
    assert played.result.multiplier == 2 and played.result.state.carry == (4,)  # what was shown


def test_the_fees_of_those_who_dropped_and_the_pot_stand_before_play():
    g = q.Givens(tuple("ABCDE"), "A", FUDAWIKI, NightState((), 30))
    v = q.view(g, {"field": FIELD, "seat:A": "drop", "seat:B": "drop", "seat:C": "play", "seat:D": "play",
                   "seat:E": "play"})
    assert v.stand.fees == (("A", 20), ("B", 30))  # 1 and 1.5 kan × 10 × the field's ×2
    assert v.stand.pot == 30 + 20 + 30


def test_a_bashi_ends_the_questions_and_is_never_a_round_to_save():
    v = q.view(g3(), {"field": "1h 1r 1k 1k 2k 3k"})
    assert v.redeal and keys(v) == ["dealer", "field"] and v.result.redeal and v.round_file is not None


# ---------------------------------------------------------------------------------------------
# taking an answer back, from every step


def test_taking_back_each_answer_leaves_the_rest_and_answering_again_restores_the_round():
    data = json.loads((GOLDEN / "sage-stops.round.json").read_text("utf-8"))
    g = g3(dealer=data["dealer"])
    a = answers_of(data)
    full = q.Form(g, a, done=PLAYERS).view()
    assert full.complete
    for key in full.keys:
        form = q.Form(g, a, done=PLAYERS)
        v = form.answer(key, None)
        if key == "dealer":  # taken back, the proposed 親 stands again
            assert v.complete and v.step("dealer").value == data["dealer"]
            continue
        if key.startswith("pile:") and key[5:] != data["ended_by"]:  # typed, though the ending needs it not
            assert v.complete and money(v.result) == money(full.result)
            continue
        assert not v.complete and key in v.missing
        assert all(form.answers[k] == a[k] for k in a if k != key)  # nothing else is lost
        if key in a:
            v = form.answer(key, a[key], done=True)
            assert v.complete and v.result.to_json() == full.result.to_json()


# ---------------------------------------------------------------------------------------------
# the draft validator never refuses what the model took


def answer_text(draw, g, v):
    step = draw(st.sampled_from(v.steps))
    texts = [c.answer for c in step.choices] + ["", "rest", "zz", "1h 1k", "3h 3r", "9t 9k 9k"]
    cards = draw(st.lists(st.sampled_from(["1h", "1k", "2t", "3h", "3k", "8h", "8k", "8t", "9k", "11h", "12k"]),
                          max_size=8))
    texts.append(" ".join(cards))
    return step.key, draw(st.sampled_from(texts + [None]))


@st.composite
def sessions(draw):
    players = draw(st.sampled_from([PLAYERS, tuple("ABCD"), tuple("ABCDE")]))
    rules = FUDAWIKI if len(players) > 3 else draw(st.sampled_from([SDIN, FUDAWIKI]))
    g = q.Givens(players, players[0], rules)
    form = q.Form(g)
    steps = []
    for _ in range(draw(st.integers(1, 25))):
        key, text = answer_text(draw, g, form.view())
        done = draw(st.booleans())
        steps.append((key, text, done))
        try:
            form.answer(key, text, done=done)
        except (q.NotAsked, q.Refused):
            pass
    return g, form, steps


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_random_answers_and_take_backs_never_reach_a_state_the_validator_refuses_unsaid(session):
    g, form, _ = session
    v = form.view()
    verdict = check_draft(q.round_file(g, v.values), rules=g.rules, players=g.players)
    said = v.problems or [s.problem for s in v.steps if s.problem is not None]
    assert not verdict.problems or said, verdict.problems
    if v.complete:
        assert verdict.ok
        assert v.result.to_json() == score_dict(v.round_file, rules=g.rules).to_json()


def test_a_simulated_round_typed_by_the_form_scores_as_its_file():
    for seed in range(20):
        data = simulate(random.Random(seed)).round
        v = q.Form(g3(dealer=data["dealer"]), answers_of(data), done=PLAYERS).view()
        assert v.result is not None and v.result.to_json() == score_dict(data).to_json()


def test_the_view_model_is_plain_data():
    data = bundled_night()[2]
    v = q.Form(g3(dealer=data["dealer"]), answers_of(data), done=PLAYERS).view()
    out = json.loads(json.dumps(v.to_json(), ensure_ascii=False))
    assert out["complete"] and out["result"]["players"]
    pile = next(s for s in out["steps"] if s["key"] == "pile:Aki")
    assert pile["label"]["text"].startswith("札 Aki") and pile["status"] == "answered"
    assert out["stand"]["line"]["text"] == "大場 (おおば) ×2" or out["stand"]["line"]["text"].startswith(("小場", "大場", "絶場"))
