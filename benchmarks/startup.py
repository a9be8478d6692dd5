"""Start-up: `hachi-score summary` on a 12-round session against two floors, side by side.

Every command is a fresh process typed between rounds, so start-up is the user's wait. Goal
(issue 6): summary within 1.2× of a minimal typer app in the same environment that prints a
three-row rich table. `python -c pass` is reported too. Medians of repeated runs, taken in
turn so that a busy machine weighs on every command alike.

    python benchmarks/startup.py [--runs 21]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import SAMPLES, bench_env, hachi, one_core  # noqa: E402

MINIMAL_APP = '''
import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer()


@app.command()
def main() -> None:
    table = Table("player", "文")
    for name, mon in (("Aki", "-24"), ("Ben", "+64"), ("Chie", "-40")):
        table.add_row(name, mon)
    Console().print(table)


app()
'''

GOAL = 1.2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = bench_env(HACHI_SCORE_DB=str(Path(tmp) / "book.json"), COLUMNS="100")
        app = Path(tmp) / "minimal_app.py"
        app.write_text(MINIMAL_APP, encoding="utf-8")
        setup = [hachi("new-session", "Aki", "Ben", "Chie")]
        setup += [hachi("round", "--file", str(f)) for f in sorted((SAMPLES / "night").glob("*.json"))]
        for cmd in setup:
            subprocess.run(cmd, env=env, check=True, capture_output=True)
        commands = {
            "hachi-score summary": hachi("summary"),
            "hachi-score summary --json": hachi("summary", "--json"),
            "hachi-score score --json (1 file)": hachi("score", "--json", str(SAMPLES / "plain-teyaku.json")),
            "hachi-score --version": hachi("--version"),
            "minimal typer + rich table": [sys.executable, str(app)],
            "python -c pass": [sys.executable, "-c", "pass"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for i in range(args.runs + 1):
            for name, cmd in commands.items():
                start = time.perf_counter()
                proc = subprocess.run(one_core(cmd), env=env, capture_output=True)
                elapsed = time.perf_counter() - start
                if proc.returncode:
                    raise SystemExit(f"{name} exited {proc.returncode}: {proc.stderr.decode()[:300]}")
                if i:  # the first round only warms the caches
                    times[name].append(elapsed)
    medians = {name: statistics.median(t) for name, t in times.items()}
    floor = medians["minimal typer + rich table"]
    bare = medians["python -c pass"]
    print(f"start-up, median of {args.runs} runs each, one core, taken in turn")
    print(f"{'command':36} {'ms':>7} {'÷ typer app':>12} {'÷ python':>9}")
    for name, t in medians.items():
        print(f"{name:36} {t * 1000:7.1f} {t / floor:11.2f}x {t / bare:8.2f}x")
    ratio = medians["hachi-score summary"] / floor
    verdict = "meets" if ratio <= GOAL else "misses"
    print(f"summary / minimal typer app = {ratio:.2f}x (goal ≤ {GOAL}x: {verdict})")


if __name__ == "__main__":
    main()
