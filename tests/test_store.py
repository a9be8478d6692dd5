"""The book on disk (CONTRACT.md §5): layout, atomic writes, backups, the lock, damage.

Every book lives under tmp_path; HACHI_SCORE_DB is pointed there so the real home is never used.
"""

from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

from helpers import HANG
import pytest
from tinydb import TinyDB
from tinydb.storages import JSONStorage, Storage

from scorekeeper import digests, files, night, schema, store
from scorekeeper.index import HEAD_ROWS
from scorekeeper.scoring import RoundError, score_dict
from scorekeeper.errors import AlreadyHeld, BookError, SessionError
from scorekeeper.store import Book
from scorekeeper.tables import AtomicLockedStorage
from helpers import add_round, remove_last_round, replace_round

PLAYERS = ["Aki", "Ben", "Chie"]
ROOT = Path(__file__).parent.parent
NIGHT = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "scorekeeper/data/night").glob("*.json"))]
BASHI = json.loads((ROOT / "samples/bashi.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _no_real_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HACHI_SCORE_DB", str(tmp_path / "env-book.json"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / ".local" / "share"))


@pytest.fixture
def path(tmp_path) -> Path:
    return tmp_path / "book" / "book.json"


@pytest.fixture
def book(path) -> Book:
    return Book.open(path)


def bare(f: dict) -> dict:
    """A round file without players and dealer: the session fills them."""
    return {k: v for k, v in f.items() if k not in ("players", "dealer")}


def snapshot(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file under ``folder``: inode, mtime and bytes."""
    return {
        str(p.relative_to(folder)): (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


# ---------------------------------------------------------------------------------------------
# where the book is


def test_book_path_is_the_db_option_first(tmp_path):
    assert store.book_path(str(tmp_path / "x.json")) == tmp_path / "x.json"


def test_book_path_is_then_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("HACHI_SCORE_DB", str(tmp_path / "env.json"))
    assert store.book_path(None) == tmp_path / "env.json"


def test_book_path_is_else_the_user_data_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("HACHI_SCORE_DB")
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_data_dir", lambda app: str(tmp_path / "data" / app))
    assert store.book_path(None) == tmp_path / "data" / "hachi-score" / "book.json"


# ---------------------------------------------------------------------------------------------
# the layout


def test_opening_a_book_creates_nothing(path, book):
    assert not path.parent.exists()
    assert book.sessions() == []
    assert book.current_id() is None


def test_a_new_book_is_an_index_beside_a_folder_of_sessions(path, book):
    sid = book.new_session(PLAYERS)
    assert sid == "s1"
    # the index, its head (derived: what most commands need of it, without reading every row)
    assert sorted(p.name for p in path.parent.iterdir()) == ["book.json", "book.json.head", "book.json.lock",
                                                             "book.sessions"]
    # the session and its digest (derived data for `stats`)
    assert sorted(p.name for p in (path.parent / "book.sessions").iterdir()) == ["s1.digest.json", "s1.json"]
    index = json.loads(path.read_text(encoding="utf-8"))
    assert index["meta"]["1"] == {"schema": schema.SCHEMA, "current": "s1"}
    assert index["sessions"]["1"]["file"] == "s1.json"
    session = json.loads((path.parent / "book.sessions" / "s1.json").read_text(encoding="utf-8"))
    assert session["meta"]["1"] == {"schema": schema.SCHEMA}
    assert session["session"]["1"]["players"] == PLAYERS


def test_every_file_is_a_tinydb_database(path, book):
    assert issubclass(AtomicLockedStorage, Storage)
    sid = book.new_session(PLAYERS)
    add_round(book, sid, NIGHT[0])
    with TinyDB(path, storage=JSONStorage, access_mode="r") as db:
        assert db.table("meta").get(doc_id=1)["schema"] == schema.SCHEMA
        assert [r["id"] for r in db.table("sessions").all()] == ["s1"]
    with TinyDB(path.parent / "book.sessions" / "s1.json", storage=AtomicLockedStorage) as db:
        assert db.table("rounds").get(doc_id=1)["rules"] == "sdin"


def test_the_storage_alone_writes_atomically_under_the_lock(tmp_path):
    target = tmp_path / "plain.json"
    with TinyDB(target, storage=AtomicLockedStorage) as db:
        db.insert({"a": 1})
        db.insert({"a": 2})
    assert json.loads(target.read_text()) == {"_default": {"1": {"a": 1}, "2": {"a": 2}}}
    assert json.loads((tmp_path / "plain.json.bak").read_text()) == {"_default": {"1": {"a": 1}}}
    assert (tmp_path / "plain.json.lock").exists()


def test_a_session_is_stored_as_round_files_with_their_rule_profile(book):
    sid = book.new_session(PLAYERS)
    assert add_round(book, sid, bare(NIGHT[0])) == 1
    assert add_round(book, sid, bare(NIGHT[1])) == 2
    session = book.session(sid)
    assert [r["rules"] for r in session["rounds"]] == ["sdin", "sdin"]
    stored = session["rounds"][1]["round"]
    assert stored["players"] == PLAYERS
    assert stored["dealer"] == NIGHT[1]["dealer"]  # the chain's 親, filled in
    assert score_dict(stored).to_json() == score_dict(NIGHT[1]).to_json()
    assert {"id", "name", "players", "dealer", "planned_rounds", "rate", "created", "rounds"} <= set(session)


def test_no_total_is_kept_beside_the_rounds(path, book):
    sid = book.new_session(PLAYERS)
    for f in NIGHT:
        add_round(book, sid, f)
    text = (path.parent / "book.sessions" / "s1.json").read_text(encoding="utf-8") + path.read_text(encoding="utf-8")
    for word in ('"mon"', '"totals"', '"payments"', '"next_dealer"'):
        assert word not in text


def test_round_files_are_stored_as_card_codes(book):
    sid = book.new_session(PLAYERS)
    assert "8h" in NIGHT[0]["field"]
    f = dict(NIGHT[0], field=" ".join("芒に月" if c == "8h" else c for c in NIGHT[0]["field"]))
    add_round(book, sid, f)
    assert book.session(sid)["rounds"][0]["round"]["field"] == NIGHT[0]["field"]


# ---------------------------------------------------------------------------------------------
# sessions


def test_new_session_checks_its_options(book):
    with pytest.raises(SessionError, match="three"):
        book.new_session(["Aki", "Ben"])
    with pytest.raises(SessionError, match="distinct"):
        book.new_session(["Aki", "Aki", "Ben"])
    with pytest.raises(SessionError, match="--dealer"):
        book.new_session(PLAYERS, dealer="Dan")
    with pytest.raises(SessionError, match="--rounds"):
        book.new_session(PLAYERS, rounds=8)
    with pytest.raises(SessionError, match="--rate"):
        book.new_session(PLAYERS, rate=-1)
    with pytest.raises(SessionError, match="--name"):
        book.new_session(PLAYERS, name="s4")
    with pytest.raises(SessionError, match="empty"):
        book.new_session(["Aki", " ", "Ben"])
    assert book.sessions() == []


def test_sessions_are_listed_oldest_first_and_the_newest_is_current(book):
    a = book.new_session(PLAYERS, name="Friday")
    b = book.new_session(["Dan", "Eri", "Fumi"], dealer="Eri", rounds=6, rate=2.5)
    assert [r["id"] for r in book.sessions()] == [a, b]
    assert book.current_id() == b
    s = book.session(b)
    assert (s["dealer"], s["planned_rounds"], s["rate"]) == ("Eri", 6, 2.5)


def test_a_session_is_found_by_id_name_or_number(book):
    book.new_session(PLAYERS, name="Friday")
    book.new_session(PLAYERS, name="Saturday")
    assert book.resolve("s1") == book.resolve("Friday") == book.resolve("1") == "s1"
    assert book.resolve(None) == "s2"
    with pytest.raises(SessionError, match="no session 'Sunday'"):
        book.resolve("Sunday")


def test_use_makes_a_session_current(book):
    book.new_session(PLAYERS, name="Friday")
    book.new_session(PLAYERS, name="Saturday")
    assert book.use("Friday") == "s1"
    assert book.current_id() == "s1"


def test_names_are_unique(book):
    book.new_session(PLAYERS, name="Friday")
    with pytest.raises(SessionError, match="already exists"):
        book.new_session(PLAYERS, name="Friday")
    first = book.session(book.new_session(PLAYERS))["name"]
    second = book.session(book.new_session(PLAYERS))["name"]
    assert second == f"{first} #2"


def test_no_session_yet_is_a_session_error(book):
    with pytest.raises(SessionError, match="new-session"):
        book.resolve(None)


def test_the_round_count_is_read_from_the_session_files(book):
    sid = book.new_session(PLAYERS)
    add_round(book, sid, NIGHT[0])
    assert book.sessions(with_rounds=True)[0]["rounds"] == 1


# ---------------------------------------------------------------------------------------------
# rounds


def test_a_round_of_other_players_is_refused(book):
    sid = book.new_session(["Dan", "Eri", "Fumi"])
    with pytest.raises(RoundError, match="players"):
        add_round(book, sid, NIGHT[0])
    assert book.session(sid)["rounds"] == []


def test_a_bashi_is_never_saved(book):
    sid = book.new_session(PLAYERS)
    with pytest.raises(RoundError, match="場四"):
        add_round(book, sid, BASHI)
    assert book.session(sid)["rounds"] == []


def test_a_round_is_checked_with_the_sessions_profile(book):
    sid = book.new_session(PLAYERS)  # sdin: one 下げ caller at most
    two_callers = {**NIGHT[0], "sage": ["Aki", "Ben"]}
    with pytest.raises(RoundError, match="only one may"):
        add_round(book, sid, two_callers)
    assert book.session(sid)["rounds"] == []


def test_remove_last_round(book):
    sid = book.new_session(PLAYERS)
    for f in NIGHT[:3]:
        add_round(book, sid, f)
    removed = remove_last_round(book, sid)
    assert removed["round"]["dealer"] == NIGHT[2]["dealer"]
    assert len(book.session(sid)["rounds"]) == 2
    assert add_round(book, sid, NIGHT[2]) == 3


def test_remove_last_round_checks_the_number_it_was_asked_for(book):
    sid = book.new_session(PLAYERS)
    add_round(book, sid, NIGHT[0])
    with pytest.raises(BookError, match="changed meanwhile"):
        remove_last_round(book, sid, expect=2)
    remove_last_round(book, sid, expect=1)
    with pytest.raises(SessionError, match="nothing to undo"):
        remove_last_round(book, sid)


def test_replace_round_keeps_each_later_recorded_dealer_and_lists_the_breaks(book):
    """CONTRACT §5: a later round's 親 is who really dealt it; the rounds whose 親 no longer
    follows the chain are listed, and every later result is recomputed."""
    sid = book.new_session(PLAYERS)
    for f in NIGHT:
        add_round(book, sid, f)
    old = night.replay(book.session(sid))
    # round 3 (親 Ben, won by Aki) replaced by round 1's piles under the same 親: Chie wins
    assert (NIGHT[2]["dealer"], old[2].next_dealer, NIGHT[3]["dealer"]) == ("Ben", "Aki", "Aki")
    changed, breaks = replace_round(book, sid, 3, bare(NIGHT[0]))
    session = book.session(sid)
    results = night.replay(session)
    assert [r["round"]["dealer"] for r in session["rounds"]] == [f["dealer"] for f in NIGHT]
    assert results[2].next_dealer == "Chie" and results[3].round.dealer == "Aki"
    assert breaks == [4]  # round 4 followed Aki's win; now Chie won round 3
    expected = [i + 1 for i in range(12) if old[i].to_json() != results[i].to_json()]
    assert changed == expected and changed[0] == 3


def test_replace_round_with_rechain_moves_every_later_dealer_to_the_new_chain(book):
    sid = book.new_session(PLAYERS)
    for f in NIGHT:
        add_round(book, sid, f)
    old = night.replay(book.session(sid))
    changed, breaks = replace_round(book, sid, 3, bare(NIGHT[0]), rechain=True)
    results = night.replay(book.session(sid))
    for i in range(3, 12):
        assert results[i].round.dealer == results[i - 1].next_dealer
    assert breaks == []
    assert results[3].round.dealer == "Chie"
    expected = [i + 1 for i in range(12) if old[i].to_json() != results[i].to_json() or old[i].round.dealer != results[i].round.dealer]
    assert changed == expected and changed[:2] == [3, 4]


def test_replace_round_refuses_a_round_that_is_not_there(book):
    sid = book.new_session(PLAYERS)
    with pytest.raises(SessionError, match="no rounds"):
        replace_round(book, sid, 1, NIGHT[0])
    add_round(book, sid, NIGHT[0])
    with pytest.raises(SessionError, match="rounds 1 to 1"):
        replace_round(book, sid, 2, NIGHT[0])


def test_import_session_keeps_the_chain_as_written(book):
    data = night.read_export({"players": PLAYERS, "rounds": [NIGHT[0], NIGHT[0], NIGHT[5]], "name": "old"})
    sid = book.import_session(data)
    session = book.session(sid)
    assert [r["round"]["dealer"] for r in session["rounds"]] == ["Aki", "Aki", "Aki"]
    assert session["name"] == "old"
    another = night.read_export({"players": PLAYERS, "rounds": [NIGHT[5], NIGHT[0]], "name": "old"})
    assert book.session(book.import_session(another))["name"] == "old #2"
    assert book.current_id() == "s2"


def test_import_session_refuses_a_night_the_book_holds(book):
    data = night.read_export({"players": PLAYERS, "rounds": [NIGHT[0], NIGHT[5]], "name": "old"})
    sid = book.import_session(data)
    with pytest.raises(AlreadyHeld) as refused:
        book.import_session(data, name="again")
    assert (refused.value.sid, refused.value.how) == (sid, "same")
    assert refused.value.what == "this night is the same night as session s1 'old' (the same players, profile and 2 rounds)"
    longer = night.read_export({"players": PLAYERS, "rounds": [NIGHT[0], NIGHT[5], NIGHT[7]]})
    outcomes = book.import_sessions([longer, data])
    assert [(o.sid, o.how) for o in outcomes] == [(sid, "extends"), (sid, "same")]
    assert [r["id"] for r in book.sessions()] == [sid]


# ---------------------------------------------------------------------------------------------
# a round's cost does not grow with the past


def test_adding_a_round_reads_one_session_and_writes_one_file(book, path, monkeypatch):
    """A round of a session the index's head holds (the current one, the latest nights): the index
    is neither read nor written, however many nights it lists; the head keeps the row's new facts."""
    for _ in range(5):
        sid = book.new_session(PLAYERS)
        add_round(book, sid, NIGHT[0])
    before = snapshot(path.parent)
    reads, writes = [], []
    real_read, real_write = schema.read_book_file, files.atomic_write
    monkeypatch.setattr(schema, "read_book_file", lambda p: reads.append(p.name) or real_read(p))
    monkeypatch.setattr(files, "atomic_write", lambda p, *a, **k: writes.append(p.name) or real_write(p, *a, **k))
    add_round(Book.open(path), "s5", NIGHT[1])
    assert set(reads) == {"s5.json"}
    # the session, then the index's head (its row keeps the round count), then the session's digest
    assert writes == ["s5.json", "book.json.head", "s5.digest.json"]
    after = snapshot(path.parent)
    changed = {name for name in after if before.get(name) != after[name]}
    assert changed == {"book.sessions/s5.json", "book.sessions/s5.json.bak", "book.json.head",
                       "book.sessions/s5.digest.json"}
    head = json.loads(after["book.json.head"][2])
    assert head["rows"]["5"]["rounds"] == 2
    assert head["rows"]["5"]["file_key"] == digests.row_key(Book.open(path).session_path("s5"))
    assert [r["rounds"] for r in Book.open(path).sessions()] == [1, 1, 1, 1, 2]  # the whole listing too
    book.new_session(PLAYERS)  # the next write of the index takes the head's facts into its rows
    assert json.loads(path.read_bytes())["sessions"]["5"]["rounds"] == 2


def test_a_round_of_a_night_the_head_does_not_hold_writes_the_index(book, path, monkeypatch):
    for _ in range(HEAD_ROWS + 2):
        book.new_session(PLAYERS)
    writes: list[str] = []
    real_write = files.atomic_write
    monkeypatch.setattr(files, "atomic_write", lambda p, *a, **k: writes.append(p.name) or real_write(p, *a, **k))
    add_round(Book.open(path), "s1", NIGHT[0])
    assert writes == ["s1.json", "book.json", "book.json.head", "s1.digest.json"]
    assert json.loads(path.read_bytes())["sessions"]["1"]["rounds"] == 1


def test_reading_parses_each_file_once(book, path, monkeypatch):
    sid = book.new_session(PLAYERS)
    add_round(book, sid, NIGHT[0])
    reads = []
    real_read = schema.read_book_file
    monkeypatch.setattr(schema, "read_book_file", lambda p: reads.append(p.name) or real_read(p))
    reader = Book.open(path)
    reader.session(reader.resolve(None))
    reader.sessions(with_rounds=True)
    reader.current_id()
    # the index's head answers the opening, the current session and its row; the whole listing
    # reads the index, once
    assert reads == ["s1.json", "book.json"]


def test_a_reader_sees_what_another_book_wrote(path):
    reader, writer = Book.open(path), Book(path)
    sid = writer.new_session(PLAYERS)
    assert reader.current_id() == sid
    assert reader.session(sid)["rounds"] == []
    add_round(writer, sid, NIGHT[0])
    assert len(reader.session(sid)["rounds"]) == 1
    reader.session(sid)["rounds"].clear()  # a caller's copy: the next read is whole again
    assert len(reader.session(sid)["rounds"]) == 1


# ---------------------------------------------------------------------------------------------
# atomic writes and backups


def test_each_write_keeps_the_previous_version_as_bak(book, path):
    sid = book.new_session(PLAYERS)
    file = path.parent / "book.sessions" / "s1.json"
    add_round(book, sid, NIGHT[0])
    one = file.read_bytes()
    add_round(book, sid, NIGHT[1])
    assert (path.parent / "book.sessions" / "s1.json.bak").read_bytes() == one
    index = path.read_bytes()
    book.new_session(PLAYERS)
    assert (path.parent / "book.json.bak").read_bytes() == index


def test_no_temporary_file_is_left_behind(book, path):
    sid = book.new_session(PLAYERS)
    for f in NIGHT:
        add_round(book, sid, f)
    leftovers = [p.name for p in path.parent.rglob("*") if p.name.startswith(".") or p.suffix == ".tmp"]
    assert leftovers == []


def test_a_failed_replace_leaves_the_file_as_it_was(book, path, monkeypatch):
    sid = book.new_session(PLAYERS)
    add_round(book, sid, NIGHT[0])
    before = snapshot(path.parent)
    real_replace = os.replace

    def failing(src, dst):
        if str(dst).endswith("s1.json"):
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(BookError, match=r"s1\.json: can't be written \(No space left on device\)"):
        add_round(book, sid, NIGHT[1])
    monkeypatch.setattr(os, "replace", real_replace)
    after = snapshot(path.parent)
    assert after["book.sessions/s1.json"] == before["book.sessions/s1.json"]
    assert not [p for p in path.parent.rglob(".*.tmp")]
    assert len(book.session(sid)["rounds"]) == 1


def test_a_failed_operation_writes_nothing(book, path):
    sid = book.new_session(PLAYERS)
    before = snapshot(path.parent)
    with pytest.raises(RuntimeError), book.locked():
        add_round(book, sid, NIGHT[0])
        raise RuntimeError("the person pressed Ctrl-C")
    assert snapshot(path.parent) == before


# ---------------------------------------------------------------------------------------------
# a book that can't be read


DAMAGED = {
    "truncated": lambda good: good[: len(good) // 2],
    "nul bytes": lambda good: b"\x00" * 64,
    "nul in the middle": lambda good: good[:20] + b"\x00\x00" + good[22:],
    "empty (0 bytes)": lambda good: b"",
    "not utf-8": lambda good: b"\xff\xfe" + good,
    "a list": lambda good: b"[]",
    "a table that is a list": lambda good: b'{"meta": []}',
    "no meta": lambda good: b'{"sessions": {}}',
    "not a number as document id": lambda good: b'{"meta": {"x": {"schema": 1}}}',
    "a bad session row": lambda good: good.replace(b'"players":', b'"playerz":', 1),
    "a future schema": lambda good: good.replace(b'"schema":%d' % schema.SCHEMA, b'"schema":99'),
}


@pytest.mark.parametrize("damage", list(DAMAGED))
def test_a_damaged_index_is_never_overwritten_or_removed(path, damage):
    Book.open(path).new_session(PLAYERS)
    bad = DAMAGED[damage](path.read_bytes())
    path.write_bytes(bad)
    before = snapshot(path.parent)
    with pytest.raises(BookError) as e:
        Book.open(path)
    message = str(e.value)
    assert str(path) in message and "\n" not in message
    assert ("newer hachi-score" in message) if damage == "a future schema" else ("can't be read" in message)
    book = Book(path)
    for attempt in (lambda: book.new_session(PLAYERS), lambda: add_round(book, "s1", NIGHT[0]), lambda: book.use("s1")):
        with pytest.raises(BookError):
            attempt()
    assert snapshot(path.parent) == before
    assert path.read_bytes() == bad


def test_the_message_says_what_to_do(path):
    book = Book.open(path)
    book.new_session(PLAYERS)
    book.new_session(PLAYERS)  # now there is a .bak
    path.write_bytes(b'{"meta": {"1": {"schema": 1, "current"')
    with pytest.raises(BookError, match=r"broken JSON .*\(cut short\?\).*book\.json\.bak: copy it over book\.json"):
        Book.open(path)


def test_a_book_path_that_is_a_directory_is_refused(tmp_path):
    with pytest.raises(BookError, match="is a directory"):
        Book.open(tmp_path)


@pytest.mark.parametrize("damage", ["truncated", "nul bytes", "empty (0 bytes)", "a list", "a future schema"])
def test_a_damaged_session_file_is_never_overwritten(book, path, damage):
    sid = book.new_session(PLAYERS)
    add_round(book, sid, NIGHT[0])
    other = book.new_session(PLAYERS)
    file = path.parent / "book.sessions" / "s1.json"
    bad = DAMAGED[damage](file.read_bytes())
    file.write_bytes(bad)
    before = snapshot(path.parent)
    with pytest.raises(BookError, match=str(file)):
        book.session(sid)
    with pytest.raises(BookError):
        add_round(book, sid, NIGHT[1])
    with pytest.raises(BookError):
        remove_last_round(book, sid)
    assert snapshot(path.parent) == before
    # the other sessions still work, and the listing marks the damaged one
    add_round(book, other, NIGHT[0])
    rows = book.sessions(with_rounds=True)
    assert rows[0]["rounds"] is None and str(file) in rows[0]["error"]
    assert rows[1]["rounds"] == 1
    assert file.read_bytes() == bad


def test_a_missing_session_file_is_reported(book, path):
    sid = book.new_session(PLAYERS)
    (path.parent / "book.sessions" / "s1.json").unlink()
    with pytest.raises(BookError, match="missing its file"):
        book.session(sid)


def test_a_session_file_in_the_wrong_shape_is_damage(book, path):
    sid = book.new_session(PLAYERS)
    add_round(book, sid, NIGHT[0])
    file = path.parent / "book.sessions" / "s1.json"
    data = json.loads(file.read_text(encoding="utf-8"))
    data["rounds"]["3"] = data["rounds"].pop("1")
    file.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BookError, match="numbered"):
        book.session(sid)


def test_an_interrupted_create_never_reuses_a_left_over_file(book, path):
    book.new_session(PLAYERS)
    left = path.parent / "book.sessions" / "s2.json"
    left.write_bytes(b"left by a crash")
    assert book.new_session(PLAYERS) == "s3"
    assert left.read_bytes() == b"left by a crash"


# ---------------------------------------------------------------------------------------------
# the lock


def hold_lock(path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(files.lock_path(path), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


class FakeClock:
    """``files.time`` for one test: ``sleep`` moves ``monotonic`` on, and nothing really waits."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_the_lock_waits_are_one_and_ten_seconds(path, monkeypatch):
    monkeypatch.delenv(files.ENV_TEST_LOCK_TIMEOUT, raising=False)
    monkeypatch.delenv(files.ENV_TEST_LOCK_NOTICE, raising=False)
    assert (files.LOCK_NOTICE_AFTER, files.LOCK_TIMEOUT) == (1.0, 10.0)
    book = Book.open(path)
    assert (book.lock.notice_after, book.lock.timeout) == (1.0, 10.0)
    # and they are what a writer does: told at 1 s, given up at 10 s (on a clock of the test's own)
    clock = FakeClock()
    monkeypatch.setattr(files, "time", clock)
    began = clock.now
    told: list[float] = []
    book = Book.open(path, notice=lambda m: told.append(clock.now - began))
    fd = hold_lock(path)
    try:
        with pytest.raises(BookError, match=r"held the book's lock for 10 s; gave up") as e:
            book.new_session(PLAYERS)
    finally:
        os.close(fd)
    assert len(told) == 1 and 1.0 <= told[0] < 1.0 + 2 * files.LOCK_POLL
    assert 10.0 <= clock.now - began < 10.0 + 2 * files.LOCK_POLL, e.value


def test_the_lock_waits_are_parameters_and_testing_knobs(path, monkeypatch):
    monkeypatch.setenv(files.ENV_TEST_LOCK_TIMEOUT, "0.5")
    monkeypatch.setenv(files.ENV_TEST_LOCK_NOTICE, "0.25")
    assert (Book.open(path).lock.timeout, Book.open(path).lock.notice_after) == (0.5, 0.25)
    book = Book.open(path, lock_timeout=3, lock_notice_after=2)  # a parameter comes first
    assert (book.lock.timeout, book.lock.notice_after) == (3, 2)
    for junk in ("", "soon", "0", "-1", "inf", "nan"):  # anything but a positive number is no knob
        monkeypatch.setenv(files.ENV_TEST_LOCK_TIMEOUT, junk)
        assert Book.open(path).lock.timeout == 10.0, junk


def test_a_held_lock_is_waited_for_then_given_up(path):
    notices: list[str] = []
    book = Book.open(path, notice=notices.append, lock_timeout=0.4, lock_notice_after=0.1)
    fd = hold_lock(path)
    try:
        with pytest.raises(BookError, match=r"lock for 0.4 s; gave up, nothing was changed"):
            book.new_session(PLAYERS)
    finally:
        os.close(fd)
    assert len(notices) == 1 and "waiting for the book's lock" in notices[0]
    assert not (path.parent / "book.sessions").exists()


def test_a_writer_that_gives_up_has_said_it_waits_even_when_the_timeout_is_the_shorter(path):
    notices: list[str] = []
    book = Book.open(path, notice=notices.append, lock_timeout=0.1, lock_notice_after=5)
    fd = hold_lock(path)
    try:
        with pytest.raises(BookError, match="gave up"):
            book.new_session(PLAYERS)
    finally:
        os.close(fd)
    assert len(notices) == 1 and "waiting for the book's lock" in notices[0]


def test_a_write_goes_ahead_once_the_lock_is_released(path):
    fd = hold_lock(path)
    notices: list[str] = []

    def told(message: str) -> None:  # the holder lets go once the writer has said it waits
        notices.append(message)
        os.close(fd)

    book = Book.open(path, notice=told, lock_timeout=HANG, lock_notice_after=0.05)
    try:
        assert book.new_session(PLAYERS) == "s1"
    finally:
        if not notices:
            os.close(fd)
    assert len(notices) == 1 and "waiting for the book's lock" in notices[0]
    assert Book.open(path).sessions()[0]["id"] == "s1"


def test_no_notice_when_the_lock_is_free(path):
    notices: list[str] = []
    Book.open(path, notice=notices.append).new_session(PLAYERS)
    assert notices == []


def test_a_killed_holder_never_leaves_the_lock_stuck(path):
    path.parent.mkdir(parents=True)
    code = (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(files.lock_path(path))!r}, os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('locked', flush=True)\n"
        "time.sleep(60)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(BookError, match="lock"):
            Book.open(path, notice=lambda m: None, lock_timeout=0.3).new_session(PLAYERS)
        holder.send_signal(signal.SIGKILL)
        holder.wait(HANG)
        assert Book.open(path).new_session(PLAYERS) == "s1"
    finally:
        holder.kill()
        holder.wait()


def _add_rounds(path: str, rounds: list[dict], barrier) -> None:
    book = Book.open(Path(path))
    barrier.wait()
    for f in rounds:
        add_round(book, "s1", f)


def test_concurrent_writers_lose_no_round_and_keep_the_chain(path):
    Book.open(path).new_session(PLAYERS)
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(3)
    files = [bare(f) for f in NIGHT]
    workers = [ctx.Process(target=_add_rounds, args=(str(path), files[i::3], barrier)) for i in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(HANG)
    assert [w.exitcode for w in workers] == [0, 0, 0]
    session = Book.open(path).session("s1")
    assert len(session["rounds"]) == 12
    results = night.replay(session)
    dealer = "Aki"
    for r in results:  # each round got the 親 of the moment it was added, under the lock
        assert r.round.dealer == dealer
        dealer = r.next_dealer
