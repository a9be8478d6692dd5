"""Batch scoring: `hachi-score score --json` over 20,000 realistic round files, process start included.

Goals (issue 13): at least 10,000 rounds per second on one core, and at most 40 MiB peak memory
(the output is held encoded until every file has checked out: all or nothing). Goal 2 of issue 36:
at most 3× the json.load floor's time, and at most 20 MiB above the floor's peak memory (the floor
is given the same 20,000 names, so argv's share of memory is on both sides). Printed side by side
in one run:
- hachi-score score --json over the files (wall time and the child's peak memory, ``ru_maxrss``);
- the floor: a bare Python that only opens and json-parses the same files;
- an empty start-up: `hachi-score --version`.

The files are distinct simulated rounds (``tests/simulator.py``: random legal deals and play,
下げ and 出来役 as play gives them, a random share of hands shown), 場四 never among them.

    python benchmarks/batch_score.py [--files 20000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, bench_env, hachi, one_core  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from simulator import simulate  # noqa: E402

GOAL_RATE = 10_000
GOAL_MIB = 40
#: issue 36, goal 2: the time as a multiple of the floor's, and the peak memory above the floor's
GOAL_RATIO = 3.0
GOAL_ABOVE_MIB = 20


def timed(cmd: list[str], runs: int) -> tuple[float, float]:
    """Median wall seconds and the largest peak memory (MiB) of ``cmd`` over ``runs`` runs."""
    walls, peaks = [], []
    env = bench_env()
    for i in range(runs + 1):
        with tempfile.TemporaryFile() as out:
            start = time.perf_counter()
            proc = subprocess.Popen(one_core(cmd), env=env, stdout=out, stderr=subprocess.DEVNULL,
                                    stdin=subprocess.DEVNULL)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{cmd[:3]} exited {os.waitstatus_to_exitcode(status)}")
        if i:  # the first run only warms the file and bytecode caches
            walls.append(wall)
            peaks.append(usage.ru_maxrss / 1024)
    return statistics.median(walls), max(peaks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(13)
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i in range(args.files):
            dst = Path(tmp) / f"r{i:05d}.json"
            dst.write_text(json.dumps(simulate(rng).round, ensure_ascii=False), encoding="utf-8")
            files.append(str(dst))
        hachi_t, hachi_mib = timed(hachi("score", "--json", *files), args.runs)
        floor_code = "import json,sys\nfor f in sys.argv[1:]:\n    json.load(open(f, encoding='utf-8'))"
        floor_t, floor_mib = timed([sys.executable, "-c", floor_code, *files], args.runs)
        start_t, start_mib = timed(hachi("--version"), args.runs)
    rate = args.files / hachi_t
    print(f"files: {args.files} distinct simulated round files, median of {args.runs} runs, one core")
    print(f"hachi-score score --json : {hachi_t * 1000:8.1f} ms  {rate:8.0f} rounds/s  peak {hachi_mib:5.1f} MiB")
    print(f"python json.load floor   : {floor_t * 1000:8.1f} ms  {args.files / floor_t:8.0f} files/s  peak {floor_mib:5.1f} MiB")
    print(f"hachi-score --version    : {start_t * 1000:8.1f} ms  (start-up alone)  peak {start_mib:5.1f} MiB")
    print(f"ratio score / floor      : {hachi_t / floor_t:8.2f}x")
    print(f"rounds/s / goal {GOAL_RATE}    : {rate / GOAL_RATE:8.2f}x  ({'meets' if rate >= GOAL_RATE else 'misses'} the goal)")
    print(f"peak MiB / goal {GOAL_MIB}       : {hachi_mib / GOAL_MIB:8.2f}x  ({'meets' if hachi_mib <= GOAL_MIB else 'misses'} the goal)")
    print(f"per round after start-up : {(hachi_t - start_t) / args.files * 1e6:8.0f} us")
    ratio, above = hachi_t / floor_t, hachi_mib - floor_mib
    print(f"issue 36 goal 2          : {ratio:.2f}x the floor (goal ≤ {GOAL_RATIO:g}x: "
          f"{'meets' if ratio <= GOAL_RATIO else 'misses'}), {above:+.1f} MiB above its peak (goal ≤ "
          f"{GOAL_ABOVE_MIB} MiB: {'meets' if above <= GOAL_ABOVE_MIB else 'misses'}); "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
