"""A night with every house switch on, typed at a real terminal (a fed pseudo-terminal), and its
totals in `summary --json` to the 文 (TRADITIONAL §11; tests/terminals.py's harness).

The profile: 責任, FudaWiki's みずてん, 下り賃 and 追い込み賃 flat and paid by all, standing pairs
off; seven seated. Each round's questions come as §11 says: the 白札's holder first, みずてん once at
the start (not when the 親 holds the 白札), the declaring 親 never asked play or drop, no forced-out
hand, the declarer's pile asked, and after a liable 出来役 or 飛び込み one question, "did someone
feed it?". The totals are worked by hand below.
"""

from __future__ import annotations

import json

from fast_cli import FastRunner
from helpers import EXAMPLE_PILES, SMALL_FIELD, codes
from terminals import Terminal

from scorekeeper.cli import app

ALL_ON = """base = "fudawiki"
name = "all-on"
liability = true
mizuten = "fudawiki"
drop_fee = "flat"
forced_out_pay = "flat"
forced_out_paid_by = "all"
standing_three_pairs = false
"""
P7 = ["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi", "Gen"]
FIELD = " ".join(SMALL_FIELD)
EX = {k: " ".join(codes(v)) for k, v in EXAMPLE_PILES.items()}  # Aki 96 (all of month 3), Ben 80, Chie 88

#: (the prompt waited for, the line typed), round by round
ROUNDS = [
    # 1. 親 Aki declares みずてん; Gen holds the 白札; Ben drops (10); Aki, Chie, Dan play; Eri and Fumi
    #    forced out: 10 from each of the three to each. Chie calls 下げ and ends by 勝負 with 赤短, fed
    #    by Dan: Dan pays 140 alone. Aki's pile 30 < 89: Aki pays Chie and Dan 10 each. Chie takes the
    #    pot 10. Aki −40, Ben −10, Chie +140, Dan −150, Eri +30, Fumi +30, Gen 0.
    [("白札", "Gen"), ("親 dealer", ""), ("場札", FIELD), ("みずてん", "y"), ("席 Ben", "drop"), ("席 Chie", "play"),
     ("席 Dan", "play"), ("手役 Aki", ""), ("手役 Chie", ""), ("手役 Dan", ""), ("下げ", "Chie"), ("ended by", "Chie"),
     ("勝負 or cancel", ""), ("札 Aki", "=30"), ("札 Chie", "1rk 2rk 3rk"), ("責任 Chie's 赤短", "Dan"), ("save?", "y")],
    # 2. 親 Chie holds the 白札: no みずてん; Dan starts and is the round's 親; Eri and Fumi drop (10
    #    each); Dan, Gen, Aki play; Ben forced out: 30. Dan's 三本 of 3 (20 from each) and 飛び込み fed by
    #    Gen (Gen pays 20 alone); 札 Gen pays Dan 8; Dan takes the pot 20. Dan 78, Gen −58, Aki −30,
    #    Ben +30, Eri −10, Fumi −10, Chie 0.
    [("白札", "Chie"), ("親 dealer", ""), ("場札", FIELD), ("席 Dan", "play"), ("席 Eri", "drop"), ("席 Fumi", "drop"),
     ("席 Gen", "play"), ("席 Aki", "play"), ("手役 Dan", "3h 3r 3k 1k 5t 8t 10t"), ("手役 Gen", ""), ("手役 Aki", ""),
     ("下げ", ""), ("ended by", ""), ("札 Dan", EX["Aki"]), ("札 Gen", EX["Ben"]), ("札 Aki", "rest"),
     ("責任 Dan's 飛び込み", "Gen"), ("save?", "y")],
    # 3. 親 Dan declares; Eri holds the 白札; Fumi and Gen play; Aki, Ben, Chie forced out: 30 each from
    #    Dan, Fumi, Gen. Dan 88 < 89: he pays Fumi and Gen 10 each; 札 Gen pays Fumi 8. Dan −50,
    #    Fumi −12, Gen −28, Aki, Ben, Chie +30.
    [("白札", "Eri"), ("親 dealer", ""), ("場札", FIELD), ("みずてん", "y"), ("席 Fumi", "play"), ("席 Gen", "play"),
     ("手役 Dan", ""), ("手役 Fumi", ""), ("手役 Gen", ""), ("下げ", ""), ("ended by", ""), ("札 Dan", EX["Chie"]),
     ("札 Fumi", EX["Aki"]), ("札 Gen", "rest"), ("save?", "y")],
]
TOTALS = {"Aki": -40, "Ben": 50, "Chie": 170, "Dan": -122, "Eri": 20, "Fumi": 8, "Gen": -86}


def test_a_night_with_every_house_switch_on_typed_at_a_terminal_agrees_with_summary(book_file, tmp_path):
    rules = tmp_path / "all-on.toml"
    rules.write_text(ALL_ON, encoding="utf-8")
    runner = FastRunner()
    made = runner.invoke(app, ["new-session", *P7, "--rules", str(rules), "--dealer", "Aki"])
    assert made.exit_code == 0, made.output
    for n, steps in enumerate(ROUNDS, 1):
        term = Terminal("round", tty=True)
        for prompt, line in steps:
            term.wait_for(prompt)
            term.type(line)
        term.wait_for(f"round {n} saved")
        assert term.end() == 0, term.out
        assert "Traceback" not in term.out
        if n == 1:  # the declaring 親 is never asked play or drop, and no forced-out hand is asked
            assert "席 Aki" not in term.out and "手役 Eri" not in term.out and "手役 Fumi" not in term.out
        if n == 2:  # the 親 held the 白札: no みずてん asked
            assert "みずてん:" not in term.out
    summary = json.loads(runner.invoke(app, ["summary", "--json"]).stdout)
    assert summary["totals"] == TOTALS and summary["pot"] == 0 and summary["rounds"] == 3
    stored = json.loads(runner.invoke(app, ["export", "--json"]).stdout)["rounds"]
    assert [r.get("blank") for r in stored] == ["Gen", "Chie", "Eri"]
    assert [r.get("mizuten") for r in stored] == [True, None, True]
    assert [r.get("liable") for r in stored] == [{"Chie": {"赤短": "Dan"}}, {"Dan": {"飛び込み": "Gen"}}, None]
