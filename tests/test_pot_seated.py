"""CONTRACT §7: a ``pot`` that is not a whole number ≥ 0, or a non-zero ``pot`` with three seated
(nobody can drop, so no pot can have formed), is bad. The boundary, both sides."""

import json

import pytest
from fast_cli import FastRunner, one_line_error
from helpers import EXAMPLE_PILES, codes, played_out
from test_fudawiki_pot import P4, rf, three

from scorekeeper.cli import app
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import RoundError, score_dict

runner = FastRunner()
EX = {k: codes(v) for k, v in EXAMPLE_PILES.items()}


@pytest.mark.parametrize("rules", [SDIN, FUDAWIKI], ids=lambda r: r.name)
def test_pot_0_is_taken_with_three_seated(rules):
    result = score_dict(played_out(EXAMPLE_PILES, pot=0), rules=rules)
    assert result.state.pot == 0 and not any(p.reason == "pot" for p in result.payments)


@pytest.mark.parametrize("rules", [SDIN, FUDAWIKI], ids=lambda r: r.name)
@pytest.mark.parametrize("pot", [1, 10])
def test_pot_1_or_more_is_refused_with_three_seated(rules, pot):
    with pytest.raises(RoundError) as e:
        score_dict(played_out(EXAMPLE_PILES, pot=pot), rules=rules)
    assert e.value.where == "pot" and "three seated" in str(e.value)


def test_pot_1_is_taken_with_four_seated_and_goes_to_the_winner():
    result = score_dict(rf(P4, "Aki", three("Aki", "Ben", "Chie", EX), pot=1), rules=FUDAWIKI)
    assert result.winner == "Aki"
    assert [(p.payer, p.payee, p.mon) for p in result.payments if p.reason == "pot"] == [("pot", "Aki", 1)]


def test_score_refuses_a_pot_with_three_seated_in_one_line(tmp_path):
    ok, bad = tmp_path / "ok.json", tmp_path / "bad.json"
    ok.write_text(json.dumps(played_out(EXAMPLE_PILES, pot=0)), encoding="utf-8")
    bad.write_text(json.dumps(played_out(EXAMPLE_PILES, pot=1)), encoding="utf-8")
    assert runner.invoke(app, ["score", "--json", "--rules", "fudawiki", str(ok)]).exit_code == 0
    line = one_line_error(runner.invoke(app, ["score", "--json", "--rules", "fudawiki", str(bad)]))
    assert "bad.json" in line and "pot" in line and "three seated" in line
