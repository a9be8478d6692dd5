"""A damaged book (CONTRACT §5): one clear line, exit status 1, and the bytes are kept.

The book has several files (the index, one file per session, a .bak beside each), so each kind
of damage is tried on the index and on a session file, with every command that reads or writes
them. After each command every file of the book is compared byte for byte with before.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Callable

import crash_harness as ch
import pytest
from entry_lines import snapshot
from fast_cli import FastRunner

from scorekeeper import files, store
from scorekeeper.cli import app

runner = FastRunner()


def _set_schema(good: bytes, schema: int) -> bytes:
    data = json.loads(good)
    data["meta"]["1"]["schema"] = schema
    return json.dumps(data).encode()


def _unscorable(good: bytes) -> bytes:
    """Valid JSON of the right shape whose round 2 no longer scores: a card is in two piles."""
    data = json.loads(good)
    rnd = data["rounds"]["2"]["round"]
    rnd["captured"]["Aki"] = rnd["captured"]["Aki"] + rnd["captured"]["Ben"][:2]
    return json.dumps(data, ensure_ascii=False).encode()


def _unknown_rules(good: bytes) -> bytes:
    data = json.loads(good)
    data["rounds"]["1"]["rules"] = "koikoi"
    return json.dumps(data).encode()


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "truncated": lambda good: good[: len(good) // 2],
    "cut short by one byte": lambda good: good.rstrip()[:-1],
    "NUL bytes": lambda good: b"\0" * len(good),
    "a NUL tail": lambda good: good[: len(good) // 2] + b"\0" * (len(good) - len(good) // 2),
    "0 bytes": lambda good: b"",
    "not UTF-8": lambda good: good[:10] + b"\xff\xfe" + good[10:],
    "a JSON list": lambda good: b"[1, 2, 3]",
    "a JSON string": lambda good: b'"book"',
    "null": lambda good: b"null",
    "tables of the wrong type": lambda good: b'{"meta": [], "sessions": 5}',
    "no schema": lambda good: b'{"meta": {"1": {}}, "sessions": {}, "session": {}, "rounds": {}}',
    "a future schema": lambda good: _set_schema(good, 99),
    "a number 5000 digits long": lambda good: b'{"meta": {"1": {"schema": 1' + b"0" * 5000 + b"}}}",
    "nested 100000 deep": lambda good: b"[" * 100_000 + b"]" * 100_000,
}
SESSION_ONLY = {
    "a round that no longer scores": _unscorable,
    "an unknown rule profile": _unknown_rules,
}

READERS = [["summary"], ["summary", "--json"], ["show", "1"], ["export"], ["export", "--csv"]]
WRITERS = [["round", "--file", "ROUND"], ["undo", "--yes"], ["edit", "1", "--file", "ROUND"]]


@pytest.fixture
def book(tmp_path) -> Path:
    """Two sessions: s1 (Friday, 3 rounds) and s2 (Saturday, current, 3 rounds)."""
    return ch.two_nights(tmp_path / "book" / "book.json")


def run(args: list[str], path: Path, round_file: Path):
    args = [str(round_file) if a == "ROUND" else a for a in args]
    result = runner.invoke(app, [*args, "--db", str(path)])
    assert "Traceback" not in result.output
    return result


def check_one_line(result, path: Path, *, newer: bool = False) -> str:
    assert result.exit_code == 1, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("hachi-score: "), result.stderr
    line = lines[0]
    assert str(path) in line  # which file
    if newer:
        assert "newer hachi-score" in line and "upgrade" in line
    else:
        assert "can't be read" in line and "left as it is" in line  # what is wrong, and that it is kept
        assert "doctor" in line or ".bak" in line  # what to do
    return line


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_index(book, tmp_path, damage):
    bad = DAMAGE[damage](book.read_bytes())
    book.write_bytes(bad)
    before = snapshot(book.parent)
    round_file = ch.round_files(tmp_path / "rounds")[3]
    for args in READERS + WRITERS + [["sessions"], ["use", "Friday"], ["new-session", "Dan", "Eri", "Fumi"]]:
        result = run(args, book, round_file)
        check_one_line(result, book, newer=damage == "a future schema")
        assert snapshot(book.parent) == before, args
    assert book.read_bytes() == bad


@pytest.mark.parametrize("damage", list(DAMAGE) + list(SESSION_ONLY))
def test_a_damaged_session_file(book, tmp_path, damage):
    """s2 (current) is damaged; s1 still reads, and the index still lists both."""
    file = store.sessions_dir(book) / "s2.json"
    bad = {**DAMAGE, **SESSION_ONLY}[damage](file.read_bytes())
    file.write_bytes(bad)
    before = snapshot(book.parent)
    round_file = ch.round_files(tmp_path / "rounds")[3]
    for args in READERS + WRITERS:
        result = run(args, book, round_file)
        line = check_one_line(result, file, newer=damage == "a future schema")
        if damage in SESSION_ONLY:
            assert "round " in line  # which round
        assert snapshot(book.parent) == before, args
    # the other session is whole, and the listing names the damaged one (status 1)
    assert json.loads(run(["summary", "s1", "--json"], book, round_file).stdout)["rounds"] == 3
    result = run(["sessions"], book, round_file)
    if damage == "a round that no longer scores":  # the listing only counts rounds; summary and doctor re-score them
        assert result.exit_code == 0 and "Friday" in result.stdout
    else:
        assert result.exit_code == 1 and "Friday" in result.stdout and str(file) in result.stderr
    assert snapshot(book.parent) == before
    assert file.read_bytes() == bad


def test_a_missing_session_file(book, tmp_path):
    file = store.sessions_dir(book) / "s2.json"
    file.unlink()
    before = snapshot(book.parent)
    for args in READERS + WRITERS:
        result = run(args, book, ch.round_files(tmp_path / "rounds")[3])
        assert result.exit_code == 1 and "missing its file" in result.stderr and len(result.stderr.splitlines()) == 1
    assert snapshot(book.parent) == before


def test_a_damaged_bak_alone_harms_nothing(book, tmp_path):
    """The .bak is never read by the commands; the next save replaces it with a good one."""
    bak = files.backup_path(store.sessions_dir(book) / "s2.json")
    bak.write_bytes(b"\0" * 100)
    round_file = ch.round_files(tmp_path / "rounds")[3]
    shown = run(["summary"], book, round_file)
    assert shown.exit_code == 0 and "standings" in shown.stdout, shown.output
    saved = run(["round", "--file", "ROUND"], book, round_file)
    assert saved.exit_code == 0 and "after round 4" in saved.stdout, saved.output
    assert json.loads(bak.read_bytes())["rounds"].keys() == {"1", "2", "3"}


@pytest.mark.parametrize("damage, target", [("truncated", "index"), ("NUL bytes", "session"),
                                            ("a future schema", "session")])
def test_the_real_executable_gives_one_line_and_status_1(book, damage, target):
    file = book if target == "index" else store.sessions_dir(book) / "s2.json"
    file.write_bytes(DAMAGE[damage](file.read_bytes()))
    before = snapshot(book.parent)
    proc = subprocess.run([*ch.hachi_score_exe(), "round", "--file", str(ch.round_files(book.parent.parent / "r")[3]),
                           "--db", str(book)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and str(file) in proc.stderr and "Traceback" not in proc.stderr
    assert snapshot(book.parent) == before


@pytest.mark.parametrize("db", ["/", ".", "..", "DIR", "FILE/sub/book.json"])
def test_a_book_path_that_is_no_file_is_one_line(tmp_path, monkeypatch, db):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    db = db.replace("DIR", str(tmp_path)).replace("FILE", str(tmp_path / "afile"))
    for args in (["summary"], ["new-session", *ch.PLAYERS], ["doctor"]):
        result = runner.invoke(app, [*args, "--db", db])
        assert result.exit_code == 1, result.output
        assert len(result.stderr.splitlines()) == 1 and "internal error" not in result.stderr
    assert (tmp_path / "afile").read_text() == "x"
