"""The book's cost against its age: each command on a 1-night, a 365-night, a 1,000-night and a
10,000-night book.

Goals (issues 8 and 13): a year of nights stays as quick as the first.
- `sessions` ≤ 1.2× its time on the 1-night book;
- `doctor` ≤ 1.5 s on the 1,000-night book;
- `stats` ≤ 0.5 s on a warm 1,000-night book (its digests built by the warm-up run).

Goals (issue 36): a decade's book (10,000 nights, 120,000 rounds) like one night.
- `summary`, `round --file` and `sessions` ≤ 1.2× their time on the 1-night book;
- `stats` ≤ 2 s, `doctor` ≤ 5 s;
- `export --all` of it and `import` of that export into an empty book ≤ 10 s each (timed once a
  run, ``--import-runs``: an import of a decade is long).

A book of more than :data:`BY_IMPORT` nights is built as a club would bring its decade in: one
`hachi-score import` of an export of that many distinct simulated nights.

Every night is a distinct simulated night (``tests/simulator.py``: 12 random legal rounds, the 親
chain followed, a random share of hands shown, 下げ and 出来役 as play gives them), written through
the store's own API (``Book.import_session`` for 11 rounds, then ``add_round`` for the 12th, so
every session file has its ``.bak`` and its digest, as a book used night after night has). The
books are built once and cached under the temp dir (``hachi-score-bench``), keyed by the version
and this script's recipe; each run works on a fresh copy.

Whole commands, process start included, timed in turn book by book so that a busy machine weighs
on all of them alike: median wall time, the ratio to the 1-night book, and the peak memory (the
child's ``ru_maxrss``, from ``os.wait4``'s rusage of that very child). `round --file` adds a 13th
round (timed) and `undo --yes` takes it back (not timed).

Run it from a non-editable install (``pip install .``), with that install's Python:

    python benchmarks/book_scaling.py [--nights 1 365 1000 10000] [--runs 5] [--import-runs 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, SAMPLES, bench_env, hachi, one_core  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from simulator import simulate  # noqa: E402
from helpers import add_round

#: bump when the way the books are built changes, so the cache is rebuilt
RECIPE = 3
GOALS = {"sessions": ("ratio", 1.2), "doctor": ("seconds", 1.5), "stats": ("seconds", 0.5)}
#: a book of more nights is a decade's (issue 36), with goals of its own
DECADE = 10_000
DECADE_GOALS = {"summary": ("ratio", 1.2), "round --file": ("ratio", 1.2), "sessions": ("ratio", 1.2),
                "stats": ("seconds", 2.0), "doctor": ("seconds", 5.0), "export --all": ("seconds", 10.0),
                "import": ("seconds", 10.0)}
#: books of more nights than this are built by one `import`, as a club brings in its past
BY_IMPORT = 1000
PLAYERS = ["Aki", "Ben", "Chie"]


def run(*args: str, env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and peak memory (KiB) of one command; fails loudly on exit != 0."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(one_core(hachi(*args)), env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(args)} exited {proc.returncode}: {err.read().decode()[:300]}")
    return wall, usage.ru_maxrss


def night(rng: random.Random, dealer: str) -> list[dict]:
    """Twelve rounds of one simulated night, each dealt by the last one's winner."""
    from scorekeeper.scoring import score_dict

    rounds = []
    for _ in range(12):
        rnd = simulate(rng, PLAYERS, dealer).round
        rounds.append(rnd)
        dealer = score_dict(rnd).next_dealer
    return rounds


def export_of(nights: int, rng: random.Random, first: date) -> dict:
    """``nights`` distinct simulated nights as `export --all` writes them, one a day from ``first``."""
    out = []
    for i in range(nights):
        rounds = night(rng, PLAYERS[i % 3])
        day = first + timedelta(days=i)
        out.append({"format": "hachi-score session", "version": 1, "name": day.isoformat(),
                    "created": f"{day.isoformat()}T21:00:00+09:00", "players": PLAYERS, "dealer": rounds[0]["dealer"],
                    "planned_rounds": 12, "rate": 10, "rules": "sdin", "rounds": rounds})
    return {"sessions": out}


def build_by_import(folder: Path, nights: int) -> None:
    """A book of ``nights`` distinct simulated nights, one a day from 2016-01-01, by one `import`."""
    export = folder / "export.json"
    export.write_text(json.dumps(export_of(nights, random.Random(nights), date(2016, 1, 1)), ensure_ascii=False),
                      encoding="utf-8")
    subprocess.run(hachi("import", str(export)), env=bench_env(HACHI_SCORE_DB=str(folder / "book.json")),
                   check=True, capture_output=True)
    export.unlink()


def build(folder: Path, nights: int) -> None:
    """A book of ``nights`` distinct simulated nights, one a day from 2025-01-01."""
    if nights > BY_IMPORT:
        build_by_import(folder, nights)
        return
    from scorekeeper.rules import SDIN
    from scorekeeper.store import Book

    book = Book.open(folder / "book.json")
    rng = random.Random(nights)
    first = date(2025, 1, 1)
    for i in range(nights):
        rounds = night(rng, PLAYERS[i % 3])
        day = first + timedelta(days=i)
        sid = book.import_session({
            "players": PLAYERS, "dealer": rounds[0]["dealer"], "name": day.isoformat(),
            "created": f"{day.isoformat()}T21:00:00+09:00", "planned_rounds": 12, "rate": 10,
            "rules": SDIN, "rounds": rounds[:11],
        })
        add_round(book, sid, {k: v for k, v in rounds[11].items() if k != "dealer"})


