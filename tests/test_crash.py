"""SIGKILL in the middle of a save: the book always opens and no confirmed round is lost.

Each kill is timed by a watcher on the book's folders (inotify; tests/crash_harness.py): the
writer is killed the moment a file there changes — the temp file created, written, closed, the
.bak linked, a rename — so kills land inside the save itself, not during start-up. After every
attempt the book is opened and checked (crash_harness.check_after):

- every round whose save was confirmed (exit 0, its number printed) is there;
- a round whose save was not confirmed is there whole, or absent;
- every earlier round is exactly what it was, and the other sessions' files are untouched;
- at most one killed save's temp files lie about, and the next save sweeps them;
- the lock is free: the next command never waits behind a dead writer.

The long soak (hundreds of kills, the real executable each time) is benchmarks/soak_kill.py and
the `slow` test at the end (`pytest -m slow`).
"""

from __future__ import annotations

import json
import os
import random
import sys

import crash_harness as ch
import pytest
from entry_lines import snapshot
from fast_cli import FastRunner

from scorekeeper import doctor, files, store

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not sys.platform.startswith("linux"),
                                reason="kills processes with fork and SIGKILL; Linux")


def summary(path) -> dict:
    """`summary --json`, in-process (the book on disk is what is read): it opens and every round
    re-scores."""
    result = FastRunner().invoke(args=["summary", "--json", "--all", "--db", str(path)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def finish(path, work, tally) -> None:
    """After the kills: one more round saves cleanly, sweeps every temp file, and doctor and
    summary find the whole book healthy."""
    files = ch.round_files(work / "rounds")
    before = ch.stored_rounds(path)
    left = ch.temps(path)
    watcher = ch.Watcher([path.parent, store.sessions_dir(path)])
    try:
        child, _, _ = ch.attempt(path, watcher, ch.Forked, ["round", "--file", str(files[0]), "--json", "--db", str(path)],
                                 None, 0, work / "last")
    finally:
        watcher.close()
    ch.check_after(path, before, ch.NIGHT[0], child, ch.Tally(), left)
    assert ch.temps(path) == [], "temp files left after a clean save"
    assert not [p for p in path.parent.rglob("*.tmp")]
    report = doctor.check(path)
    # the night repeats round files as written, so its 親 chain breaks: notes, never damage
    assert report.healthy and not [f for f in report.findings if "kept as recorded" not in f.problem], report.lines()
    data = summary(path)
    assert data["rounds"] == len(ch.stored_rounds(path))
    assert sum(data["totals"].values()) == 0


def test_fifty_kills_inside_saves_lose_nothing(tmp_path, capsys):
    """A book of 360 rounds (30 nights); rounds are added to the current night, and 50 writers
    are killed mid-save."""
    path = tmp_path / "book" / "book.json"
    ch.build_book(path, 12, sessions=30)
    # the index keeps each session's round count, so it is written with every round: every
    # other night's row must stay as it was; digests are derived data, rebuilt at will
    others = {k: v for k, v in snapshot(path.parent).items() if not k.startswith("book.sessions/s30.")
              and "lock" not in k and not k.startswith("book.json") and not k.endswith(".digest.json")}
    other_rows = {k: r for k, r in json.loads(path.read_text(encoding="utf-8"))["sessions"].items() if k != "30"}
    tally = ch.soak(path, 50, rng=random.Random(20261130), work=tmp_path / "work")
    with capsys.disabled():
        print(f"\n[crash, forked CLI] {tally.line()}")
    assert tally.kills == 50
    assert tally.inside_save >= 45, tally.line()  # timed by the watcher, not at random
    assert tally.before_rename >= 10, tally.line()  # many left the save half done
    assert tally.confirmed >= 1
    now = snapshot(path.parent)
    for name, data in others.items():  # the other nights were never touched
        assert now[name] == data, name
    rows = json.loads(path.read_text(encoding="utf-8"))["sessions"]
    assert {k: r for k, r in rows.items() if k != "30"} == other_rows
    finish(path, tmp_path / "work", tally)


def test_kills_of_the_real_executable_on_a_long_night(tmp_path, capsys):
    """The installed `hachi-score`, started afresh each time, on a single night of 240 rounds."""
    path = tmp_path / "book" / "book.json"
    ch.build_book(path, 240)
    tally = ch.soak(path, 6, spawn=True, rng=random.Random(7), work=tmp_path / "work")
    with capsys.disabled():
        print(f"\n[crash, hachi-score executable] {tally.line()}")
    assert tally.kills == 6 and tally.inside_save >= 5, tally.line()
    finish(path, tmp_path / "work", tally)


def test_kills_while_sessions_are_created(tmp_path):
    """new-session and import write two files (the session, then the index): a kill between
    them leaves a session file the index does not list, which is harmless and never reused."""
    path = tmp_path / "book" / "book.json"
    ch.build_book(path, 12)
    exports = []  # a night for each import, none of them in the book (the soak's night is the first)
    for n, rounds in enumerate(ch.nights(9, 12)[1:]):
        exports.append(tmp_path / "work" / f"export{n}.json")
        exports[-1].parent.mkdir(exist_ok=True)
        exports[-1].write_text(json.dumps({"players": ch.PLAYERS, "rounds": rounds}), encoding="utf-8")
    watcher = ch.Watcher([path.parent, store.sessions_dir(path)])
    rng = random.Random(3)
    listed = [r["id"] for r in store.Book.open(path).sessions()]
    kills = 0
    try:
        for n in range(16):
            if n % 2:
                args = ["import", str(exports[n // 2]), "--db", str(path)]
            else:
                args = ["new-session", "Dan", "Eri", "Fumi", "--db", str(path)]
            child, killed_at, _ = ch.attempt(path, watcher, ch.Forked, args, rng.choice([1, 2, 4, 6, 8, 9, 10, 12]), 0,
                                             tmp_path / "work" / "out")
            status = child.wait()
            kills += os.WIFSIGNALED(status)
            assert os.WIFSIGNALED(status) or os.WEXITSTATUS(status) == 0, child.output()
            book = store.Book.open(path)  # always opens
            rows = book.sessions(with_rounds=True)
            ids = [r["id"] for r in rows]
            assert ids[: len(listed)] == listed, "a session dropped out of the index"
            assert all(r["rounds"] in (0, 12) for r in rows), rows  # whole or absent, never half
            if not os.WIFSIGNALED(status):
                assert len(ids) == len(listed) + 1
            listed = ids
            assert ch.lock_is_free(path)
    finally:
        watcher.close()
    assert kills >= 8
    # a clean create after all that: a fresh id, never a left-over file's
    sid = store.Book.open(path).new_session(["Gin", "Hana", "Ito"])
    assert store.Book.open(path).session(sid)["players"] == ["Gin", "Hana", "Ito"]
    report = doctor.check(path)
    assert report.healthy, report.lines()
    left = list(path.parent.rglob(".*.tmp"))
    # a digest is derived data, written after the session and the index: a kill inside its write
    # (as likely as the machine is busy) leaves its temp file until that digest is written again,
    # which no later create does for that session. No other file's temp is left, and none is
    # the clean create's own
    assert not [p for p in left if ".digest.json." not in p.name], left
    assert not [p for p in left if files.writer_alive(int(files.TEMP_NAME.match(p.name).group("pid")))], left


@pytest.mark.slow
def test_soak_hundreds_of_kills(tmp_path, capsys):
    """The long soak: 300 kills of forked writers and 60 of the real executable."""
    path = tmp_path / "book" / "book.json"
    ch.build_book(path, 12, sessions=40)
    tally = ch.soak(path, 300, rng=random.Random(1), work=tmp_path / "work")
    spawned = ch.soak(path, 60, spawn=True, rng=random.Random(2), work=tmp_path / "work")
    with capsys.disabled():
        print(f"\n[soak, forked] {tally.line()}\n[soak, executable] {spawned.line()}")
    assert tally.kills == 300 and spawned.kills == 60
    finish(path, tmp_path / "work", tally)
