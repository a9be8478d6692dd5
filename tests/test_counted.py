"""A pile answered by its card points (issue 26): the round file's ``points`` and ``kasu``, the
entry's ``=95`` / ``95点``, and the money the same as with the cards wherever counting is allowed."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from entry_lines import Script, console, printed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simulator import simulate
from helpers import profile_of

from scorekeeper.cards import points, tally_low, tally_of
from scorekeeper.entry import RoundEntry
from scorekeeper.notation import parse_cards
from scorekeeper.questions import Form, Givens, Refused
from scorekeeper.rules import profile
from scorekeeper.scoring import Round, RoundError, score, score_dict

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
GOLDEN = Path(__file__).resolve().parent / "golden"
PLAYERS = ("Aki", "Ben", "Chie")


def sample(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def counted(data: dict, who, *, kasu: bool = True) -> dict:
    """``data`` with the piles of ``who`` given by their points (and kasu where 16 or more)."""
    out = copy.deepcopy(data)
    for p in who:
        pile = parse_cards(out["captured"].pop(p, []) or [])
        out.setdefault("points", {})[p] = points(pile)
        low = tally_low(tally_of(pile))
        if kasu and low >= 16:
            out.setdefault("kasu", {})[p] = low
    return out


def without_marks(result_json: dict) -> dict:
    for r in result_json["players"].values():
        r.pop("pile", None)
    return result_json


# -- the round file ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["night/01.json", "plain-teyaku.json", "special-nihachi.json",
                                  "special-sohachi.json", "special-sujiroku.json", "declared-teyaku.json"])
def test_a_played_out_round_with_counted_piles_pays_as_with_the_cards(name):
    data = sample(name)
    cards = score_dict(data).to_json()
    each = score_dict(counted(data, data["players"])).to_json()
    assert without_marks(each) == cards


def test_counted_piles_are_marked_in_json_and_uncounted_ones_are_not():
    data = sample("night/01.json")
    plain = score_dict(data).to_json()
    assert all("pile" not in r for r in plain["players"].values())
    one = score_dict(counted(data, ["Ben"])).to_json()
    assert one["players"]["Ben"]["pile"] == "counted"
    assert "pile" not in one["players"]["Aki"]


def test_a_round_file_keeps_its_counted_piles_and_kasu():
    data = counted(sample("special-sujiroku.json"), ["Chie"])
    rnd = Round.from_dict(data)
    again = rnd.to_dict()
    assert again["points"] == {"Chie": data["points"]["Chie"]} and again["kasu"] == {"Chie": 17}
    assert Round.from_dict(again) == rnd


def test_a_counted_pile_without_its_kasu_has_no_sujiroku():
    data = sample("special-sujiroku.json")
    assert score_dict(data).players["Chie"].special == ("素十六",)
    assert score_dict(counted(data, ["Chie"], kasu=False)).players["Chie"].special == ()


@pytest.mark.parametrize("change, where, words", [
    (lambda d: d["points"].update(Aki=90), "points", "264"),
    (lambda d: d["captured"].update(Ben=["1h", "1k"]), "points.Ben", "both"),
    (lambda d: d["points"].update(Ben=265), "points.Ben", "0 to 264"),
    (lambda d: d["points"].update(Ben="95"), "points.Ben", "0 to 264"),
    (lambda d: d.update(kasu={"Ben": 40}), "kasu.Ben", "kasu"),
])
def test_a_bad_counted_pile_is_one_line_naming_where(change, where, words):
    data = counted(sample("night/01.json"), ["Aki", "Ben"])
    change(data)
    with pytest.raises(RoundError) as e:
        Round.from_dict(data)
    assert e.value.where == where and words in str(e.value) and "\n" not in str(e.value)


def test_a_kasu_count_for_a_pile_given_by_cards_is_refused():
    data = sample("special-sujiroku.json")
    data["kasu"] = {"Chie": 17}
    with pytest.raises(RoundError) as e:
        Round.from_dict(data)
    assert e.value.where == "kasu.Chie"


def test_the_stopper_s_pile_can_t_be_counted():
    data = sample("early-dekiyaku.json")
    with pytest.raises(RoundError) as e:
        Round.from_dict(counted(data, [data["ended_by"]]))
    assert e.value.code == "counted"


def test_a_pile_whose_cards_make_tobikomi_can_t_be_counted():
    data = json.loads((GOLDEN / "fudawiki" / "tobikomi.round.json").read_text(encoding="utf-8"))
    with pytest.raises(RoundError) as e:
        Round.from_dict(counted(data, ["Chie"]), rules=profile("fudawiki"))
    assert e.value.where == "points.Chie" and "飛び込み" in str(e.value)


def _may_count(rnd: Round, player: str, rules) -> bool:
    """Counting is allowed: not a 出来役 holder's pile, nor one 飛び込み may follow from."""
    from scorekeeper.scoring import _three_no_four

    if player == rnd.ended_by or player in rnd.sage:
        return False
    return not ("飛び込み" in rules.bonuses and player in rnd.shown and _three_no_four(rnd.shown[player]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["sdin", "fudawiki"]), st.integers(0, 2**64 - 1), st.sampled_from([0.0, 0.3, 1.0]),
       st.lists(st.booleans(), min_size=3, max_size=3))
