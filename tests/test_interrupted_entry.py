"""Ctrl-C or end of input at *every* interactive prompt leaves the book byte for byte as it was.

tests/test_entry_cli.py tries a sample of the prompts; here every prompt of `round` and of
`edit N` (the 親, the field, three 手役, how it ended, 下げ, three piles, the confirm) gets both
Ctrl-C and end of input, and so does the question `undo` asks. A Ctrl-C that arrives while the
round is being written (after "yes") leaves the book as it was too: the temp file goes, the file
is never half replaced.
"""

from __future__ import annotations

import builtins
import json
from pathlib import Path

import pytest

from entry_lines import answers, snapshot
from fast_cli import FastRunner
from scorekeeper import files, store
from helpers import add_round

GOLDEN = Path(__file__).parent / "golden" / "sdin"
PLAYERS = ["Aki", "Ben", "Chie"]
runner = FastRunner()
ROUND = json.loads((GOLDEN / "sage-overtaken.round.json").read_text("utf-8"))  # every question is asked
LINES = answers(ROUND)


@pytest.fixture
def night(book_file) -> Path:
    """A session with one round already in it."""
    book = store.Book.open(book_file)
    sid = book.new_session(PLAYERS)
    add_round(book, sid, json.loads((GOLDEN / "plain-teyaku.round.json").read_text("utf-8")))
    return book_file


def interrupt_at(monkeypatch, lines: list[str], at: int, how: type[BaseException]) -> list[str]:
    shown: list[str] = []
    queue = list(lines[:at])

    def typed(prompt: str = "") -> str:
        shown.append(prompt)
        if not queue:
            raise how
        return queue.pop(0)

    monkeypatch.setattr(builtins, "input", typed)
    return shown


@pytest.mark.parametrize("how", [KeyboardInterrupt, EOFError], ids=["ctrl-c", "eof"])
@pytest.mark.parametrize("at", range(len(LINES)))
def test_round_interrupted_at_any_prompt(night, monkeypatch, at, how):
    before = snapshot(night.parent)
    shown = interrupt_at(monkeypatch, LINES, at, how)
    result = runner.invoke(args=["round"])
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == "hachi-score: aborted: nothing was saved"
    assert len(shown) == at + 1  # it was the (at+1)-th prompt that was interrupted
    assert snapshot(night.parent) == before


@pytest.mark.parametrize("how", [KeyboardInterrupt, EOFError], ids=["ctrl-c", "eof"])
@pytest.mark.parametrize("at", range(len(LINES)))
def test_edit_interrupted_at_any_prompt(night, monkeypatch, at, how):
    before = snapshot(night.parent)
    shown = interrupt_at(monkeypatch, [""] * len(LINES), at, how)
    result = runner.invoke(args=["edit", "1"])
    assert result.exit_code == 1, result.output
    assert "aborted: nothing was saved" in result.stderr
    assert len(shown) == at + 1
    assert snapshot(night.parent) == before


@pytest.mark.parametrize("how", [KeyboardInterrupt, EOFError], ids=["ctrl-c", "eof"])
def test_undo_interrupted_at_its_question(night, monkeypatch, how):
    before = snapshot(night.parent)
    interrupt_at(monkeypatch, [], 0, how)
    result = runner.invoke(args=["undo"])
    assert result.exit_code == 1 and "aborted" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("hachi-score: aborted")
    assert "Traceback" not in result.output
    assert snapshot(night.parent) == before


def test_ctrl_c_while_the_round_is_written(night, monkeypatch):
    """"yes", then Ctrl-C as the temp file is flushed to disk: nothing half written."""
    before = snapshot(night.parent)
    monkeypatch.setattr(builtins, "input", lambda prompt="", q=list(LINES): q.pop(0))  # every answer, "y" too

    def fsync(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", fsync)
    result = runner.invoke(args=["round"])
    assert result.exit_code == 1 and result.stderr.splitlines()[-1].startswith("hachi-score: aborted")
    assert snapshot(night.parent) == before
    assert not list(night.parent.rglob("*.tmp"))


def test_ctrl_c_while_waiting_for_the_lock(night, monkeypatch):
    """Ctrl-C while another hachi-score holds the lock: one line, status 1, nothing written."""
    import fcntl
    import os

    before = snapshot(night.parent)
    fd = os.open(files.lock_path(night), os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)

    def sleep(_):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.time, "sleep", sleep)
    try:
        result = runner.invoke(args=["round", "--file", str(GOLDEN / "plain-teyaku.round.json")])
    finally:
        os.close(fd)
    assert result.exit_code == 1 and result.stderr.splitlines() == ["hachi-score: aborted (Ctrl-C): nothing half done was saved"]
    assert snapshot(night.parent) == before
