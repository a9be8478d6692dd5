"""Batch scoring: `hachi-score score --json` over 2,000 round files, process start included.

Goal (issue 6): at least 4,000 rounds per second on one core. Printed side by side in one run:
- hachi-score score --json over the files;
- the floor: a bare Python that only opens and json-parses the same files;
- an empty start-up: `hachi-score --version`.

    python benchmarks/batch_score.py [--files 2000] [--runs 5]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import SAMPLES, hachi, median_time  # noqa: E402

GOAL = 4000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    samples = sorted(p for p in SAMPLES.glob("*.json"))
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i in range(args.files):
            dst = Path(tmp) / f"r{i:05d}.json"
            shutil.copy(samples[i % len(samples)], dst)
            files.append(str(dst))
        hachi_t = median_time(hachi("score", "--json", *files), args.runs)
        floor_code = "import json,sys\nfor f in sys.argv[1:]:\n    json.load(open(f, encoding='utf-8'))"
        floor_t = median_time([sys.executable, "-c", floor_code, *files], args.runs)
        start_t = median_time(hachi("--version"), args.runs)
    rate = args.files / hachi_t
    print(f"files: {args.files} round files, median of {args.runs} runs, one core")
    print(f"hachi-score score --json : {hachi_t * 1000:8.1f} ms  {rate:8.0f} rounds/s")
    print(f"python json.load floor   : {floor_t * 1000:8.1f} ms  {args.files / floor_t:8.0f} files/s")
    print(f"hachi-score --version    : {start_t * 1000:8.1f} ms  (start-up alone)")
    print(f"ratio score / floor      : {hachi_t / floor_t:8.2f}x")
    print(f"rounds/s / goal {GOAL}     : {rate / GOAL:8.2f}x  ({'meets' if rate >= GOAL else 'misses'} the goal)")
    print(f"per round after start-up : {(hachi_t - start_t) / args.files * 1e6:8.0f} us")


if __name__ == "__main__":
    main()