def test_a_round_entered_with_counted_piles_scores_as_with_its_cards(name, seed, stop, which):
    rules = profile(name)
    sim = simulate(random.Random(seed), PLAYERS, stop_chance=stop, rules=name)
    rnd = Round.from_dict(sim.round, rules=rules)
    if rnd.redeal:
        return
    who = [p for p, w in zip(PLAYERS, which) if w and _may_count(rnd, p, rules)]
    by_cards = score(rnd, rules).to_json()
    by_points = score(Round.from_dict(counted(sim.round, who), rules=rules), rules).to_json()
    assert without_marks(by_points) == by_cards


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*/*.round.json")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_golden_round_with_its_countable_piles_counted_gives_its_expected_result(path):
    rules = profile_of(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(path.with_name(path.name.replace(".round.", ".expected.")).read_text(encoding="utf-8"))
    rnd = Round.from_dict(data, rules=rules)
    if rnd.redeal:
        return
    who = [p for p in rnd.playing if _may_count(rnd, p, rules) and (data.get("captured") or {}).get(p)]
    got = without_marks(score(Round.from_dict(counted(data, who), rules=rules), rules).to_json())
    assert {k: got[k] for k in expected} == expected


# -- the entry -----------------------------------------------------------------------------------


def enter(lines, players=PLAYERS, dealer="Aki"):
    script, con = Script(lines), console()
    outcome = RoundEntry(players, dealer, script, con).run()
    return outcome, printed(con), script.prompts


def test_piles_typed_as_points_and_rest_score_as_the_cards():
    data = sample("night/01.json")
    lines = ["", " ".join(data["field"]), "", " ".join(data["hands"]["Ben"]), "", "", "", "=89", "35点", "rest", "",
             "y"]
    outcome, out, prompts = enter(lines)
    assert outcome.round_file["points"] == {"Aki": 89, "Ben": 35, "Chie": 140}
    assert outcome.result.to_json()["payments"] == score_dict(data).to_json()["payments"]
    assert "140 points, counted" in out
    assert any("素十六" in p for p in prompts)


def test_a_counted_pile_s_kasu_is_asked_for_sujiroku():
    data = sample("special-sujiroku.json")
    pts = {p: points(parse_cards(data["captured"][p])) for p in data["players"]}
    order = ["Chie", "Aki", "Ben"]
    lines = ["Chie", " ".join(data["field"]), " ".join(data["hands"]["Chie"]), "", "", "", ""]
    lines += [f"={pts[p]}" for p in order[:2]] + ["rest", "Chie 17", "y"]
    outcome, _, _ = enter(lines, dealer="Chie")
    assert outcome.round_file["kasu"] == {"Chie": 17}
    assert outcome.result.to_json()["payments"] == score_dict(data).to_json()["payments"]


def test_a_count_that_can_t_be_a_pile_is_refused_at_once():
    g = Givens(PLAYERS, "Aki")
    form = Form(g, {"field": "2t 3k 8h 8t 8k 10t", "ended": "", "sage": ""})
    with pytest.raises(Refused) as e:
        form.answer("pile:Aki", "=300")
    assert "0 to 264" in str(e.value.problem.message)


def test_counted_piles_short_of_264_say_each_pile_s_points():
    g = Givens(PLAYERS, "Aki")
    form = Form(g, {"field": "2t 3k 8h 8t 8k 10t", "ended": "", "sage": "", "pile:Aki": "=89", "pile:Ben": "=35"},
                {"Aki", "Ben"})
    with pytest.raises(Refused) as e:
        form.answer("pile:Chie", "=100")
    assert "224" in str(e.value.problem.message) and "Chie 100" in str(e.value.problem.message)


# -- marked in the book, show and stats ----------------------------------------------------------


def test_a_counted_pile_is_marked_in_score_show_and_stats(book_file, tmp_path):
    from fast_cli import FastRunner

    from scorekeeper.cli import app

    runner = FastRunner()
    data = counted(sample("night/01.json"), ["Aki", "Ben"])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    scored = runner.invoke(app, ["score", str(path)])
    assert scored.exit_code == 0 and "89 (counted)" in scored.stdout
    assert runner.invoke(app, ["new-session", "Aki", "Ben", "Chie"]).exit_code == 0
    assert runner.invoke(app, ["round", "--file", str(path)]).exit_code == 0
    shown = runner.invoke(app, ["show", "1"])
    assert "counted, not typed" in shown.stdout and "35 (counted)" in shown.stdout
    as_json = json.loads(runner.invoke(app, ["show", "1", "--json"]).stdout)
    assert as_json["file"]["points"] == {"Aki": 89, "Ben": 35}
    assert as_json["players"]["Aki"]["pile"] == "counted" and "pile" not in as_json["players"]["Chie"]
    me = json.loads(runner.invoke(app, ["stats", "--json"]).stdout)["players"]
    assert (me["Aki"]["counted"], me["Aki"]["typed"], me["Chie"]["counted"], me["Chie"]["typed"]) == (1, 0, 0, 1)
    assert "piles typed / counted / by name / not asked" in runner.invoke(app, ["stats"]).stdout
    named = {k: v for k, v in sample("early-dekiyaku.json").items() if k != "captured"}  # Chie stops: 猪鹿蝶
    named.update(dekiyaku={"Chie": "猪鹿蝶"}, unasked=["Aki", "Ben"])
    path.write_text(json.dumps(named), encoding="utf-8")
    assert runner.invoke(app, ["round", "--file", str(path)]).exit_code == 0
    me = json.loads(runner.invoke(app, ["stats", "--json"]).stdout)["players"]
    assert [(me[p]["typed"], me[p]["counted"], me[p]["named"], me[p]["unasked"]) for p in ("Aki", "Ben", "Chie")] == [
        (0, 1, 0, 1), (0, 1, 0, 1), (1, 0, 1, 0)]  # by name, not asked: no longer counted


# -- a round ended by a 出来役 asks only what pays -------------------------------------------------


def test_a_round_ended_by_a_dekiyaku_asks_only_the_enders_pile_and_pays_the_same():
    data = sample("early-dekiyaku.json")  # 親 Ben; Chie stops with 猪鹿蝶
    lines = ["Ben", " ".join(data["field"]), "", "", "", "", "Chie", "猪鹿蝶", "y"]
    outcome, out, prompts = enter(lines, dealer="Ben")
    assert [p.split()[1] for p in prompts if p.startswith("札")] == ["Chie:"]
    assert outcome.round_file["dekiyaku"] == {"Chie": "猪鹿蝶"}
    assert sorted(outcome.round_file["unasked"]) == ["Aki", "Ben"]
    assert outcome.result.to_json()["payments"] == score_dict(data).to_json()["payments"]
    assert "not asked" in out
    assert outcome.result.to_json()["players"]["Aki"]["pile"] == "unasked"


def test_an_overtaken_sage_callers_pile_is_not_asked():
    data = sample("sage-overtaken.json")  # Ben 下げ with 赤短, Chie ends with 猪鹿蝶
    dealer = data["dealer"]
    seats = [data["players"][(data["players"].index(dealer) + i) % 3] for i in range(3)]
    hands = [" ".join(data["hands"][p]) if p in data.get("hands", {}) else "" for p in seats]
    lines = [dealer, " ".join(data["field"]), *hands, "Ben", "Chie", "inoshikacho", "y"]
    outcome, _, prompts = enter(lines, dealer=dealer)
    assert [p for p in prompts if p.startswith("札")] and len([p for p in prompts if p.startswith("札")]) == 1
    assert outcome.result.to_json()["payments"] == score_dict(data).to_json()["payments"]


def test_the_ending_is_asked_as_play_goes_sage_first():
    prompts = enter(["", "2t 3k 8h 8t 8k 10t", "", "", "", "", "", "=89", "=35", "rest", "", "y"])[2]
    asked = [p.split()[0] for p in prompts]
    assert asked.index("下げ") < asked.index("ended")


@pytest.mark.parametrize("change, where", [
    (lambda d: d.update(dekiyaku={"Aki": "猪鹿蝶"}), "dekiyaku.Aki"),  # Aki did not end it
    (lambda d: d.update(dekiyaku={"Chie": "三本"}), "dekiyaku.Chie"),  # no 出来役
    (lambda d: d.update(dekiyaku={"Chie": ["五光", "四光"]}), "dekiyaku.Chie"),  # 四光 is inside 五光
    (lambda d: d.update(unasked=["Chie"]), "unasked"),  # the ender's pile pays
])
def test_a_bad_named_or_unasked_pile_is_one_line_naming_where(change, where):
    data = sample("early-dekiyaku.json")
    data["captured"] = {}
    data["dekiyaku"] = {"Chie": "猪鹿蝶"}
    change(data)
    with pytest.raises(RoundError) as e:
        Round.from_dict(data)
    assert e.value.where == where and "\n" not in str(e.value)


def test_unasked_piles_are_refused_in_a_played_out_round():
    data = counted(sample("night/01.json"), ["Aki", "Ben"])
    data["unasked"] = ["Aki"]
    del data["points"]["Aki"]
    with pytest.raises(RoundError) as e:
        Round.from_dict(data)
    assert e.value.where == "unasked"


def test_under_fudawiki_a_pile_that_may_earn_nukeyaku_is_still_asked_in_a_stop_round():
    from scorekeeper.scoring import pile_needed

    rules = profile("fudawiki")
    assert pile_needed(rules, "Aki", "Chie", (), None, ("十一",)) == "points"
    assert pile_needed(rules, "Aki", "Chie", (), None, ("光一",)) is None
    assert pile_needed(profile("sdin"), "Aki", "Chie", (), None, ("十一",)) is None
