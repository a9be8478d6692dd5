"""The book's lock, waited for by the real executable: when it says so, when it gives up (not a
timed test: figures printed).

CONTRACT §5: a command that waits for the lock says so on standard error after 1 s, and gives up
with status 1 after 10 s. With the lock held by this script (an fcntl.flock on book.json.lock):

- `round --file` against a lock held throughout: when the notice came and when it gave up, each
  measured from the process's start (its own start-up included);
- the same with the lock let go as soon as the notice came: from the notice to the round saved.

The real waits, never the testing knobs (HACHI_SCORE_TESTING_LOCK_*), so one run takes about
15 s.

    python benchmarks/lock_waits.py [--runs 1]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import SAMPLES, bench_env, hachi  # noqa: E402

PLAYERS = ["Aki", "Ben", "Chie"]


def hold(book: Path) -> int:
    fd = os.open(book.with_name(book.name + ".lock"), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def writer(book: Path, round_file: Path, env: dict[str, str], on_notice=None) -> tuple[int, float | None, float, str]:
    """`round --file`: (status, seconds to the notice, seconds to the exit, its last line)."""
    start = time.perf_counter()
    proc = subprocess.Popen([*hachi("round", "--file", str(round_file), "--db", str(book))], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    notice_at = None
    last = ""
    for line in proc.stderr:
        last = line.rstrip("\n")
        if notice_at is None and "waiting for the book's lock" in line:
            notice_at = time.perf_counter() - start
            if on_notice:
                on_notice()
    code = proc.wait(60)
    return code, notice_at, time.perf_counter() - start, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    env = {k: v for k, v in bench_env().items() if not k.startswith("HACHI_SCORE")}
    round_file = next(iter(sorted((SAMPLES.parent / "scorekeeper" / "data" / "night").glob("*.json"))))
    with tempfile.TemporaryDirectory(prefix="hachi-lock-") as tmp:
        book = Path(tmp) / "book.json"
        subprocess.run([*hachi("new-session", *PLAYERS, "--db", str(book))], env=env, check=True, capture_output=True)
        for run in range(args.runs):
            fd = hold(book)
            try:
                code, notice, ended, last = writer(book, round_file, env)
            finally:
                os.close(fd)
            print(f"held throughout:  notice after {notice:.2f} s, gave up after {ended:.2f} s "
                  f"(status {code}: {last})")

            fd = hold(book)
            released = threading.Event()

            def let_go() -> None:
                os.close(fd)
                released.set()

            try:
                code, notice, ended, _ = writer(book, round_file, env, on_notice=let_go)
            finally:
                if not released.is_set():
                    os.close(fd)
            print(f"let go at notice: notice after {notice:.2f} s, saved {ended - notice:.2f} s later "
                  f"(status {code})")
        data = json.loads(subprocess.run([*hachi("summary", "--json", "--db", str(book))], env=env,
                                         capture_output=True, text=True).stdout)
        print(f"rounds saved: {data['rounds']} (one per run)")


if __name__ == "__main__":
    main()
