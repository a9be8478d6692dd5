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
import pytest
from entry_lines import snapshot

from scorekeeper import night, store
from scorekeeper.scoring import Round
from helpers import add_round

WRITERS = 4
ROUNDS_EACH = 8


def key(rnd: dict) -> str:
    """A round without its 親 (the chain gives that): its cards and how it ended."""
    return json.dumps({k: v for k, v in rnd.items() if k not in ("dealer", "players")}, sort_keys=True, ensure_ascii=False)


class Timed:
    """A process started now; its standard error read line by line, each with when it came."""

    def __init__(self, args: list[str]) -> None:
        self.start = time.monotonic()
        self.proc = subprocess.Popen([*ch.hachi_score_exe(), *args], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[tuple[float, str]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.lines.append((time.monotonic() - self.start, line.rstrip("\n")))

    def finish(self, timeout: float = 60) -> tuple[int, float, str]:
        out = self.proc.stdout.read()
        code = self.proc.wait(timeout)
        ended = time.monotonic() - self.start
        self.reader.join(5)
        return code, ended, out


def hold_lock(path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(store.lock_path(path), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def test_four_processes_add_rounds_to_one_session_at_once(tmp_path, capsys):
    path = tmp_path / "book" / "book.json"
    store.Book.open(path).new_session(ch.PLAYERS)
    files = ch.round_files(tmp_path / "rounds")
    results: list[list[tuple[int, dict, str]]] = [[] for _ in range(WRITERS)]
    spans: list[tuple[float, float]] = []
    go = threading.Barrier(WRITERS)

    def writer(w: int) -> None:
        go.wait()
        for i in range(ROUNDS_EACH):
            f = files[(w * ROUNDS_EACH + i) % len(files)]
            began = time.monotonic()
            proc = subprocess.run([*ch.hachi_score_exe(), "round", "--file", str(f), "--json", "--db", str(path)],
                                  capture_output=True, text=True, timeout=60)
            spans.append((began, time.monotonic()))
            out = json.loads(proc.stdout) if proc.returncode == 0 else {}
            results[w].append((proc.returncode, out, proc.stderr))

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
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
    sent = [json.loads(files[(w * ROUNDS_EACH + i) % len(files)].read_text(encoding="utf-8"))
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


def test_waiting_writers_say_so_after_1_s_then_give_up_after_10_s_or_go_ahead(tmp_path):
    """The real waits, with the real executable. Two books, each locked by this test: on book A
    the lock is held throughout, and four writers say they wait after 1 s and give up with
    status 1 after 10 s, writing nothing; on book B the lock is let go after 2 s, and four
    writers, having said they wait, go ahead and each add its round."""
    files = ch.round_files(tmp_path / "rounds")
    a, b = tmp_path / "a" / "book.json", tmp_path / "b" / "book.json"
    for path in (a, b):
        store.Book.open(path).new_session(ch.PLAYERS)
    before = snapshot(a.parent)
    fd_a, fd_b = hold_lock(a), hold_lock(b)
    try:
        on_a = [Timed(["round", "--file", str(files[i]), "--db", str(a)]) for i in range(WRITERS)]
        on_b = [Timed(["round", "--file", str(files[i]), "--json", "--db", str(b)]) for i in range(WRITERS)]
        # B's lock goes once every writer on B has said it waits (on a busy machine a writer may
        # take a while to start: a fixed sleep would let it find the lock free and never wait)
        deadline = time.monotonic() + 8
        while not all(w.lines for w in on_b) and time.monotonic() < deadline:
            time.sleep(0.05)
        os.close(fd_b)
        ends_b = [w.finish() for w in on_b]
        ends_a = [w.finish() for w in on_a]
    finally:
        os.close(fd_a)
        with contextlib.suppress(OSError):
            os.close(fd_b)

    for w, (code, ended, out) in zip(on_a, ends_a):
        assert code == 1, w.lines
        assert out == ""
        texts = [text for _, text in w.lines]
        assert len(texts) == 2, texts
        notice_at, notice = w.lines[0]
        assert "waiting for the book's lock" in notice and str(store.lock_path(a)) in notice
        assert 1.0 <= notice_at < 4.0, notice_at
        assert texts[1].startswith("hachi-score: ") and "gave up" in texts[1] and "10 s" in texts[1]
        assert 10.0 <= ended < 15.0, ended
    assert snapshot(a.parent) == before

    numbers = []
    for w, (code, ended, out) in zip(on_b, ends_b):
        assert code == 0, w.lines
        assert len(w.lines) == 1 and "waiting for the book's lock" in w.lines[0][1]  # the notice, once
        assert 1.0 <= w.lines[0][0] < 4.0
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
    monkeypatch.setattr(store, "LOCK_NOTICE_AFTER", 0.05)
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.3)
    fd = hold_lock(path)
    try:
        result = CliRunner().invoke(app, [*command, "--db", str(path)])
    finally:
        os.close(fd)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and "waiting" in lines[0] and "gave up" in lines[1]
    assert snapshot(path.parent) == before
