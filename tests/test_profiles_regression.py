"""Nothing the tallies changed: 4,600 simulated rounds under every profile, recorded on the commit
before piles became tallies (b445c6c) with their exact `score --json` line or their error line,
score to the same bytes today.

fudawiki three-player rounds (1,500), the same rounds under samples/house-kan12.toml (500: kan 12,
stack, 猪鹿蝶 and 七短+ on, so some are refused for an unclaimed 猪鹿蝶), nights of 4–6 (1,000),
and rounds each broken by one random change (a card dropped, doubled or mistyped, a short field, a
bad name, 下げ twice, a wrong declaration…) under sdin and fudawiki (800 each).
"""

import gzip
import json
from collections import Counter
from pathlib import Path

from scorekeeper.cli import compact_json
from scorekeeper.house import resolve
from scorekeeper.scoring import RoundError, score_dict

ROOT = Path(__file__).parent.parent
RECORDED = Path(__file__).parent / "regression" / "profiles-4600.jsonl.gz"
RULES = {"sdin": "sdin", "fudawiki": "fudawiki", "house-kan12": str(ROOT / "samples" / "house-kan12.toml")}


def test_every_recorded_round_scores_to_the_same_bytes_or_the_same_error():
    with gzip.open(RECORDED, "rt", encoding="utf-8") as f:
        cases = [json.loads(line) for line in f]
    profiles = {name: resolve(text) for name, text in RULES.items()}
    assert len(cases) == 4600
    assert Counter(c["rules"] for c in cases) == {"fudawiki": 3300, "house-kan12": 500, "sdin": 800}
    assert sum(c["error"] is not None for c in cases) == 1338
    for i, case in enumerate(cases):
        try:
            got, error = compact_json(score_dict(case["round"], rules=profiles[case["rules"]]).to_json()), None
        except RoundError as e:
            got, error = None, str(e)
        assert (got, error) == (case["out"], case["error"]), (i, case["rules"])
