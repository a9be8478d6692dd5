"""The book at scale: per-session digests for `stats`, the round count kept in the index for
`sessions`, and what `doctor` says of both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fast_cli import FastRunner
from helpers import EXAMPLE_PILES, TIE_PILES, round_file

from scorekeeper import digests, files, schema
from scorekeeper import stats as stats_module
from scorekeeper import store
from scorekeeper.cli import app
from scorekeeper.store import Book
from helpers import add_round

runner = FastRunner()
PLAYERS = ["Aki", "Ben", "Chie"]
#: EXAMPLE_PILES: Aki +8, Ben −8, Chie 0; TIE_PILES: Aki +5, Ben +5, Chie −10
ROUNDS = [round_file(EXAMPLE_PILES), round_file(TIE_PILES), round_file(EXAMPLE_PILES)]


def cli(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result


def stats_players(*args: str) -> dict:
    return {p: me["mon"] for p, me in json.loads(cli("stats", "--json", *args).stdout)["players"].items()}


@pytest.fixture
def night(book_file) -> Book:
    book = Book.open(book_file)
    sid = book.new_session(PLAYERS)
    for rnd in ROUNDS:
        add_round(book, sid, rnd)
    return book


def digest_file(book: Book, sid: str = "s1") -> Path:
    return book.dir / f"{sid}.digest.json"


def count_rebuilds(monkeypatch) -> list[str]:
    calls: list[str] = []
    real = stats_module.night_digest
    monkeypatch.setattr(stats_module, "night_digest", lambda s, r: calls.append(s["id"]) or real(s, r))
    return calls


# ---------------------------------------------------------------------------------------------
# digests


def test_every_write_keeps_the_digest_and_stats_reads_it_without_replaying(night, monkeypatch):
    assert digest_file(night).is_file()
    data = json.loads(digest_file(night).read_text(encoding="utf-8"))
    assert data["night"]["rounds"] == 3 and data["night"]["totals"] == {"Aki": 21, "Ben": -11, "Chie": -10}
    rebuilt = count_rebuilds(monkeypatch)
    assert stats_players() == {"Aki": 21, "Ben": -11, "Chie": -10}
    assert rebuilt == []  # the digest named the file's very bytes


def edit_behind_its_back(path: Path, keep_times: bool) -> None:
    """Swap Aki and Ben everywhere in the session file: a valid session, the same size, other
    totals; written in place (same inode), and with ``keep_times`` the mtime put back."""
    st = path.stat()
    raw = path.read_bytes().replace(b'"Aki"', b'"@@@"').replace(b'"Ben"', b'"Aki"').replace(b'"@@@"', b'"Ben"')
    with open(path, "r+b") as f:
        f.write(raw)
    if keep_times:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_ino == st.st_ino and path.stat().st_size == st.st_size


@pytest.mark.parametrize("keep_times", [False, True], ids=["mtime moved", "mtime put back"])
def test_a_session_edited_behind_its_back_is_noticed_and_its_digest_rebuilt(night, monkeypatch, keep_times):
    assert stats_players() == {"Aki": 21, "Ben": -11, "Chie": -10}
    edit_behind_its_back(night.session_path("s1"), keep_times)
    rebuilt = count_rebuilds(monkeypatch)
    assert stats_players() == {"Ben": 21, "Aki": -11, "Chie": -10}
    assert rebuilt == ["s1"]
    assert stats_players() == {"Ben": 21, "Aki": -11, "Chie": -10}
    assert rebuilt == ["s1"]  # rebuilt once, then read


def test_a_stale_digest_of_an_older_release_is_rebuilt(night, monkeypatch):
    """An older release edits the session and leaves the digest as it was."""
    old = digest_file(night).read_bytes()
    cli("undo", "--yes")
    digest_file(night).write_bytes(old)  # the 3-round digest beside a 2-round session
    rebuilt = count_rebuilds(monkeypatch)
    assert stats_players() == {"Aki": 13, "Ben": -3, "Chie": -10}
    assert rebuilt == ["s1"]


def test_a_touched_or_copied_session_is_hashed_not_replayed(night, monkeypatch):
    path = night.session_path("s1")
    os.utime(path, ns=(1, 1))
    rebuilt = count_rebuilds(monkeypatch)
    assert stats_players() == {"Aki": 21, "Ben": -11, "Chie": -10}
    assert rebuilt == []  # the bytes' hash still matches
    assert json.loads(digest_file(night).read_text(encoding="utf-8"))["source"]["key"] == digests.stat_key(path)


@pytest.mark.parametrize("junk", [b"", b"{not json", b"[]", b'{"digest": 99}'])
def test_a_broken_digest_is_rebuilt(night, junk):
    digest_file(night).write_bytes(junk)
    assert stats_players() == {"Aki": 21, "Ben": -11, "Chie": -10}
    assert json.loads(digest_file(night).read_text(encoding="utf-8"))["night"]["rounds"] == 3


def test_a_digest_that_cant_be_written_never_blocks_stats_or_summary(night, monkeypatch):
    digest_file(night).unlink()
    digest_file(night).mkdir()  # whatever is there can't be replaced by a file
    assert stats_players() == {"Aki": 21, "Ben": -11, "Chie": -10}
    summary = json.loads(cli("summary", "--json").stdout)
    assert summary["totals"] == {"Aki": 21, "Ben": -11, "Chie": -10}
    cli("round", "--file", str(night.session_path("s1").parent.parent / "r.json"), code=2)  # (no such file)
    add_round(night, "s1", ROUNDS[0])  # writing the session is never stopped by its digest
    assert stats_players() == {"Aki": 29, "Ben": -19, "Chie": -10}

    def full_disk(path, *a, **k):
        if path.name.endswith(".digest.json"):
            raise files.cant_write(path, OSError(28, "No space left on device"))
        return real(path, *a, **k)

    real = files.atomic_write
    monkeypatch.setattr(files, "atomic_write", full_disk)
    digest_file(night).rmdir()
    assert stats_players() == {"Aki": 29, "Ben": -19, "Chie": -10}
    assert json.loads(cli("summary", "--json").stdout)["rounds"] == 4
    assert not digest_file(night).exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="running as root: every folder is writable")
def test_a_read_only_sessions_folder_never_blocks_stats(night):
    digest_file(night).unlink()
    os.chmod(night.dir, 0o555)
    try:
        assert stats_players() == {"Aki": 21, "Ben": -11, "Chie": -10}
        cli("summary")
    finally:
        os.chmod(night.dir, 0o755)


def test_a_damaged_session_is_the_books_error_in_stats(night):
    night.session_path("s1").write_bytes(b"{")
    result = cli("stats", code=1)
    assert "s1.json" in result.stderr and "can't be read" in result.stderr


# ---------------------------------------------------------------------------------------------
# the index keeps the round count


def index_rows(path: Path) -> dict[str, dict]:
    """The index's rows as the book reads them: the index file's, with the facts a round's write
    kept in the index's head alone (:func:`scorekeeper.index.fresh_facts`)."""
    from scorekeeper.index import fresh_facts

    data = json.loads(path.read_text(encoding="utf-8"))
    fresh_facts(path, data)
    return data["sessions"]


