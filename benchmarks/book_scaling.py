"""The book's cost against its age: `round --file` and `summary` on a 1-night and a 100-night book.

Goal (the book issue): a year of nights stays as quick as the first. Each book is built by
importing one exported 12-round night (the bundled one) N times, so the current session is a
12-round night in every book. `round --file` adds a 13th round (timed) and `undo --yes` takes it
back (not timed). Whole commands, process start included, with `--version` as the floor. The
books are timed in turn, run by run, so that a busy machine weighs on all of them alike; both
the median wall time and the median CPU time (user + system, of the child) are printed.

    python benchmarks/book_scaling.py [--nights 1 100] [--runs 9]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import SAMPLES, bench_env, hachi, one_core


GOAL = 1.2


def run(*args: str, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one command; fails loudly on exit != 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(one_core(hachi(*args)), env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {proc.returncode}: {proc.stderr.decode()[:300]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def build(folder: Path, nights: int, env: dict[str, str]) -> None:
    run("new-session", "Aki", "Ben", "Chie", "--name", "template", env=env)
    for f in sorted((SAMPLES / "night").glob("*.json")):
        run("round", "--file", str(f), env=env)
    exported = folder / "night.json"
    run("export", "-o", str(exported), env=env)
    for _ in range(nights - 1):
        run("import", str(exported), env=env)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nights", type=int, nargs="+", default=[1, 100])
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    round_file = str(min((SAMPLES / "night").glob("*.json")))
    commands = {
        "round --file": ["round", "--file", round_file],
        "summary": ["summary"],
        "summary --json": ["summary", "--json"],
        "--version": ["--version"],
    }
    with tempfile.TemporaryDirectory() as tmp:
        envs = {}
        for nights in args.nights:
            folder = Path(tmp) / f"n{nights}"
            folder.mkdir()
            envs[nights] = bench_env(HACHI_SCORE_DB=str(folder / "book.json"))
            build(folder, nights, envs[nights])
        times: dict[tuple[int, str], list[tuple[float, float]]] = {}
        for i in range(args.runs + 1):  # the first run only warms the caches
            for nights, env in envs.items():
                for label, cmd in commands.items():
                    t = run(*cmd, env=env)
                    if label == "round --file":
                        run("undo", "--yes", env=env)
                    if i:
                        times.setdefault((nights, label), []).append(t)
        print(f"median of {args.runs} runs, wall / CPU, in ms")
        print(f"{'nights':>7} {'files':>6} {'index':>7}" + "".join(f" {label:>16}" for label in commands))
        for nights in args.nights:
            folder = Path(tmp) / f"n{nights}"
            files = sum(1 for _ in (folder / "book.sessions").glob("*.json"))
            index = (folder / "book.json").stat().st_size
            cells = []
            for label in commands:
                ts = times[(nights, label)]
                wall = statistics.median(t[0] for t in ts) * 1000
                cpu = statistics.median(t[1] for t in ts) * 1000
                cells.append(f"{wall:7.1f} / {cpu:6.1f}")
            print(f"{nights:>7} {files:>6} {index:>7}" + "".join(f" {c:>16}" for c in cells))
        first, last = min(args.nights), max(args.nights)
        for label in commands:
            ratio = statistics.median(t[0] for t in times[(last, label)]) / statistics.median(
                t[0] for t in times[(first, label)]
            )
            verdict = "meets" if ratio <= GOAL else "misses"
            print(f"{label:>16}: {last} nights / {first} night = {ratio:.2f}x (goal ≤ {GOAL}x: {verdict})")


if __name__ == "__main__":
    main()
