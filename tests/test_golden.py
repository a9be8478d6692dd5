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

fudawiki (tests/golden/fudawiki/, TRADITIONAL.md; kan 10, so v kan = 10 v 文 before the multiplier):
- plain-teyaku-a-plus-b: 大場 ×2 (松に鶴). Ben's hand 1r 1k 1k 2r 3r 5k 8k: Group A 三本 (three 松)
  2 kan and Group B 赤 (three 短冊, four kasu) 2 kan → 20 × 2 = 40 from each, twice. 札: Aki
  (96 − 88) × 2 = +16, Ben −16, Chie 0. Aki −80 + 16 = −64, Ben 160 − 16 = 144, Chie −80. No bonus
  (Ben holds two 松, 80 points). Winner: the highest card points, Aki 96.
- shoubu-lone-sage-doubled: 絶場 ×4 (柳に小野道風). Ben called 下げ with 青短, Aki ends (勝負) with
  赤短 7 kan: Ben alone pays double, 2 × 70 × 4 = 560; Chie 0; Ben's 青短 earns nothing. Winner Aki.
- cancel-half: 小場 ×1. Aki and Ben called 下げ; Ben cancels: half his 青短, 70 / 2 = 35 from each of
  Aki and Chie (no doubling); Chie's declared 三本 20 from each. Aki −35 − 20 = −55, Ben 70 − 20 = 50,
  Chie 40 − 35 = 5. Winner Ben.
- played-out-two-holders: 大場 ×2. 下げ by Ben then Aki, played out: each holder is paid half by each
  opponent: Aki's 赤短 35 × 2 = 70 from Ben and Chie, Ben's 青短 70 from Aki and Chie. Aki 140 − 70 =
  70, Ben 70, Chie −140; no card points, no 特殊役. Winner Ben, the first 下げ caller.
- special-sohachi-over-sujiroku: every pile 88 (総八) and Aki's 16 kasu (素十六, 柳 counted): only
  the first, 総八, is paid: 10 kan = 100 from each to the 親 Ben. Aki's declared 空素 is void.
  Ben +200, Aki −100, Chie −100. Winner Ben.
- special-nihachi-over-sujiroku: 大場 ×2. Aki 169 points and 17 kasu: only 二八, 10 + 1 = 11 kan →
  110 × 2 = 220 from each; Ben's 三本 void. Aki 440, Ben −220, Chie −220. Winner Aki.
- tobikomi: 小場. Chie's hand 5t 5r 5k 12k 12k 12k 1h: two standing threes (菖蒲, the three 桐 kasu),
  二立三本 8 kan → 80 from each; her pile holds 5* and 12*: 飛び込み, once, 1 kan → 10 from each.
  札 Aki +8, Ben −8. Aki −80 + 8 − 10 = −82, Ben −80 − 8 − 10 = −98, Chie 160 + 20 = 180. Winner Aki 96.
- nukeyaku: 小場. Piles Aki 89, Ben 46, Chie 129. Aki's 十一 3 kan → 30 from each; Chie's 光一 4 kan →
  40 from each. 札: Aki +1, Ben −42, Chie +41. 抜け役: Aki (Group B 十一, 89 points) 10 from each;
  Chie's 光一 earns none at 129. Aki 60 − 40 + 1 + 20 = 41, Ben −30 − 40 − 42 − 10 = −122,
  Chie 80 − 30 + 41 − 10 = 81. Winner Chie, 129 points.
- carried-multiplier: carry [2, 4] read as [4, 2]; the field's 柳に小野道風 (×4, class 絶場) joins the
  queue. The round takes the largest waiting, ×4; the queue after is [2] + [4] = [4, 2]. Aki ends
  with 赤短: 70 × 4 = 280 from each.

fudawiki nights of 4 to 6 (TRADITIONAL §7; fee 1 kan, the n-th to drop pays 10 × (n + 1) / 2 × mult):
- five-two-drops: 小場 ×1, 親 Aki. Seats from Aki: Aki drops (1st, 10), Ben plays, Chie drops (2nd,
  15), Dan and Eri play; nobody is forced out; the round's 親 is Ben. Piles Ben 96, Dan 80, Eri 88:
  札 Dan pays Ben 8. Winner Ben (96) takes the pot 10 + 15 = 25. Aki −10, Ben 8 + 25 = 33, Chie −15,
  Dan −8, Eri 0; the sum is 0 and the pot ends at 0.