def test_the_index_row_keeps_the_round_count_through_round_undo_and_edit(night, book_file, tmp_path):
    assert index_rows(book_file)["1"]["rounds"] == 3
    cli("undo", "--yes")
    assert index_rows(book_file)["1"]["rounds"] == 2
    f = tmp_path / "r.json"
    f.write_text(json.dumps(ROUNDS[0]), encoding="utf-8")
    cli("round", "--file", str(f))
    cli("edit", "1", "--file", str(f))
    row = index_rows(book_file)["1"]
    assert row["rounds"] == 3 and row["file_key"] == digests.row_key(night.session_path("s1"))


def test_a_round_leaves_the_index_as_it_is_and_a_lost_head_loses_nothing(night, book_file):
    """The current night's rounds are kept in the index's head alone; a head lost (a crash, a
    hand) sends the listing back to the session file, and doctor only notes the rows."""
    index = book_file.read_bytes()
    add_round(night, "s1", ROUNDS[1])
    assert book_file.read_bytes() == index and index_rows(book_file)["1"]["rounds"] == 4
    (book_file.parent / "book.json.head").unlink()
    assert json.loads(cli("sessions", "--json", "--all").stdout)[0]["rounds"] == 4  # read from the file
    assert json.loads(cli("summary", "--json").stdout)["rounds"] == 4
    result = cli("doctor")
    assert "the file changed since" in result.stdout and "healthy" in result.stdout
    cli("doctor", "--restore")
    assert json.loads(book_file.read_bytes())["sessions"]["1"]["rounds"] == 4
    assert "the file changed since" not in cli("doctor").stdout


