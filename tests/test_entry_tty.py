"""`hachi-score round` on a real terminal (a pty): Tab completes card names, Ctrl-C saves nothing.

CliRunner has no terminal, so readline and the terminal's Ctrl-C (SIGINT from the line
discipline) are only seen here. Skipped where there is no pty or no readline.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from entry_lines import snapshot
from helpers import HANG, eventually

pty = pytest.importorskip("pty")
termios = pytest.importorskip("termios")
pytest.importorskip("readline")

PLAYERS = ["Aki", "Ben", "Chie"]


class Terminal:
    """`hachi-score ARGS` with a pty as its controlling terminal."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()

        def controlling_tty() -> None:
            # Ctrl-C as a terminal's shell hands it to a program: a run started in the background
            # (`pytest &`, a CI script's job) has SIGINT ignored, and exec would keep it so
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGQUIT, signal.SIG_DFL)
            os.setsid()
            import fcntl

            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper", *args],
            stdin=slave, stdout=slave, stderr=slave, env=env, preexec_fn=controlling_tty, close_fds=True,
        )
        os.close(slave)
        self.seen = b""

    def expect(self, text: str, timeout: float = HANG) -> str:
        want = text.encode("utf-8")
        deadline = time.monotonic() + timeout
        while want not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never saw {text!r}; the terminal shows:\n{self.text()}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"ended before {text!r}; the terminal shows:\n{self.text()}")
                self.seen += chunk
        return self.text()

    def waiting(self) -> None:
        """Once the child sleeps, blocked on its terminal (after a prompt: waiting for a key).

        A Ctrl-C that lands before readline blocks is caught by Python's handler while the
        process runs, and the select() that follows waits for a key: a person presses Ctrl-C
        at a prompt that waits, and so does the test."""
        stat, wchan = Path(f"/proc/{self.proc.pid}/stat"), Path(f"/proc/{self.proc.pid}/wchan")
        if not stat.exists():
            pytest.skip("no /proc: can't see the child wait at its prompt")

        def in_select() -> bool:
            if stat.read_text().rpartition(")")[2].split()[0] != "S":
                return False
            where = wchan.read_text() if wchan.exists() else "0"
            # "0": the kernel won't say; wait_woken: the terminal's read, with no readline (a yes/no)
            return where in ("0", "wait_woken") or "poll" in where or "select" in where

        eventually(in_select, "prompt waiting for a key")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode("utf-8"))

    def finish(self, timeout: float = HANG) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.seen += os.read(self.master, 4096)
                except OSError:
                    break
        try:  # the terminal closed: the child is ending
            self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:  # hung: say what the child was doing, and end it
            state = self.proc_state()
            self.proc.kill()
            self.proc.wait()
            os.close(self.master)
            raise AssertionError(f"hung: still running after {timeout:g} s ({state}); the terminal shows:\n{self.text()}")
        os.close(self.master)
        return self.proc.returncode

    def proc_state(self) -> str:
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text().splitlines()
            wchan = Path(f"/proc/{self.proc.pid}/wchan").read_text()
        except OSError:
            return "no /proc"
        return "; ".join([f"wchan {wchan}", *(line for line in status if line.startswith(("State", "Sig", "ShdPnd")))])

    def text(self) -> str:
        return self.seen.decode("utf-8", "replace")


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    book = tmp_path / "book" / "book.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "HACHI_SCORE"))}
    env.update(HACHI_SCORE_DB=str(book), HOME=str(tmp_path / "home"), LC_ALL="C.UTF-8",
               LANG="C.UTF-8", TERM="xterm", COLUMNS="160", NO_COLOR="1", PYTHONIOENCODING="utf-8")
    subprocess.run([sys.executable, "-m", "scorekeeper", "new-session", *PLAYERS], env=env, check=True,
                   capture_output=True)
    return env


def test_tab_completes_a_card_name_and_ctrl_c_saves_nothing(env):
    folder = Path(env["HACHI_SCORE_DB"]).parent
    before = snapshot(folder)
    term = Terminal(["round"], env)
    term.expect("[Aki]: ")
    term.type("\r")
    term.expect("its 光 alone: ")
    term.type("1h 3r 5t 8k 9k 桐の\t\r")  # Tab: 桐の → 桐のカス, the only card it can start
    term.expect("12k 桐のカス")
    term.expect("手役 Aki : ")
    term.waiting()  # a person presses Ctrl-C while the prompt waits, not while it is drawn
    term.type("\x03")  # Ctrl-C, as the terminal sends it
    assert term.finish() == 1
    assert "aborted: nothing was saved" in term.text()
    assert "Traceback" not in term.text()
    assert snapshot(folder) == before


def test_a_whole_round_on_a_terminal_is_saved(env):
    term = Terminal(["round"], env)
    answers = ["", "1h 3r 5t 8k 9k 12k", "", "2t 2r 2k 4t 6k 7k 10k", "", "", "",
               "1hr 3kk 5rk 6rk 8ht 11hr 12kk", "1kk 2kk 3hr 9kk 10trkk 11tk 12hk", "rest", ""]
    prompts = ["[Aki]: ", "its 光 alone: ", "手役 Aki : ", "手役 Ben : ", "手役 Chie: ", "下げ declared by",
               "ended by", "札 Aki : ", "札 Ben : ", "札 Chie (or rest): ", "save? [Y/n]: "]
    for prompt, line in zip(prompts, answers):
        term.expect(prompt)
        term.type(line + "\r")
    term.expect("round 1 saved")
    assert term.finish() == 0