- five-two-drops-doubled: 大場 ×2, 親 Chie. Seats from Chie: Chie plays, Dan drops (1st, 10 × 2 =
  20), Eri drops (2nd, 15 × 2 = 30), Aki and Ben play. Piles Aki 96, Ben 80, Chie 88: 札 (96 − 88) × 2
  = 16 Ben to Aki. Aki wins and takes 50: Aki 66, Ben −16, Chie 0, Dan −20, Eri −30.
- forced-out-sanbon: 小場, 親 Aki; nobody drops, so Aki, Ben, Chie play and Dan, Eri never spoke
  (追い込み). Dan's hand 2t 2r 2k 3h 6r 9r 11k: 三本 (梅, not standing) 2 kan, no Group B (2t, 3h), no
  出来役; half of 2 kan = 10, plus 3 文 for each of 3h, 6r, 9r (2r is one of the three: not counted)
  = 19, from each of Ben and Chie (not from Aki, the round's 親). Eri: no hand, nothing. 札 Ben pays
  Aki 8. Aki 8, Ben −19 − 8 = −27, Chie −19, Dan 38, Eri 0. Winner Aki (96).
- six-dealer-drops: 6 seated, 親 Chie. Seats from Chie: Chie drops (1st, 10), Dan plays, Eri drops
  (2nd, 15), Fumi plays, Aki plays as the third; Ben is forced out, entered with 手四 declared and no
  hand: half of 6 kan = 30 from each of Fumi and Aki. Every pile 88: 総八 goes to the round's 親 Dan,
  10 kan = 100 from each of Fumi and Aki; the fees and the compensation stand. Dan wins and takes the
  pot 25: Dan 225, Fumi −130, Aki −130, Ben 60, Chie −10, Eri −15.
- single-volunteer: 大場 field (松に鶴 ×2) and carry [4]: the round takes ×4, the field's ×2 waits.
  Aki, Ben, Chie drop: 10, 15, 20 × 4 = 40, 60, 80. Dan alone plays: he takes the stated pot 40 + 180
  = 220, and wins. Players sum to +40 = what the round took from the pot.
- misdeal: field 1h 8h (×2 ×2): the round takes ×2, the other ×2 waits. From 親 Ben all four drop:
  Ben 20, Chie 30, Dan 40, Aki 50; the pot keeps 140, no winner, Ben deals again.
- pot-to-winner: the round after it, as a standalone file (pot 140, carry [2]): the round takes ×2.
  Ben, Chie, Dan play; Aki forced out with nothing given. Piles Ben 96, Chie 80, Dan 88: 札 (96 − 88) × 2 = 16:
  Chie pays Ben 16. Ben wins and takes 140: Ben 156, Chie −16, Dan 0, Aki 0.
- two-player-tie: 親 Aki; Aki (10) and Ben (15) drop, Chie and Dan play two-handed (round's 親
  Chie). Dan's declared 三本 20 from Chie, the one opponent. Piles Chie 17 + 6 = 23, Dan 6 + 11 + 6 =
  23 (not all 48: fine for two): a tie goes to Chie, nobody pays 札. Chie wins and takes 25: Chie
  25 − 20 = 5, Dan 20, Aki −10, Ben −15.

house rules (TRADITIONAL §11; tests/golden/<sample>/ is scored under samples/<sample>.toml):
- house-tables (下り賃, 追い込み賃 flat and paid by all, 水天 flat, 法度), seven seated:
  - seven-liable-mizuten-flat-fees: 親 Aki; Gen holds the 白札 and sits out; Aki drops (10 into the
    pot); Ben, Chie, Dan play; Eri and Fumi are forced out: 10 from each of Ben, Chie, Dan (the
    round's 親 Ben too) to each. Ben ends with 赤短 fed by Chie: Chie alone pays 2 × 70 = 140. Dan
    declared みずてん: the other five seats (not Gen) pay him 10 each. Ben wins the pot 10. Aki −20,
    Ben −20 + 140 − 10 + 10 = 120, Chie −20 − 140 − 10 = −170, Dan −20 + 50 = 30, Eri and Fumi
    +30 − 10 = 20, Gen 0.
  - flat-fee-second-drop: 親 Ben, Aki holds the 白札 (skipped); Ben and Chie drop, 10 each (the
    second pays 10, not 15); Dan, Eri, Fumi play; Gen is forced out: 10 from each of the three.
    Piles Dan 96, Eri 80, Fumi 88: 札 Eri pays Dan 8. Dan wins the pot 20: Dan −10 + 8 + 20 = 18,
    Eri −18, Fumi −10, Gen 30, Ben and Chie −10, Aki 0.
  - tobikomi-liable-pot: pot 60 (a misdeal before), 親 Dan, Gen the 白札; Dan, Eri, Fumi play,
    Aki, Ben, Chie forced out (30 to each from the three). Dan's hand 3h 3r 3k 1k 5t 8t 10t: 三本
    20 from each; his pile holds all of 3: 飛び込み, fed by Eri: Eri alone pays 2 × 10 = 20. 札 Eri
    pays Dan 8. Fumi's みずてん: 10 from each of the five others. Dan wins the pot 60: Dan −30 + 40
    + 20 + 8 − 10 + 60 = 88, Eri −30 − 20 − 20 − 8 − 10 = −88, Fumi −30 − 20 + 50 = 0, Aki, Ben,
    Chie 30 − 10 = 20, Gen 0.
- house-fudawiki-mizuten (FudaWiki's みずてん and 責任), four seated, 親 Aki:
  - mizuten-won: Aki declares; Dan is forced out (no hand: nothing). Piles Aki 96, Ben 80, Chie 88:
    96 ≥ 89, so every other seat pays Aki 10, Dan included; 札 Ben pays Aki 8. Aki 38, Ben −18,
    Chie −10, Dan −10.
  - liable-shoubu-mizuten-lost: Aki declares and ends with 赤短 fed by Ben: Ben pays 140 alone; Aki's
    pile holds 30 points, fewer than 89: Aki pays Ben and Chie (the active players) 10 each. Aki
    120, Ben −130, Chie 10, Dan 0.
  - liable-cancel: Aki drops (10); Ben called 下げ with 青短 and cancels; Dan fed it: Dan pays it in
    full, 70 (2 × ½), Chie nothing. Ben wins the pot 10: Ben 80, Dan −70, Aki −10, Chie 0.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scorekeeper.cli import app
from scorekeeper.scoring import score_dict


#: one folder per rule profile: tests/golden/<profile>/<case>.round.json and .expected.json
GOLDEN_ROOT = Path(__file__).parent / "golden"
GOLDEN = GOLDEN_ROOT / "sdin"
CASES = sorted(p.name[: -len(".round.json")] for p in GOLDEN.glob("*.round.json"))
ALL_CASES = sorted(
    (d.name, p.name[: -len(".round.json")]) for d in GOLDEN_ROOT.iterdir() if d.is_dir()
    for p in d.glob("*.round.json")
)


def rules_of(folder: str):
    """A golden folder's profile: a built-in by its name, else the sample house file it is named after."""
    from scorekeeper import house
    from scorekeeper.rules import PROFILES

    return PROFILES[folder] if folder in PROFILES else house.load(GOLDEN_ROOT.parent.parent / "samples" / f"{folder}.toml")


def load(name: str, suffix: str, rules: str = "sdin"):
    return json.loads((GOLDEN_ROOT / rules / f"{name}.{suffix}.json").read_text(encoding="utf-8"))


def test_every_kind_of_round_has_a_golden_file():
    assert {"plain-teyaku", "early-dekiyaku", "sage-stops", "sage-played-out", "sage-overtaken",
            "special-sujiroku", "special-nihachi", "special-sohachi", "bashi"} <= set(CASES)


def test_every_kind_of_fudawiki_round_has_a_golden_file():
    fudawiki = {name for rules, name in ALL_CASES if rules == "fudawiki"}
    assert {"plain-teyaku-a-plus-b", "shoubu-lone-sage-doubled", "cancel-half", "played-out-two-holders",
            "special-sohachi-over-sujiroku", "special-nihachi-over-sujiroku", "tobikomi", "nukeyaku",
            "carried-multiplier"} <= fudawiki
    assert {"five-two-drops", "five-two-drops-doubled", "forced-out-sanbon", "six-dealer-drops", "single-volunteer",
            "misdeal", "pot-to-winner", "two-player-tie"} <= fudawiki


@pytest.mark.parametrize("rules,name", ALL_CASES)
def test_golden_round_scores_exactly(rules, name):
    expected = load(name, "expected", rules)
    chosen = rules_of(rules)
    assert expected["profile"] == chosen.name
    assert score_dict(load(name, "round", rules), rules=chosen).to_json() == expected


def test_every_house_rule_of_section_11_has_a_golden_file():
    house = {(rules, name) for rules, name in ALL_CASES if rules.startswith("house-")}
    assert {("house-tables", "seven-liable-mizuten-flat-fees"), ("house-tables", "tobikomi-liable-pot"),
            ("house-fudawiki-mizuten", "mizuten-won"), ("house-fudawiki-mizuten", "liable-cancel")} <= house


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