def test_stats_reads_the_books_nights_at_once_while_each_session_is_as_it_was(night, book_file, monkeypatch):
    monkeypatch.setattr(digests, "NIGHTS_STALE", 0)
    night.new_session(["Dan", "Eri", "Fumi"])
    first = stats_players()
    nights = night.dir / digests.NIGHTS_FILE
    assert set(json.loads(nights.read_bytes())["nights"]) == {"s1", "s2"}
    calls = count_rebuilds(monkeypatch)
    reads: list[str] = []
    real = digests.night_of
    monkeypatch.setattr(digests, "night_of", lambda p: reads.append(p.name) or real(p))
    assert stats_players() == first and reads == [] and calls == []  # one file, no digest read
    add_round(night, "s1", ROUNDS[1])  # s1's file changes: its night in the nights file is not believed
    after = stats_players()
    assert after != first and reads == ["s1.json"]
    nights.unlink()
    assert stats_players() == after  # as every night's own digest says


def test_sessions_lists_the_latest_20_and_all_with_all(book_file, monkeypatch):
    book = Book.open(book_file)
    for _ in range(25):
        book.new_session(PLAYERS)
    add_round(book, "s3", ROUNDS[0])
    reads: list[str] = []
    real = schema.read_book_file
    monkeypatch.setattr(schema, "read_book_file", lambda p: reads.append(p.name) or real(p))
    rows = json.loads(cli("sessions", "--json").stdout)
    assert [r["id"] for r in rows] == [f"s{n}" for n in range(6, 26)]
    assert reads == []  # no session file opened, nor the index: its head holds the latest 20 rows
    text = cli("sessions").stdout
    assert "latest 20 of 25" in text and "sessions --all" in text and "s5 " not in text
    rows = json.loads(cli("sessions", "--json", "--all").stdout)
    assert [r["id"] for r in rows] == [f"s{n}" for n in range(1, 26)]
    assert [r["rounds"] for r in rows[:4]] == [0, 0, 1, 0]
    assert "sessions --all" not in cli("sessions", "--all").stdout


