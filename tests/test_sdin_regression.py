"""Nothing SDIN changes: 5,000 simulated SDIN rounds, recorded with their `score --json` objects on
the commit before the rule-profile redesign (87d315b), score the same today.

Every key that existed then keeps its value; the only keys added are CONTRACT §7's.
"""

import gzip
import json
from pathlib import Path

from scorekeeper.scoring import score_dict

RECORDED = Path(__file__).parent / "regression" / "sdin-5000.jsonl.gz"
ADDED = {"profile", "carry", "winner", "pot"}
ADDED_PER_PLAYER = {"teyaku_all", "bonuses", "role"}


def recorded():
    with gzip.open(RECORDED, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_five_thousand_recorded_sdin_rounds_keep_every_value():
    rounds = recorded()
    assert len(rounds) == 5000
    for i, case in enumerate(rounds):
        got = score_dict(case["round"]).to_json()
        want = case["expected"]
        assert set(got) - set(want) == ADDED, i
        for key, value in want.items():
            if key == "players":
                for p, row in value.items():
                    assert set(got["players"][p]) - set(row) == ADDED_PER_PLAYER, i
                    assert {k: got["players"][p][k] for k in row} == row, (i, p)
            else:
                assert got[key] == value, (i, key)
        assert got["profile"] == "sdin" and got["carry"] == [] and got["pot"] == 0
        assert got["winner"] == got["next_dealer"], i