def cached_book(nights: int) -> Path:
    """The book of ``nights``, keyed by what builds it: this script, and the installed book layer."""
    import hashlib

    from scorekeeper import __version__, digests, files, index, schema, store, tables

    book_layer = b"".join(Path(m.__file__).read_bytes() for m in (store, index, tables, schema, files, digests))
    recipe = hashlib.sha256(Path(__file__).read_bytes() + book_layer).hexdigest()[:12]
    cache = Path(tempfile.gettempdir()) / "hachi-score-bench" / f"v{__version__}-r{RECIPE}-{recipe}-n{nights}"
    if not (cache / "done").exists():
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir(parents=True)
        start = time.perf_counter()
        build(cache, nights)
        (cache / "done").write_text("built\n")
        print(f"built the {nights}-night book in {time.perf_counter() - start:.1f} s ({cache})", file=sys.stderr)
    return cache


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nights", type=int, nargs="+", default=[1, 365, 1000, DECADE])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--import-runs", type=int, default=1, help="runs of the decade's export --all and import")
    ap.add_argument("--decade-book", type=Path, help="a folder holding a decade's book built already (by any "
                                                     "release: to time an older one on the same book)")
    args = ap.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")
    round_file = str(min((SAMPLES / "night").glob("*.json")))
    commands = {
        "sessions": ["sessions"],
        "summary": ["summary"],
        "round --file": ["round", "--file", round_file],
        "doctor": ["doctor"],
        "stats": ["stats"],
        "stats --json": ["stats", "--json"],
        "--version": ["--version"],
    }
    with tempfile.TemporaryDirectory() as tmp:
        envs = {}
        for nights in args.nights:
            folder = Path(tmp) / f"n{nights}"
            given = args.decade_book if nights >= DECADE and args.decade_book else None
            shutil.copytree(given or cached_book(nights), folder)
            envs[nights] = bench_env(HACHI_SCORE_DB=str(folder / "book.json"), COLUMNS="100")
        times: dict[tuple[int, str], list[tuple[float, int]]] = {}
        for i in range(args.runs + 1):  # the first run only warms the caches (and the digests)
            for nights, env in envs.items():
                for label, cmd in commands.items():
                    t = run(*cmd, env=env)
                    if label == "round --file":
                        run("undo", "--yes", env=env)
                    if i:
                        times.setdefault((nights, label), []).append(t)
        first = min(args.nights)
        print(f"median of {args.runs} runs: wall ms (ratio to the {first}-night book), peak MiB")
        print(f"{'nights':>7} {'files':>6} {'index':>8}" + "".join(f" {label:>20}" for label in commands))
        for nights in args.nights:
            folder = Path(tmp) / f"n{nights}"
            files = sum(1 for _ in (folder / "book.sessions").iterdir())
            index = (folder / "book.json").stat().st_size
            cells = []
            for label in commands:
                wall = statistics.median(t[0] for t in times[(nights, label)])
                base = statistics.median(t[0] for t in times[(first, label)])
                peak = max(t[1] for t in times[(nights, label)]) / 1024
                cells.append(f"{wall * 1000:6.0f} ({wall / base:4.2f}x) {peak:4.0f}M")
            print(f"{nights:>7} {files:>6} {index:>8}" + "".join(f" {c:>20}" for c in cells))
        last = max(args.nights)
        moved: dict[str, float] = {}
        if last >= DECADE and args.import_runs > 0:
            moved = export_and_import(Path(tmp), envs[last], args.import_runs)
            print(f"{last} nights: export --all {moved['export --all']:.1f} s, import of it into an empty book "
                  f"{moved['import']:.1f} s (median of {args.import_runs})")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")
        goals = DECADE_GOALS if last >= DECADE else GOALS
        for label, (kind, goal) in goals.items():
            if label in ("export --all", "import") and label not in moved:
                continue  # not timed in this run (--import-runs 0)
            if label in moved:
                print(f"{label:>12} on {last} nights: {moved[label]:.3f} s (goal ≤ {goal} s: "
                      f"{'meets' if moved[label] <= goal else 'misses'})")
                continue
            wall = statistics.median(t[0] for t in times[(last, label)])
            if kind == "ratio":
                value = wall / statistics.median(t[0] for t in times[(first, label)])
                shown = f"{value:.2f}x the {first}-night book (goal ≤ {goal}x"
            else:
                value = wall
                shown = f"{value:.3f} s (goal ≤ {goal} s"
            print(f"{label:>12} on {last} nights: {shown}: {'meets' if value <= goal else 'misses'})")


def export_and_import(tmp: Path, env: dict[str, str], runs: int) -> dict[str, float]:
    """The decade's `export --all -o FILE`, and `import FILE` into an empty book: median seconds."""
    walls: dict[str, list[float]] = {"export --all": [], "import": []}
    for i in range(runs):
        out = tmp / f"decade-{i}.json"
        walls["export --all"].append(run("export", "--all", "-o", str(out), env=env)[0])
        empty = tmp / f"empty-{i}"
        empty.mkdir()
        walls["import"].append(run("import", str(out), env=dict(env, HACHI_SCORE_DB=str(empty / "book.json")))[0])
        shutil.rmtree(empty)
        out.unlink()
    return {label: statistics.median(w) for label, w in walls.items()}


if __name__ == "__main__":
    main()
