"""Asking only what the money needs (issue 26): the field by its 光 alone (round file
``field_given: "lights"``, typed ``=8h``, ``=`` for none), and a round played out after 下げ
asking only the callers' piles, by their 出来役's names if need be. The money never changes
with the way a round is given."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from entry_lines import Script, console, printed
from helpers import money
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simulator import simulate
from typer.testing import CliRunner

from scorekeeper.cli import app
from scorekeeper.entry import Aborted, RoundEntry
from scorekeeper.notation import parse_cards
from scorekeeper.rules import profile
from scorekeeper.scoring import NightState, Round, RoundError, nameable, pile_needed, score, score_dict

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PLAYERS = ("Aki", "Ben", "Chie")
runner = CliRunner()


def sample(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def by_lights(data: dict) -> dict:
    """``data`` with its field given by its 光 alone."""
    out = copy.deepcopy(data)
    out["field"] = [c.code for c in parse_cards(data["field"]) if c.points == 20]
    out["field_given"] = "lights"
    return out


def enter(lines, dealer="Aki"):
    script, con = Script(lines), console()
    outcome = RoundEntry(PLAYERS, dealer, script, con).run()
    return outcome, printed(con), script.prompts


# -- the field by its 光: the round file -------------------------------------------------------------


@pytest.mark.parametrize("lights, field_class, multiplier", [
    ([], "小場", 1), (["8h"], "大場", 2), (["1h", "3h"], "大場", 2), (["11h"], "絶場", 4), (["3h", "12h"], "絶場", 4),
])
def test_a_field_given_by_its_lights_has_their_class(lights, field_class, multiplier):
    data = {**sample("night/01.json"), "field": lights, "field_given": "lights", "hands": {}}  # no 光 in a hand
    result = score_dict(data).to_json()
    assert (result["field_class"], result["multiplier"], result["field_given"]) == (field_class, multiplier, "lights")


@pytest.mark.parametrize("name", ["sdin", "fudawiki", "stack", "carry"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), waiting=st.lists(st.sampled_from([2, 4]), max_size=3))
def test_a_field_given_by_its_lights_pays_as_its_six_cards(name, seed, waiting):
    """Each field mode (TRADITIONAL §8) reads only the field's 光: what is paid and what waits
    after is the same with the six cards or the 光 alone, whatever waits before."""
    base = profile("fudawiki" if name != "sdin" else "sdin")
    rules = base._replace(field=name) if name in ("stack", "carry") else base
    sim = simulate(random.Random(seed), PLAYERS, rules=base.name)
    six = Round.from_dict(sim.round, rules=rules)
    if six.redeal:
        return
    state = NightState(carry=tuple(sorted(waiting, reverse=True)) if rules.field.carries else ())
    lit = Round.from_dict(by_lights(sim.round), rules=rules)
    assert money(score(lit, rules, state)) == money(score(six, rules, state))
    assert score(lit, rules, state).state == score(six, rules, state).state


def test_six_cards_are_still_needed_without_field_given():
    data = {**sample("night/01.json"), "field": ["8h"]}
    with pytest.raises(RoundError) as e:
        Round.from_dict(data)
    assert e.value.where == "field" and "not 6" in str(e.value)


@pytest.mark.parametrize("change, where, words", [
    (lambda d: d.update(field=["8h", "3k"]), "field", "3k 桜のカス is not a 光"),
    (lambda d: d.update(field_given="cards"), "field_given", "must be 'lights' or absent"),
    (lambda d: d.update(field=["8h", "8h"]), "field and hands", "2 × 8h"),
])
def test_a_bad_field_by_its_lights_is_one_line_naming_where(change, where, words):
    data = {**sample("night/01.json"), "field": ["8h"], "field_given": "lights"}
    change(data)
    with pytest.raises(RoundError) as e:
        Round.from_dict(data)
    assert e.value.where == where and words in str(e.value) and "\n" not in str(e.value)


def test_a_field_by_its_lights_is_kept_and_said_by_score(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(by_lights(sample("night/01.json"))), encoding="utf-8")
    shown = runner.invoke(app, ["score", str(path)])
    assert shown.exit_code == 0 and "光 only: 8h 芒に月" in shown.stdout
    as_json = json.loads(runner.invoke(app, ["score", "--json", str(path)]).stdout)
    assert as_json["field_given"] == "lights" and as_json["field_class"] == "大場"
    plain = tmp_path / "p.json"
    plain.write_text(json.dumps(sample("night/01.json")), encoding="utf-8")
    assert "field_given" not in json.loads(runner.invoke(app, ["score", "--json", str(plain)]).stdout)
    bad = tmp_path / "b.json"
    bad.write_text(json.dumps({**by_lights(sample("night/01.json")), "field": ["8k"]}), encoding="utf-8")
    refused = runner.invoke(app, ["score", str(bad)])
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "8k 芒のカス is not a 光" in refused.stderr


# -- the field by its 光: the entry --------------------------------------------------------------


def test_the_field_typed_as_its_lights_scores_as_its_six_cards():
    data = sample("night/01.json")  # 2t 3k 8htk 10t: 芒に月, 大場
    lines = ["", "=8h", "", "sanbon", "", "", "", "89", "35", "rest", "", "y"]
    outcome, out, prompts = enter(lines)
    assert prompts[1] == "場札 the six field cards, or = and its 光 alone: "
    assert outcome.round_file["field"] == ["8h"] and outcome.round_file["field_given"] == "lights"
    assert money(outcome.result) == money(score_dict(data))
    assert "光 only: 8h 芒に月" in out and "大場 (おおば) ×2" in out


def test_a_field_of_no_lights_is_one_equals_sign():
    outcome, out, _ = enter(["", "=", "", "", "", "", "", "89", "35", "rest", "", "y"])
    assert outcome.round_file["field"] == [] and outcome.result.multiplier == 1
    assert "no 光 (its cards not typed)" in out


def test_a_card_that_is_not_a_light_after_the_equals_sign_is_asked_again():
    outcome, out, prompts = enter(["", "=8h 8t", "=8h", "", "", "", "", "", "89", "35", "rest", "", "y"])
    assert "✗ 8t 芒に雁 is not a 光: after =, type only the field's 光" in out
    assert prompts[2].startswith("場札") and outcome.round_file["field"] == ["8h"]


def test_the_field_s_help_says_the_lights_may_be_typed_alone():
    script, con = Script(["", "?"]), console()
    with pytest.raises(Aborted):  # the input ends after the help
        RoundEntry(PLAYERS, "Aki", script, con).run()
    assert "= and the 光 alone: =8h, =1h 11h, or = for none (小場)" in printed(con).replace("\n", " ")


def test_edit_offers_a_field_given_by_its_lights_as_typed(book_file, tmp_path):
    assert runner.invoke(app, ["new-session", *PLAYERS]).exit_code == 0
    path = tmp_path / "r.json"
    path.write_text(json.dumps(by_lights(sample("night/01.json"))), encoding="utf-8")
    assert runner.invoke(app, ["round", "--file", str(path)]).exit_code == 0
    edited = runner.invoke(app, ["edit", "1"], input="\n" * 14)
    assert edited.exit_code == 0, edited.output
    assert "場札 the six field cards, or = and its 光 alone [=8h]: " in edited.stdout
    assert "no result changed" in edited.stdout


# -- 下げ, played out: only the callers' piles ------------------------------------------------------


def test_played_out_after_sage_only_the_caller_s_pile_is_needed():
    sdin, fw = profile("sdin"), profile("fudawiki")
    assert pile_needed(sdin, "Aki", None, ("Aki",), None, ()) == "dekiyaku"
    assert pile_needed(sdin, "Ben", None, ("Aki",), None, ()) is None
    assert pile_needed(sdin, "Ben", None, (), None, ()) == "points"  # no 下げ: every pile's points pay
    assert pile_needed(fw, "Ben", None, ("Aki", "Ben"), None, ()) == "dekiyaku"
    assert pile_needed(fw, "Chie", None, ("Aki", "Ben"), None, ("十一",)) == "points"  # 抜け役 reads them
    assert pile_needed(fw, "Chie", None, ("Aki", "Ben"), None, ("光一",)) is None


def test_a_sage_round_played_out_with_the_caller_s_yaku_named_pays_as_its_cards():
    data = sample("sage-played-out.json")  # Aki 下げ with 猪鹿蝶, played out: halved
    named = {k: v for k, v in data.items() if k != "captured"}
    named.update(dekiyaku={"Aki": "猪鹿蝶"}, unasked=["Ben", "Chie"])
    result = score_dict(named)
    assert money(result) == money(score_dict(data))
    assert [result.players[p].pile for p in PLAYERS] == ["named", "unasked", "unasked"]


def test_a_sage_round_played_out_asks_the_caller_s_pile_alone_at_the_entry():
    data = sample("sage-played-out.json")
    lines = ["", " ".join(data["field"]), "", "", "", "Aki", "", "inoshikacho", "y"]
    outcome, out, prompts = enter(lines)
    assert [p.split()[1] for p in prompts if p.startswith("札")] == ["Aki"]
    assert "the 出来役's names" in [p for p in prompts if p.startswith("札")][0]
    assert outcome.round_file["unasked"] == ["Ben", "Chie"] and "rest" not in " ".join(prompts)
    assert money(outcome.result) == money(score_dict(data))


@pytest.mark.parametrize("change, where", [
    (lambda d: d.update(points={"Aki": 124}), "points.Aki"),  # the caller's 出来役 can't be counted
    (lambda d: d.pop("sage"), "unasked"),  # no 下げ: every pile's points pay, none is left unasked
    (lambda d: d.update(dekiyaku={"Ben": "猪鹿蝶"}), "dekiyaku.Ben"),  # Ben neither ended nor called
])
def test_a_sage_round_played_out_refuses_what_can_t_be(change, where):
    data = sample("sage-played-out.json")
    data["captured"] = {"Aki": data["captured"]["Aki"]}
    data["unasked"] = ["Ben", "Chie"]
    change(data)
    if "points" in data:
        del data["captured"]["Aki"]
    with pytest.raises(RoundError) as e:
        Round.from_dict(data)
    assert e.value.where == where and "\n" not in str(e.value)


def test_every_pile_typed_in_a_sage_round_is_still_checked_to_48():
    data = sample("sage-played-out.json")
    data["captured"]["Chie"] = data["captured"]["Chie"][:-2]
    with pytest.raises(RoundError) as e:
        Round.from_dict(data)
    assert e.value.code == "incomplete"


def test_edit_keeps_a_pile_given_by_its_dekiyaku_s_names(book_file, tmp_path):
    """`edit` offers each answer as it was given: a named pile by its names (not an empty pile,
    which Enter would have saved as holding no 出来役), an unasked pile not at all."""
    assert runner.invoke(app, ["new-session", *PLAYERS]).exit_code == 0
    data = sample("early-dekiyaku.json")  # 親 Ben; Chie stops with 猪鹿蝶
    named = {k: v for k, v in data.items() if k not in ("captured",)}
    named.update(dekiyaku={"Chie": "猪鹿蝶"}, unasked=["Aki", "Ben"])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(named), encoding="utf-8")
    assert runner.invoke(app, ["round", "--file", str(path)]).exit_code == 0
    edited = runner.invoke(app, ["edit", "1"], input="\n" * 14)
    assert edited.exit_code == 0, edited.output
    assert "[猪鹿蝶]: " in edited.stdout and "no result changed" in edited.stdout


# -- every round, given in the fewest words, pays as given in full ---------------------------------


def fewest(data: dict, rules) -> dict:
    """``data`` as the entry now asks it: the field by its 光, each pile as
    :func:`pile_needed` says (a holder's by its 出来役's names where they can say it, a pile
    whose points pay by its points, none where nothing of it pays)."""
    rnd = Round.from_dict(data, rules=rules)
    out = by_lights(data)
    out["captured"] = {}
    for p in rnd.playing:
        need = pile_needed(rules, p, rnd.ended_by, rnd.sage, rnd.shown.get(p), rnd.declared.get(p))
        held = rnd.held_dekiyaku[p]
        if need == "dekiyaku" and held and set(held) <= set(nameable(rules)):
            out.setdefault("dekiyaku", {})[p] = list(held)
        elif need == "points":
            out.setdefault("points", {})[p] = rnd.card_points(p)
            if rnd.kasu_of(p) >= rules.sujiroku_from:
                out.setdefault("kasu", {})[p] = rnd.kasu_of(p)
        elif need is None:
            out.setdefault("unasked", []).append(p)
        else:
            out["captured"][p] = data["captured"][p]
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["sdin", "fudawiki"]), st.integers(0, 2**64 - 1), st.sampled_from([0.0, 0.3, 1.0]))
def test_a_round_given_in_the_fewest_words_pays_as_given_in_full(name, seed, stop):
    rules = profile(name)
    sim = simulate(random.Random(seed), PLAYERS, stop_chance=stop, rules=name)
    rnd = Round.from_dict(sim.round, rules=rules)
    if rnd.redeal:
        return
    short = Round.from_dict(fewest(sim.round, rules), rules=rules)
    assert money(score(short, rules)) == money(score(rnd, rules))


# -- the pile given by name: the choices every front draws -------------------------------------------


def _pile_step(rules, answers):
    from scorekeeper import questions as q

    v = q.view(q.Givens(PLAYERS, "Aki", rules), answers, ())
    return next(s for s in v.steps if s.key == "pile:Chie")


def test_the_stopper_s_pile_offers_each_dekiyaku_by_name_and_toggles_it():
    base = {"dealer": "Aki", "field": "=", "hand:Aki": "", "hand:Ben": "", "hand:Chie": "", "sage": "", "ended": "Chie"}
    s = _pile_step(profile("sdin"), base)
    assert [(dict(c.label.args)["name"], c.answer, c.on) for c in s.choices][:4] == [
        ("五光", "五光", False), ("四光", "四光", False), ("七短", "七短", False), ("赤短", "赤短", False)]
    assert s.need == "dekiyaku" and s.to_json()["need"] == "dekiyaku"
    s = _pile_step(profile("sdin"), {**base, "pile:Chie": "赤短"})
    by = {dict(c.label.args)["name"]: c for c in s.choices}
    assert by["赤短"].on and by["赤短"].answer == "" and by["青短"].answer == "赤短 青短"
    played_out = _pile_step(profile("sdin"), {**base, "ended": ""})
    assert played_out.choices == [] or all(c.label.id != "a.dekiyaku" for c in played_out.choices)
    assert played_out.need == "points"


def test_seven_ribbons_counted_by_their_ribbons_are_never_offered_by_name():
    from scorekeeper.scoring import nameable

    rules = profile("fudawiki")
    assert ("七短" in nameable(rules)) is (not rules.nanatan_plus.on)
    plus = rules._replace(nanatan_plus=True)
    assert "七短" not in nameable(plus) and "赤短" in nameable(plus)
    assert "七短" in nameable(profile("sdin"))


def test_a_dekiyaku_holder_whose_points_nukeyaku_reads_gives_the_cards():
    """TRADITIONAL §6: 抜け役 is paid in 出来役 rounds too, and reads the pile's points: the
    holder of a Group B 手役 (not 光一) gives the pile's cards, not its 出来役's names."""
    fw = profile("fudawiki")
    assert pile_needed(fw, "Ben", "Ben", (), None, ("十一",)) == "cards"
    assert pile_needed(fw, "Ben", "Ben", (), None, ("光一",)) == "dekiyaku"
    assert pile_needed(fw, "Ben", None, ("Ben",), None, ("十一",)) == "cards"
    assert pile_needed(profile("sdin"), "Ben", "Ben", (), None, ("十一",)) == "dekiyaku"  # no bonuses
    data = {"players": list(PLAYERS), "dealer": "Aki", "field": [], "field_given": "lights",
            "teyaku": {"Ben": "十一"}, "ended_by": "Ben", "dekiyaku": {"Ben": "青短"}, "unasked": ["Aki", "Chie"]}
    with pytest.raises(RoundError) as e:
        Round.from_dict(data, rules=fw)
    assert e.value.where == "dekiyaku.Ben" and "抜け役" in str(e.value)
    data["teyaku"] = {"Ben": "光一"}
    assert Round.from_dict(data, rules=fw).named == {"Ben": ("青短",)}


def test_an_overtaken_sage_caller_s_pile_counted_for_nukeyaku_is_not_refused_as_holding_none():
    """Found by the property above (seed 3006): under fudawiki Ben ends the round after Aki's 下げ;
    Aki's hand holds a Group B 手役, so Aki's points pay (抜け役) and may be counted. A count names
    no 出来役, so it is not refused as a 下げ caller's pile holding none, and pays as the cards."""
    full = {"players": list(PLAYERS), "dealer": "Ben", "field": ["10k", "6t", "12k", "7t", "3r", "11t"],
            "captured": {"Aki": ["5k", "5k", "9t", "9r", "10r", "10k", "11t", "11h", "6k", "6r", "5t", "5r", "12k", "12k"],
                         "Ben": ["1k", "1r", "3r", "3k", "7t", "7k", "1h", "1k", "2r", "2t"],
                         "Chie": ["6t", "6k", "8t", "8k", "2k", "2k", "10k", "10t", "4r", "4t", "12k", "12h", "3h", "3k"]},
            "hands": {"Aki": ["5k", "5r", "6k", "10r", "11k", "4k", "10k"], "Ben": ["4r", "1k", "2t", "8k", "9k", "1k", "1r"]},
            "sage": ["Aki"], "ended_by": "Ben"}
    fw = profile("fudawiki")
    short = {**full, "captured": {"Ben": full["captured"]["Ben"]}, "points": {"Aki": 76}, "unasked": ["Chie"]}
    assert money(score(Round.from_dict(short, rules=fw), fw)) == money(score(Round.from_dict(full, rules=fw), fw))