def drop_counts(path: Path) -> None:
    """The index as a release before round counts wrote it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for row in data["sessions"].values():
        row.pop("rounds", None)
        row.pop("file_key", None)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_rows_of_an_older_book_fall_back_to_the_file_and_are_filled_in(night, book_file):
    night.new_session(["Dan", "Eri", "Fumi"])
    drop_counts(book_file)
    rows = json.loads(cli("sessions", "--json").stdout)
    assert [r["rounds"] for r in rows] == [3, 0]  # read from the files
    result = cli("doctor")
    assert "2 session rows kept no round count" in result.stdout  # a note: still healthy
    add_round(Book.open(book_file), "s2", round_file(EXAMPLE_PILES, players=["Dan", "Eri", "Fumi"], dealer="Dan")
                                   | {"captured": {"Dan": EXAMPLE_PILES["Aki"], "Eri": EXAMPLE_PILES["Ben"],
                                                   "Fumi": EXAMPLE_PILES["Chie"]}})
    rows = index_rows(book_file)  # the next write fills its own row, and no other
    assert rows["2"]["rounds"] == 1 and "rounds" not in rows["1"]
    result = cli("doctor", "--restore")
    assert "filled in the round count of 1 row" in result.stdout
    rows = index_rows(book_file)
    assert rows["1"]["rounds"] == 3 and rows["2"]["rounds"] == 1
    assert "kept no round count" not in cli("doctor").stdout


def test_a_wrong_round_count_in_the_index_is_a_finding_and_restore_rebuilds_it(night, book_file):
    data = json.loads(book_file.read_text(encoding="utf-8"))
    data["sessions"] = index_rows(book_file)  # with the facts the head kept of the rounds
    data["sessions"]["1"]["rounds"] = 7  # the row still names the file's very bytes
    book_file.write_text(json.dumps(data), encoding="utf-8")
    assert json.loads(cli("sessions", "--json").stdout)[0]["rounds"] == 7  # believed: the key matches
    result = cli("doctor", code=1)
    assert "says 7 rounds, but s1.json holds 3" in result.stdout
    assert "--restore writes the right count into the index" in result.stdout
    report = json.loads(cli("doctor", "--json", code=1).stdout)
    assert report["problems"][0]["restorable"] is True
    result = cli("doctor", "--restore")
    assert "corrected the round count of s1" in result.stdout
    assert index_rows(book_file)["1"]["rounds"] == 3
    assert json.loads(cli("sessions", "--json").stdout)[0]["rounds"] == 3
    cli("doctor")


def test_a_row_older_than_its_file_is_not_believed(night, book_file):
    """A save killed after the session file was replaced and before the index was: the row's key
    no longer names the file, so the listing reads the file, and doctor only notes it."""
    before = book_file.read_bytes()
    add_round(night, "s1", ROUNDS[1])
    book_file.write_bytes(before)  # the index as it was before that round
    assert json.loads(cli("sessions", "--json").stdout)[0]["rounds"] == 4
    result = cli("doctor")
    assert "the file changed since" in result.stdout
    cli("doctor", "--restore")
    assert index_rows(book_file)["1"]["rounds"] == 4


# ---------------------------------------------------------------------------------------------
# doctor


def test_doctor_trusts_no_digest_that_does_not_name_the_bytes(night):
    """A round damaged by hand: the digest names other bytes, so the round is re-scored."""
    path = night.session_path("s1")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["rounds"]["2"]["round"]["field"] = ["1k", "1k", "1k", "1k", "2k", "3k"]  # a 場四, never saved
    path.write_text(json.dumps(data), encoding="utf-8")
    result = cli("doctor", code=1)
    assert "round 2" in result.stdout


def run_doctor(book_file: Path, **kwargs):
    env = {**os.environ, "HACHI_SCORE_DB": str(book_file)}
    return subprocess.run([sys.executable, "-m", "scorekeeper", "doctor"], env=env, capture_output=True, **kwargs)


def test_doctor_prints_no_progress_bar_when_piped(night, book_file):
    proc = run_doctor(book_file)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    assert b"healthy" in proc.stdout and b"\x1b" not in proc.stdout


def test_doctor_shows_progress_on_a_terminal(night, book_file):
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    env = {**os.environ, "HACHI_SCORE_DB": str(book_file)}
    try:
        proc = subprocess.run([sys.executable, "-m", "scorekeeper", "doctor"], env=env, stdout=subprocess.PIPE,
                              stderr=slave, timeout=60)
        os.close(slave)
        seen = b""
        try:
            while chunk := os.read(master, 4096):
                seen += chunk
        except OSError:
            pass
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert b"checking the book" in seen
    assert b"checking the book" not in proc.stdout


# ---------------------------------------------------------------------------------------------
# the index's head: what most commands need of the index, without reading every row


def head_file(book_file: Path) -> Path:
    return book_file.with_name(book_file.name + ".head")


ANSWERS = [("summary", "--json"), ("sessions", "--json"), ("sessions", "--json", "--all"), ("show", "1", "--json")]


def answers(book_file: Path) -> list[tuple[int, str, str]]:
    out = []
    for args in ANSWERS:
        r = runner.invoke(app, list(args))
        out.append((r.exit_code, r.stdout, r.stderr))
    return out


def without_head(book_file: Path) -> list[tuple[int, str, str]]:
    """The answers with no head at all (each command reads the index itself), head put back after."""
    kept = head_file(book_file).read_bytes() if head_file(book_file).exists() else None
    out = []
    for args in ANSWERS:
        head_file(book_file).unlink(missing_ok=True)
        r = runner.invoke(app, list(args))
        out.append((r.exit_code, r.stdout, r.stderr))
    if kept is not None:
        head_file(book_file).write_bytes(kept)
    return out


def test_the_head_never_changes_an_answer(book_file):
    book = Book.open(book_file)
    steps = [lambda: book.new_session(PLAYERS) for _ in range(23)]
    steps += [lambda: add_round(book, "s3", ROUNDS[0]), lambda: book.use("s2"), lambda: add_round(book, "s2", ROUNDS[1]),
              lambda: book.use("s23"), lambda: cli("undo", "--yes", code=2), lambda: book.use("s1")]
    for step in steps:
        step()
        assert head_file(book_file).is_file()  # every write keeps it
        assert answers(book_file) == without_head(book_file)
    assert json.loads(cli("summary", "--json").stdout)["session"] == "s1"  # s1 is current, far behind the latest 20


def test_a_head_of_another_index_is_not_believed(night, book_file):
    """An index replaced behind the book's back (by hand, by an older release, a copy put back)
    is read itself, and the head made anew from it."""
    for _ in range(2):
        night.new_session(PLAYERS)
    assert json.loads(cli("summary", "--json").stdout)["session"] == "s3"
    data = json.loads(book_file.read_text(encoding="utf-8"))
    data["meta"]["1"]["current"] = "s1"
    book_file.write_text(json.dumps(data), encoding="utf-8")
    assert json.loads(cli("summary", "--json").stdout)["session"] == "s1"
    head = json.loads(head_file(book_file).read_text(encoding="utf-8"))
    assert head["meta"]["current"] == "s1" and head["index"] == digests.stat_key(book_file)


@pytest.mark.parametrize("junk", [b"", b"{not json", b"[]", b'{"head": 2}', b'{"head": 1, "rows": {}}', b'{"head": 99, "rows": {}}'])
def test_a_broken_head_is_never_believed_and_is_made_again(night, book_file, junk):
    before = answers(book_file)
    head_file(book_file).write_bytes(junk)
    assert answers(book_file) == before
    assert json.loads(head_file(book_file).read_text(encoding="utf-8"))["count"] == 1


def test_a_head_that_says_otherwise_than_its_index_is_found_by_doctor_and_made_again(night, book_file):
    """The head is what answers (a head made to say otherwise, with the index's key, is shown: the
    index was not read), so doctor checks it against the index, and --restore makes it again."""
    assert "healthy" in cli("doctor").stdout
    head = json.loads(head_file(book_file).read_text(encoding="utf-8"))
    head["rows"]["1"]["name"] = "from the head"
    head_file(book_file).write_text(json.dumps(head), encoding="utf-8")
    assert json.loads(cli("sessions", "--json").stdout)[0]["name"] == "from the head"
    found = json.loads(runner.invoke(app, ["doctor", "--json"]).stdout)
    assert [p["file"] for p in found["problems"]] == [str(head_file(book_file))]
    assert found["problems"][0]["restore_from"] == "head"
    cli("doctor", "--restore", "--yes")
    assert json.loads(cli("sessions", "--json").stdout)[0]["name"] != "from the head"
    assert "healthy" in cli("doctor").stdout


def test_a_damaged_index_is_said_whatever_its_head(night, book_file):
    good = book_file.read_bytes()
    book_file.write_bytes(good[: len(good) // 2])
    result = runner.invoke(app, ["summary", "--json"])
    assert result.exit_code == 1 and "book.json" in result.stderr and "Traceback" not in result.output
    assert book_file.read_bytes() == good[: len(good) // 2]  # a book that can't be read is never written


def test_a_head_that_cant_be_written_never_blocks_a_command(night, book_file):
    head_file(book_file).unlink()
    head_file(book_file).mkdir()  # whatever is there can't be replaced by a file
    assert json.loads(cli("summary", "--json").stdout)["rounds"] == 3
    add_round(night, "s1", ROUNDS[0])
    assert json.loads(cli("summary", "--json").stdout)["rounds"] == 4
