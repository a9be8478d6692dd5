"""Two or more terminals: separate hachi-score processes writing one book at once (CONTRACT §5).

Every writer is the installed executable in a process of its own (the test's threads only start
them and wait); the lock is an fcntl.flock on book.json.lock, held here by the test when a test
needs a writer to wait.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path

import crash_harness as ch
from entry_lines import snapshot
from helpers import HANG, eventually
import pytest

from scorekeeper import files, night, store
from scorekeeper.scoring import Round
from helpers import add_round

WRITERS = 4
ROUNDS_EACH = 8


def key(rnd: dict) -> str:
    """A round without its 親 (the chain gives that): its cards and how it ended."""
    return json.dumps({k: v for k, v in rnd.items() if k not in ("dealer", "players")}, sort_keys=True, ensure_ascii=False)


def lock_waits(timeout: float, notice_after: float) -> dict[str, str]:
    """The environment of a writer whose lock waits are these (the store's testing knobs)."""
    return {**os.environ, files.ENV_TEST_LOCK_TIMEOUT: str(timeout), files.ENV_TEST_LOCK_NOTICE: str(notice_after)}


class Writer:
    """A process started now; its standard error read line by line as it comes."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([*ch.hachi_score_exe(), *args], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def finish(self) -> tuple[int, str]:
        out = self.proc.stdout.read()
        code = self.proc.wait(HANG)
        self.reader.join(HANG)
        return code, out


def hold_lock(path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(files.lock_path(path), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def test_four_processes_add_rounds_to_one_session_at_once(tmp_path, capsys):
    path = tmp_path / "book" / "book.json"
    store.Book.open(path).new_session(ch.PLAYERS)
    sent_files = ch.round_files(tmp_path / "rounds")
    results: list[list[tuple[int, dict, str]]] = [[] for _ in range(WRITERS)]
    spans: list[tuple[float, float]] = []
    go = threading.Barrier(WRITERS)
    env = lock_waits(HANG, files.LOCK_NOTICE_AFTER)  # writers wait their turn; none gives up on a busy machine

    def writer(w: int) -> None:
        go.wait()
        for i in range(ROUNDS_EACH):
            f = sent_files[(w * ROUNDS_EACH + i) % len(sent_files)]
            began = time.monotonic()
            proc = subprocess.run([*ch.hachi_score_exe(), "round", "--file", str(f), "--json", "--db", str(path)],
                                  capture_output=True, text=True, timeout=HANG, env=env)
            spans.append((began, time.monotonic()))
            out = json.loads(proc.stdout) if proc.returncode == 0 else {}
            results[w].append((proc.returncode, out, proc.stderr))

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(2 * HANG)
    elapsed = time.monotonic() - started

    flat = [r for rs in results for r in rs]
    assert len(flat) == WRITERS * ROUNDS_EACH
    for code, _, err in flat:
        assert code == 0, err
        assert "Traceback" not in err
    numbers = [out["round"] for _, out, _ in flat]
    assert len(set(numbers)) == len(numbers), "a round number was given twice"
    assert sorted(numbers) == list(range(1, WRITERS * ROUNDS_EACH + 1))
    for rs in results:  # each writer's own rounds got rising numbers
        mine = [out["round"] for _, out, _ in rs]
        assert mine == sorted(mine)

    # the processes really overlapped: at some moment three or more were running
    edges = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans])
    running = most = 0
    for _, step in edges:
        running += step
        most = max(most, running)
    assert most >= 3

    session = store.Book.open(path).session("s1")
    stored = [r["round"] for r in session["rounds"]]
    sent = [json.loads(sent_files[(w * ROUNDS_EACH + i) % len(sent_files)].read_text(encoding="utf-8"))
            for w in range(WRITERS) for i in range(ROUNDS_EACH)]
    assert Counter(key(r) for r in stored) == Counter(
        key(Round.from_dict(f, players=ch.PLAYERS, dealer="Aki").to_dict()) for f in sent)
    # each round got the 親 of the moment it was added: the chain is whole
    results_ = night.replay(session)
    dealer = session["dealer"]
    for r in results_:
        assert r.round.dealer == dealer
        dealer = r.next_dealer
    # what each process printed is what the book holds
    for _, out, _ in flat:
        assert out["players"] == results_[out["round"] - 1].to_json()["players"]
    with capsys.disabled():
        print(f"\n[concurrency] {WRITERS} processes wrote {len(flat)} rounds in {elapsed:.1f} s, "
              f"up to {most} at once; {len(set(numbers))} distinct numbers, none lost")


def test_waiting_writers_say_so_then_give_up_or_go_ahead(tmp_path):
    """The real executable, its lock waits shortened (the defaults, 1 s and 10 s, are
    test_store's). Two books, each locked by this test: on book A the lock is held throughout,
    and four writers say they wait, then give up with status 1, writing nothing; on book B the
    lock is let go once every writer has said it waits, and the four go ahead and each add its
    round."""
    sent_files = ch.round_files(tmp_path / "rounds")
    a, b = tmp_path / "a" / "book.json", tmp_path / "b" / "book.json"
    for path in (a, b):
        store.Book.open(path).new_session(ch.PLAYERS)
    before = snapshot(a.parent)
    fd_a, fd_b = hold_lock(a), hold_lock(b)
    try:
        on_a = [Writer(["round", "--file", str(sent_files[i]), "--db", str(a)], lock_waits(0.5, 0.1))
                for i in range(WRITERS)]
        on_b = [Writer(["round", "--file", str(sent_files[i]), "--json", "--db", str(b)], lock_waits(HANG, 0.1))
                for i in range(WRITERS)]
        # B's lock goes once every writer on B has said it waits (however long each takes to start)
        eventually(lambda: all(w.lines for w in on_b), "notice from every writer on book B")
        os.close(fd_b)
        ends_b = [w.finish() for w in on_b]
        ends_a = [w.finish() for w in on_a]
    finally:
        os.close(fd_a)
        with contextlib.suppress(OSError):
            os.close(fd_b)

    for w, (code, out) in zip(on_a, ends_a):
        assert code == 1, w.lines
        assert out == ""
        assert len(w.lines) == 2, w.lines
        notice, error = w.lines
        assert "waiting for the book's lock" in notice and str(files.lock_path(a)) in notice
        assert error.startswith("hachi-score: ") and "held the book's lock for 0.5 s; gave up" in error
    assert snapshot(a.parent) == before

    numbers = []
    for w, (code, out) in zip(on_b, ends_b):
        assert code == 0, w.lines
        assert len(w.lines) == 1 and "waiting for the book's lock" in w.lines[0]  # the notice, once
        numbers.append(json.loads(out)["round"])
    assert sorted(numbers) == [1, 2, 3, 4]
    assert len(store.Book.open(b).session("s1")["rounds"]) == 4


@pytest.mark.parametrize("command", [["undo", "--yes"], ["new-session", "Dan", "Eri", "Fumi"], ["use", "s1"]])
def test_every_writing_command_waits_for_the_lock(tmp_path, monkeypatch, command):
    """In-process, with the waits shortened: each writing command takes the same lock."""
    from typer.testing import CliRunner

    from scorekeeper.cli import app

    path = tmp_path / "book" / "book.json"
    book = store.Book.open(path)
    sid = book.new_session(ch.PLAYERS)
    add_round(book, sid, ch.NIGHT[0])
    before = snapshot(path.parent)
    monkeypatch.setenv(files.ENV_TEST_LOCK_NOTICE, "0.05")
    monkeypatch.setenv(files.ENV_TEST_LOCK_TIMEOUT, "0.3")
    fd = hold_lock(path)
    try:
        result = CliRunner().invoke(app, [*command, "--db", str(path)])
    finally:
        os.close(fd)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and "waiting" in lines[0] and "lock for 0.3 s; gave up" in lines[1]
    assert snapshot(path.parent) == before
