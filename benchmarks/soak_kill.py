"""The long soak: hundreds of SIGKILLs landing inside saves, and nothing lost.

Rounds are added to the current night of a book of several hundred rounds with `round --file`;
a watcher on the book's folders (inotify) kills the writer with SIGKILL the moment a file there
changes (the temp file created, written, closed, the .bak linked, a rename), at a change drawn at
random. After every attempt the book is opened and checked (tests/crash_harness.py): every
confirmed round is there, an unconfirmed one is whole or absent, earlier rounds are unchanged,
temp files never pile up, the lock is free. At the end one clean save must sweep every temp
file, `hachi-score doctor` must find the book healthy and `summary` must re-score every round.

    python benchmarks/soak_kill.py                    # 300 kills of forked writers, 60 of the executable
    python benchmarks/soak_kill.py --kills 1000 --spawned 200 --seed 7

Forked writers run the CLI's real main in a fork of this process (no start-up to wait through);
spawned ones are the installed `hachi-score`, started afresh each time. The CI-sized run is
tests/test_crash.py; `pytest -m slow` runs a soak of this size as a test.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import crash_harness as ch  # noqa: E402

from scorekeeper import doctor, store  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=300, help="SIGKILLs of forked writers")
    parser.add_argument("--spawned", type=int, default=60, help="SIGKILLs of the hachi-score executable")
    parser.add_argument("--sessions", type=int, default=40, help="nights in the book before the soak")
    parser.add_argument("--rounds", type=int, default=12, help="rounds in each of those nights")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="hachi-soak-") as tmp:
        path = Path(tmp) / "book" / "book.json"
        work = Path(tmp) / "work"
        ch.build_book(path, args.rounds, sessions=args.sessions)
        start_rounds = args.rounds * args.sessions
        print(f"book: {args.sessions} nights, {start_rounds} rounds; watcher: "
              f"{ch.Watcher([path.parent]).kind}", flush=True)
        others = {p: p.read_bytes() for p in store.sessions_dir(path).glob("s*.json")
                  if p != ch.current_file(path)}
        rng = random.Random(args.seed)
        tallies = []
        for label, spawn, kills in (("forked", False, args.kills), ("executable", True, args.spawned)):
            if kills:
                tally = ch.soak(path, kills, spawn=spawn, rng=rng, work=work,
                                log=lambda line, label=label: print(f"  [{label}] {line}", flush=True))
                print(f"{label}: {tally.line()}", flush=True)
                tallies.append(tally)

        # one clean save sweeps what the last kill left; then the whole book is checked
        files = ch.round_files(work / "rounds")
        proc = subprocess.run([*ch.hachi_score_exe(), "round", "--file", str(files[0]), "--db", str(path)],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert ch.temps(path) == [], ch.temps(path)
        assert not list(path.parent.rglob("*.tmp"))
        for p, data in others.items():
            assert p.read_bytes() == data, f"{p} changed"
        report = doctor.check(path)
        assert report.healthy and not report.findings, report.lines()
        proc = subprocess.run([*ch.hachi_score_exe(), "summary", "--json", "--db", str(path)],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        night = json.loads(proc.stdout)
        assert sum(night["totals"].values()) == 0

        kills = sum(t.kills for t in tallies)
        inside = sum(t.inside_save for t in tallies)
        before = sum(t.before_rename for t in tallies)
        confirmed = sum(t.confirmed for t in tallies)
        print(f"\nsurvived {kills} SIGKILLs ({inside} inside a save, {before} before its rename); "
              f"{confirmed} confirmed saves, every one in the book; book now {report.rounds} rounds in "
              f"{report.sessions} sessions, all re-scored by doctor; the other nights byte-for-byte unchanged; "
              f"no temp file left; {sum(t.seconds for t in tallies):.0f} s")
    return 0


if __name__ == "__main__":
    started = time.monotonic()
    code = main()
    print(f"({time.monotonic() - started:.0f} s in all)")
    sys.exit(code)
