"""`hachi-score doctor [--restore] [--json]`: the whole book checked, damage named, good copies put back.

doctor reads every file and re-scores every stored round (a session file can be perfect JSON
of the right shape and still hold a round that no longer checks out). --restore puts back a
damaged file's .bak only when the .bak is itself healthy, and moves the damaged bytes aside
(never deletes them) saying where they went.
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
from pathlib import Path

import crash_harness as ch
import pytest
from entry_lines import snapshot
from fast_cli import FastRunner
from helpers import HANG
from test_damaged_book import DAMAGE, SESSION_ONLY

from scorekeeper import digests, doctor, files, store

runner = FastRunner()


@pytest.fixture
def book(tmp_path) -> Path:
    """Two sessions of 3 rounds each, s2 current; every file has a .bak."""
    return ch.two_nights(tmp_path / "book" / "book.json")


def doc(path: Path, *args: str, code: int | None = None, input: str | None = None):
    result = runner.invoke(args=["doctor", *args, "--db", str(path)], input=input)
    assert "Traceback" not in result.output
    if code is not None:
        assert result.exit_code == code, result.output
    if result.exit_code:
        lines = [line for line in result.stderr.splitlines() if not line.startswith(("  ", "--restore puts", "restore them?"))]
        assert len(lines) == 1 and lines[0].startswith("hachi-score: "), result.stderr
    return result


def summary(path: Path, session: str | None = None) -> dict:
    result = runner.invoke(args=["summary", *([session] if session else []), "--json", "--db", str(path)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def kept_somewhere(before: dict[str, bytes], folder: Path, rotated: tuple[str, ...] = ()) -> None:
    """Every file's bytes from before are still in some file: nothing was deleted. ``rotated``:
    a .bak the restore's own write of its file replaced, as every write does (the file's bytes it
    replaced are kept, as the new .bak)."""
    now = set(snapshot(folder).values())
    for name, data in before.items():
        if name.endswith((".digest.json", ".json.head")) or name in rotated:
            continue  # a digest, the index's head: derived data, rebuilt whenever what they are of changes
        assert data in now, f"the bytes of {name} are gone"


def test_a_healthy_book(book):
    result = doc(book, code=0)
    assert "healthy: 2 sessions, 6 rounds read and re-scored" in result.stdout
    data = json.loads(doc(book, "--json", code=0).stdout)
    assert data == {"book": str(book), "healthy": True, "sessions": 2, "rounds": 6, "problems": [], "notes": [],
                    "restored": []}


def test_no_book_at_the_path_given(tmp_path):
    result = doc(tmp_path / "none" / "book.json", code=0)  # CONTRACT §5, §6: listing a book not there yet is done
    assert f"no book at {tmp_path / 'none' / 'book.json'}" in result.stderr
    assert not (tmp_path / "none").exists()


def test_the_environment_names_the_book(book, monkeypatch):
    monkeypatch.setenv("HACHI_SCORE_DB", str(book))
    result = runner.invoke(args=["doctor"])
    assert result.exit_code == 0 and str(book) in result.stdout


@pytest.mark.parametrize("damage", list(DAMAGE) + list(SESSION_ONLY))
def test_a_damaged_session_is_found_and_put_back(book, damage):
    file = store.sessions_dir(book) / "s2.json"
    bak = files.backup_path(file)
    bad = {**DAMAGE, **SESSION_ONLY}[damage](file.read_bytes())
    file.write_bytes(bad)
    before = snapshot(book.parent)

    result = doc(book, code=1)
    problems = [line for line in result.stdout.splitlines() if line.startswith("✗")]
    assert len(problems) == 1 and str(file) in problems[0], result.stdout
    if damage == "a future schema":
        assert "newer hachi-score" in problems[0] and "upgrade" in problems[0]
    else:
        assert "--restore puts back its last good copy s2.json.bak" in problems[0]
    if damage in SESSION_ONLY:
        assert "round " in problems[0]  # found by re-scoring, not by parsing
    assert "problem" in result.stderr
    data = json.loads(doc(book, "--json", code=1).stdout)
    assert data["healthy"] is False and [p["file"] for p in data["problems"]] == [str(file)]
    assert data["sessions"] == 1 and data["rounds"] == 3  # s1 is still whole
    assert snapshot(book.parent) == before  # checking writes nothing

    if damage in SESSION_ONLY:  # the file reads: what the one-save-older .bak loses is said and asked
        asked = doc(book, "--restore", code=1)  # no answer is a "no"
        assert "round 3 (added since its .bak) is lost: 親 " in asked.stderr.splitlines()[-3]
        assert "aborted: nothing was restored" in asked.stderr.splitlines()[-1]
        assert snapshot(book.parent) == before
    result = doc(book, "--restore", "--yes")
    if damage == "a future schema":  # not damage: never replaced
        assert result.exit_code == 1 and snapshot(book.parent) == before
        return
    assert result.exit_code == 0, result.output
    moved = re.search(r"the damaged bytes were moved to (\S+)", result.stdout)
    assert moved and Path(moved.group(1)).read_bytes() == bad
    assert Path(moved.group(1)).parent == file.parent
    assert file.read_bytes() == bak.read_bytes()
    assert "healthy: 2 sessions, 5 rounds" in result.stdout  # the .bak is the version before round 3
    assert "index rows: corrected the round count of s2" in result.stdout  # in the same restore
    assert summary(book)["rounds"] == 2
    kept_somewhere(before, book.parent, rotated=("book.json.bak",))
    doc(book, code=0)


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_index_is_found_and_put_back(book, damage):
    bad = DAMAGE[damage](book.read_bytes())
    book.write_bytes(bad)
    before = snapshot(book.parent)
    result = doc(book, code=1)
    assert str(book) in result.stdout
    assert snapshot(book.parent) == before
    result = doc(book, "--restore", input="y\n")
    if damage == "a future schema":
        assert result.exit_code == 1 and snapshot(book.parent) == before
        return
    assert result.exit_code == 0, result.output
    assert "book.json.bak" in result.stdout
    # a round's write leaves the index as it is (the head keeps its row's count), so its .bak is
    # the index before s2 was made: s2 is listed again, and the counts are set right from the files
    assert "with s2 listed again" in result.stdout and "index rows: corrected the round count of s" in result.stdout
    assert [r["id"] for r in store.Book.open(book).sessions()] == ["s1", "s2"]
    assert summary(book, "s2")["rounds"] == 3 and summary(book, "s1")["rounds"] == 3
    # the rows' write after the put-back keeps the index it replaces (the .bak and s2's row) as the .bak
    kept_somewhere(before, book.parent, rotated=("book.json.bak",))
    assert bad in {p.read_bytes() for p in book.parent.glob("book.json.damaged-*")}


def test_an_index_with_no_good_copy_is_rebuilt_from_the_sessions(book):
    files.backup_path(book).write_bytes(b"\0" * 10)
    book.write_bytes(b'{"meta": {"1": {"schema": 1, "curr')
    result = doc(book, code=1)
    assert "--restore rebuilds the index from the session files" in result.stdout
    result = doc(book, "--restore", input="y\n", code=0)
    assert "rebuilt from the session files" in result.stdout
    rows = store.Book.open(book).sessions(with_rounds=True)
    assert [(r["id"], r["name"], r["rounds"]) for r in rows] == [("s1", "Friday", 3), ("s2", "Saturday", 3)]
    assert store.Book.open(book).current_id() == "s2"


def test_a_lost_index_is_rebuilt(book):
    book.unlink()
    files.backup_path(book).unlink()
    result = doc(book, code=1)
    assert "the index is missing" in result.stdout
    doc(book, "--restore", input="y\n", code=0)
    assert summary(book)["session"] == "s2"


def test_a_missing_session_file_comes_back_from_its_bak(book):
    file = store.sessions_dir(book) / "s1.json"
    file.unlink()
    result = doc(book, code=1)
    assert "its file is missing" in result.stdout
    result = doc(book, "--restore", input="y\n", code=0)
    assert "put back its last good copy s1.json.bak (2 rounds)" in result.stdout
    assert summary(book, "s1")["rounds"] == 2


def test_no_good_copy_leaves_everything_as_it_is(book):
    file = store.sessions_dir(book) / "s2.json"
    files.backup_path(file).write_bytes(b"[]")
    file.write_bytes(b"\0" * 50)
    before = snapshot(book.parent)
    result = doc(book, code=1)
    assert "no good copy to put back: s2.json.bak is damaged too" in result.stdout
    result = doc(book, "--restore", code=1)
    assert snapshot(book.parent) == before
    assert "no good copy" in result.stderr


def test_a_bak_that_does_not_rescore_is_no_good_copy(book):
    """The .bak is checked as thoroughly as the file: parsed, shaped, every round re-scored."""
    file = store.sessions_dir(book) / "s2.json"
    bak = files.backup_path(file)
    bak.write_bytes(SESSION_ONLY["a round that no longer scores"](bak.read_bytes()))
    file.write_bytes(b"")
    result = doc(book, code=1)
    assert "s2.json.bak is damaged too" in result.stdout and "round 2" in result.stdout


def test_notes_do_not_make_a_book_unhealthy(book):
    folder = store.sessions_dir(book)
    files.backup_path(folder / "s1.json").write_bytes(b"\0")
    (folder / ".s1.json.999999999.abcdefgh.tmp").write_bytes(b"half a sav")
    orphan = json.loads((folder / "s2.json").read_text(encoding="utf-8"))  # as an interrupted create leaves it
    orphan["session"]["1"]["id"] = "s7"
    (folder / "s7.json").write_text(json.dumps(orphan), encoding="utf-8")
    result = doc(book, code=0)
    notes = [line for line in result.stdout.splitlines() if line.startswith("·")]
    assert len(notes) == 3, result.stdout
    assert any("s1.json.bak: the backup is damaged" in n for n in notes)
    assert any("temp file" in n for n in notes)
    assert any("s7" in n and "not in the index" in n for n in notes)
    result = doc(book, "--restore", code=0)
    assert "removed 1 temp file" in result.stdout
    assert not list(folder.glob("*.tmp"))


def test_restore_of_a_healthy_book_changes_nothing(book):
    before = snapshot(book.parent)
    doc(book, "--restore", code=0)
    assert {k: v for k, v in snapshot(book.parent).items() if "lock" not in k} == {
        k: v for k, v in before.items() if "lock" not in k}


def test_every_file_damaged_at_once(book):
    """Index and both sessions damaged: one line each, all mended by one --restore."""
    files = [book, store.sessions_dir(book) / "s1.json", store.sessions_dir(book) / "s2.json"]
    for f in files:
        f.write_bytes(f.read_bytes()[:40])
    result = doc(book, code=1)
    assert len([line for line in result.stdout.splitlines() if line.startswith("✗")]) == 3
    assert "3 problems found" in result.stderr
    doc(book, "--restore", "--yes", code=0)  # two files that can't be read: asked (see below)
    assert doctor.check(book).healthy


def test_the_commands_point_at_doctor(book):
    file = store.sessions_dir(book) / "s2.json"
    file.write_bytes(b"")
    result = runner.invoke(args=["summary", "--db", str(book)])
    assert result.exit_code == 1 and "hachi-score doctor --restore" in result.stderr


def test_a_damaged_index_and_a_damaged_session_together(book):
    """The session put back from its .bak is listed in the index put back from its .bak."""
    file = store.sessions_dir(book) / "s2.json"
    file.write_bytes(SESSION_ONLY["a round that no longer scores"](file.read_bytes()))
    book.write_bytes(b"[")
    result = doc(book, code=1)
    assert len([line for line in result.stdout.splitlines() if line.startswith("✗")]) == 2
    result = doc(book, "--restore", "--yes", code=0)  # s2's round 3 is lost: it would be asked
    assert "healthy: 2 sessions, 5 rounds" in result.stdout and "·" not in result.stdout
    assert summary(book)["session"] == "s2"


def test_doctor_has_help():
    result = runner.invoke(args=["doctor", "--help"])
    assert result.exit_code == 0
    for text in ("--restore", "--json", "--db", "HACHI_SCORE_DB"):
        assert text in result.stdout


# ---------------------------------------------------------------------------------------------
# --restore says what it loses and asks, whatever the damage; one restore mends the index too


def test_restore_asks_even_when_a_session_file_cant_be_read(book):
    """Bytes that can't be read can't be listed: that is said, and asked about, and no answer
    (standard input at its end, or closed) restores nothing."""
    file = store.sessions_dir(book) / "s2.json"
    file.write_bytes(file.read_bytes()[:40])
    before = snapshot(book.parent)
    asked = doc(book, "--restore", code=1)
    lines = asked.stderr.splitlines()
    assert "  s2.json: can't be read, so what it holds beyond its .bak's 2 rounds can't be listed; it is kept beside it" in lines
    assert lines[-2] == "restore them? [y/N] " and lines[-1] == "hachi-score: aborted: nothing was restored"
    assert snapshot(book.parent) == before
    closed = subprocess.run([sys.executable, "-m", "scorekeeper", "doctor", "--restore", "--db", str(book)],
                            capture_output=True, text=True, timeout=HANG, preexec_fn=lambda: os.close(0))
    assert closed.returncode == 1 and "Traceback" not in closed.stderr and "internal error" not in closed.stderr
    assert "can't be listed" in closed.stderr and closed.stderr.endswith("aborted: nothing was restored\n")
    assert snapshot(book.parent) == before
    assert "put back its last good copy s2.json.bak (2 rounds)" in doc(book, "--restore", input="y\n", code=0).stdout


def test_a_missing_session_file_loses_nothing_and_is_asked_about_all_the_same(book):
    """Issue 33: a restore puts nothing back unasked; no answer (or a closed standard input) is a no."""
    (store.sessions_dir(book) / "s1.json").unlink()
    before = snapshot(book.parent)
    result = doc(book, "--restore", code=1)
    assert "--restore puts back s1.json; nothing is lost" in result.stderr and "restore them?" in result.stderr
    assert snapshot(book.parent) == before
    result = doc(book, "--restore", input="y\n", code=0)
    assert "put back its last good copy s1.json.bak" in result.stdout


def test_one_restore_puts_the_index_row_right(book):
    """The session put back is one save older than its index row: the same restore writes the
    row right, so that the book is whole again, its listing and its notes alike."""
    file = store.sessions_dir(book) / "s2.json"
    file.write_bytes(b"\0" * 30)
    result = doc(book, "--restore", "--yes", code=0)
    assert "index rows: corrected the round count of s2, corrected the months count of s2" in result.stdout
    assert "·" not in result.stdout  # no row left saying 3 rounds of a file holding 2
    row = json.loads(book.read_text(encoding="utf-8"))["sessions"]["2"]
    assert (row["rounds"], row["months"], row["file_key"]) == (2, 2, digests.row_key(file))
    again = doc(book, "--restore", "--yes", code=0)
    assert "↺" not in again.stdout and "·" not in again.stdout  # nothing left for a second restore
    assert doc(book, code=0).stdout.splitlines()[1:] == ["✓ healthy: 2 sessions, 5 rounds read and re-scored"]


def test_the_progress_bar_is_gone_before_restore_asks(book, tmp_path):
    """On a terminal the check draws a bar on standard error; it is cleared before the losses are
    listed, and nothing is drawn over the question while it waits for the answer."""
    from test_entry_tty import Terminal

    file = store.sessions_dir(book) / "s2.json"
    file.write_bytes(SESSION_ONLY["a round that no longer scores"](file.read_bytes()))
    before = snapshot(book.parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "HACHI_SCORE"))}
    env.update(HACHI_SCORE_DB=str(book), HOME=str(tmp_path / "home"), LC_ALL="C.UTF-8", LANG="C.UTF-8",
               TERM="xterm", COLUMNS="100", NO_COLOR="1", PYTHONIOENCODING="utf-8")
    term = Terminal(["doctor", "--restore"], env)
    term.expect("restore them?")
    term.waiting()  # blocked on the terminal: everything it drew is there to read
    while select.select([term.master], [], [], 0)[0]:
        term.seen += os.read(term.master, 4096)
    shown = term.text()
    assert "checking the book" in shown  # the bar was drawn while the book was checked
    listed = shown[shown.index("--restore puts back files one save older:"):]
    assert "checking the book" not in listed and listed.endswith("restore them? [y/N] "), repr(listed)
    term.type("n\r")
    assert term.finish() == 1 and "aborted: nothing was restored" in term.text()
    assert snapshot(book.parent) == before