def test_a_pile_that_holds_no_dekiyaku_names_its_player_once_unquoted(tmp_path):
    """The line read `sage: 'Aki''s pile holds no 出来役`: a name quoted before its 's."""
    data = sample("sage-played-out.json")
    data["sage"] = "Ben"  # Ben's pile holds none
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    refused = runner.invoke(app, ["score", str(path)])
    assert refused.exit_code == 2
    assert refused.stderr.strip().endswith("sage: Ben's pile holds no 出来役"), refused.stderr


def test_choices_that_add_to_a_set_say_what_they_toggle():
    """A page works out a set's answer from its own taps (two taps before the first is answered
    both count): the model names the item each such choice toggles, and only there."""
    from scorekeeper import questions as q

    base = {"dealer": "Aki", "field": "=", "hand:Aki": "", "hand:Ben": "", "hand:Chie": ""}
    for name, many in (("sdin", False), ("fudawiki", True)):
        v = q.view(q.Givens(PLAYERS, "Aki", profile(name)), base, ())
        sage = next(s for s in v.steps if s.key == "sage").to_json()["choices"]
        assert [c.get("toggle") for c in sage] == [None, *(PLAYERS if many else (None,) * 3)]
    pile = _pile_step(profile("sdin"), {**base, "sage": "", "ended": "Chie"}).to_json()["choices"]
    assert [c["toggle"] for c in pile] == ["五光", "四光", "七短", "赤短", "青短", "猪鹿蝶"]
