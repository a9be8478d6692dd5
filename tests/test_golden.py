"""Golden rounds: whole round files and the exact `score --json` object each must give.

Every expected file was checked by hand against RULES.md; the sums are noted here so a reader can
redo them:
- plain-teyaku: CONTRACT.md §4's example. 大場 ×2; Ben's 三本 20 → 40 from each; 札 Aki +16, Ben −16.
- early-dekiyaku: 絶場 ×4; Chie stops with 猪鹿蝶 70 → 280 from each; no card points.
- sage-stops: 絶場 ×4; Ben 下げ after 赤短, stops with 青短: 140 in full → 560 from each.
- sage-played-out: 小場; Aki 下げ with 猪鹿蝶, played out: 70 halved → 35 from each.
- sage-overtaken: 小場; Ben 下げ with 赤短, Chie ends with 猪鹿蝶: Ben alone pays 2 × 70 = 140;
  Aki's 赤 30 from each. Aki +60, Ben −30 −140 = −170, Chie −30 +140 = +110.
- special-sujiroku: Chie holds 17 kasu → 120 + 20 = 140 from each; her 短一 is void.
- special-nihachi: Ben 170 points → 100 + 2 × 10 = 120 from each.
- special-sohachi: all three piles 88 → 総八 100 from each to the 親 Chie.
- declared-teyaku: Aki 赤 30, Chie 三本 20, 札 +21/−15/−6 → Aki 61, Ben −65, Chie 4.
- bashi: four 菊 on the field → redeal, nothing scored, the 親 deals again.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scorekeeper.cli import app
from scorekeeper.scoring import score_dict

from scorekeeper.rules import profile

#: one folder per rule profile: tests/golden/<profile>/<case>.round.json and .expected.json
GOLDEN_ROOT = Path(__file__).parent / "golden"
GOLDEN = GOLDEN_ROOT / "sdin"
CASES = sorted(p.name[: -len(".round.json")] for p in GOLDEN.glob("*.round.json"))
ALL_CASES = sorted(
    (d.name, p.name[: -len(".round.json")]) for d in GOLDEN_ROOT.iterdir() if d.is_dir()
    for p in d.glob("*.round.json")
)


def load(name: str, suffix: str, rules: str = "sdin"):
    return json.loads((GOLDEN_ROOT / rules / f"{name}.{suffix}.json").read_text(encoding="utf-8"))


def test_every_kind_of_round_has_a_golden_file():
    assert {"plain-teyaku", "early-dekiyaku", "sage-stops", "sage-played-out", "sage-overtaken",
            "special-sujiroku", "special-nihachi", "special-sohachi", "bashi"} <= set(CASES)


@pytest.mark.parametrize("rules,name", ALL_CASES)
def test_golden_round_scores_exactly(rules, name):
    expected = load(name, "expected", rules)
    assert expected["profile"] == rules
    assert score_dict(load(name, "round", rules), rules=profile(rules)).to_json() == expected


def test_golden_rounds_through_the_cli_one_line_each_in_order():
    files = [str(GOLDEN / f"{n}.round.json") for n in CASES]
    result = CliRunner().invoke(app, ["score", "--json", *files])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [json.loads(line) for line in lines] == [load(n, "expected") for n in CASES]
    assert all(": " not in line and ", " not in line for line in lines)  # compact


def test_samples_bundled_with_the_repo_match_the_goldens():
    samples = Path(__file__).parent.parent / "samples"
    for name in CASES:
        sample = samples / f"{name}.json"
        if sample.exists():
            assert json.loads(sample.read_text(encoding="utf-8")) == load(name, "round")
