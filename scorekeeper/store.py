"""The book on disk: an index of sessions and one file per session, each a TinyDB database.

Layout, for the book path ``DIR/book.json`` (CONTRACT.md §5: the path names the main JSON file)::

    DIR/book.json               the index: meta {schema, current}, sessions (one row each)
    DIR/book.json.bak           the previous good version of the index
    DIR/book.json.lock          the lock file (fcntl.flock; never removed)
    DIR/book.sessions/s1.json   session s1: meta {schema}, session (its header), rounds
    DIR/book.sessions/s1.json.bak
    DIR/book.sessions/s1.digest.json  what `stats` needs of s1, derived, rebuilt when s1.json changes

Adding a round rewrites only its session's file: old nights are never read or written again, so
a round costs the same in the first night and in the hundredth. The index is written when a
session is created or made current, and with each write of a session: its row keeps what the
listing shows (the round count), so that `sessions` never opens the session files. A row written
by an older release lacks it: the file is read instead, and the next write (or `doctor --restore`)
fills it in.

Beside each session file, its *digest* (:meth:`Book.digest`) holds what `stats` needs of the night
(totals, rounds, yaku counts): derived data, never the truth. It names the size, inode, mtime and
SHA-256 of the session file's bytes it was made from; a digest that no longer matches is rebuilt by
replaying the session, and a digest that can't be written never stops a command.

Every round is kept as its round file (players and dealer filled in, cards as codes) with the rule
profile it was scored with; totals are derived by re-scoring (:mod:`scorekeeper.night`), never kept.

The files themselves are :mod:`scorekeeper.files`'s: each write atomic, the version replaced kept
as ``FILE.bak``, under an exclusive ``flock`` held for the whole read-modify-write. A file that
can't be read is never overwritten or removed: :class:`~scorekeeper.errors.Damaged` says which
file, what is wrong and what to do.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tinydb import TinyDB
from tinydb.storages import Storage
from tinydb.table import Document

from . import __version__, files
from .errors import BookError, CantRead, CantWrite, ChangedMeanwhile, Damaged, DamagedRound, Locked, NewerBook, SessionError

if TYPE_CHECKING:  # annotations only: the book imports no rule at start-up
    from .rules import Rules

#: the errors its callers have always imported from the book (they live in scorekeeper.errors)
__all__ = ["AtomicLockedStorage", "Book", "BookError", "ChangedMeanwhile", "DamagedRound", "SessionError",
           "book_path", "sessions_dir"]

#: 2: the session header holds its rule profile, every value (1: no profile, SDIN)
SCHEMA = 2
BOOK_FILE = "book.json"
ENV_DB = "HACHI_SCORE_DB"
PLANNED_ROUNDS = (12, 6)
MAX_SESSION_NAME = 60
_SESSION_ID = re.compile(r"^s([1-9][0-9]*)$")


def book_path(db: str | os.PathLike[str] | None = None) -> Path:
    """The book's main file: ``--db``, else ``$HACHI_SCORE_DB``, else the user data directory."""
    if db and "\0" in os.fspath(db):
        raise SessionError(f"--db: {os.fspath(db)!r} is not a file name (it holds a NUL byte)")
    if db:
        return Path(db).expanduser()
    env = os.environ.get(ENV_DB)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(files.APP_DIR)) / BOOK_FILE


def sessions_dir(path: Path) -> Path:
    """The folder beside the book that holds one file per session: ``book.json`` -> ``book.sessions``."""
    return path.with_suffix(".sessions") if path.suffix else path.with_name(path.name + ".sessions")


def read_book_file(path: Path) -> dict[str, Any] | None:
    """A book file's data, or None if there is no file. Damage is :class:`Damaged`."""
    raw = files.read_bytes(path)
    return None if raw is None else parse_book_bytes(path, raw)


def parse_book_bytes(path: Path, raw: bytes) -> dict[str, Any]:
    """A book file's data from its bytes (read once by the caller): JSON in TinyDB's shape."""
    data = files.parse_json(path, raw)
    problem = _tinydb_shape(data)
    if problem:
        raise files.damaged(path, f"it is not a hachi-score book file ({problem})")
    return data


def _tinydb_shape(data: Any) -> str | None:
    """What keeps ``data`` from being a TinyDB database: tables of documents keyed by number."""
    if not isinstance(data, dict):
        return "not a JSON object"
    for name, table in data.items():
        if not isinstance(table, dict):
            return f"table {name!r} is not an object"
        for doc_id, doc in table.items():
            if not doc_id.isdigit() or not isinstance(doc, dict):
                return f"table {name!r} holds {doc_id!r}, not a document"
    return None


# ---------------------------------------------------------------------------------------------
# the TinyDB storage


class AtomicLockedStorage(Storage):
    """A TinyDB storage: one JSON file, read once and checked, written atomically under the lock.

    TinyDB's own JSONStorage rewrites the file in place and has no lock. Here ``read`` parses and
    checks the file (damage is a :class:`BookError`, and the file is then never written), and
    ``write`` replaces the file atomically, keeping the previous version as ``FILE.bak``.

    With ``batch=True`` writes are held in memory until :meth:`flush`, so that one operation of
    several TinyDB updates replaces the file once (and the ``.bak`` is the version before the
    operation); a failed operation simply never flushes.
    """

    def __init__(
        self,
        path: str | Path,
        lock: files.BookLock | None = None,
        batch: bool = False,
        read: Callable[[Path], dict[str, Any] | None] | None = None,
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self.lock = lock if lock is not None else files.BookLock(files.lock_path(self.path))
        self.batch = batch
        self._read = read
        self._data: dict[str, Any] | None = None
        self._loaded = False
        self._dirty = False

    def read(self) -> dict[str, dict[str, Any]] | None:
        if not self._loaded:
            self._data = (self._read or read_book_file)(self.path)
            self._loaded = True
        return self._data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        if not self._loaded:
            self.read()  # never replace a file that can't be read
        self._data, self._loaded, self._dirty = data, True, True
        if not self.batch:
            self.flush()

    def flush(self) -> None:
        if not self._dirty:
            return
        payload = json.dumps(self._data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        with self.lock:
            files.sweep_temps(self.path)  # left by a writer that was killed mid-save
            files.atomic_write(self.path, payload + b"\n")
        self._dirty = False

    def close(self) -> None:
        pass  # flushing is explicit: a failed operation must not write half of itself


# ---------------------------------------------------------------------------------------------
# the book


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


_INDEX_ROW_KEYS = {
    "id": str,
    "name": str,
    "players": list,
    "dealer": str,
    "planned_rounds": int,
    "created": str,
    "file": str,
}


class Book:
    """The book at ``path``: open with :meth:`open`; every write takes the lock for its whole
    read-modify-write."""

    def __init__(self, path: Path, notice: Callable[[str], None] = files.say, *,
                 lock_timeout: float | None = None, lock_notice_after: float | None = None) -> None:
        self.path = Path(path)
        if self.path.name in ("", ".", ".."):
            raise CantRead(f"{path}: is a directory, not a book file; give --db the path of a file", self.path)
        self.dir = sessions_dir(self.path)
        self.lock = files.BookLock(files.lock_path(self.path), notice, timeout=lock_timeout,
                                   notice_after=lock_notice_after)
        self._tx: dict[Path, TinyDB] | None = None
        self._tx_after: list[tuple[str, str | None]] = []
        self._seen: dict[Path, tuple[tuple[int, int, int], dict[str, Any] | None]] = {}

    @classmethod
    def open(cls, path: str | Path, notice: Callable[[str], None] = files.say, *,
             lock_timeout: float | None = None, lock_notice_after: float | None = None) -> Book:
        """The book at ``path``; a damaged index is a :class:`BookError`. Creates nothing.

        ``lock_timeout`` and ``lock_notice_after`` (seconds) are the lock's waits, by default
        LOCK_TIMEOUT and LOCK_NOTICE_AFTER (CONTRACT §5: 10 s and 1 s)."""
        book = cls(Path(path), notice, lock_timeout=lock_timeout, lock_notice_after=lock_notice_after)
        index = book._index()
        meta = index.table("meta").get(doc_id=1)
        if meta is not None and meta.get("schema", SCHEMA) < SCHEMA:
            book._migrate()
        return book

    def _migrate(self) -> None:
        """Bring a book written before rule profiles (schema 1) to schema 2, under the lock.

        Each session header gets the profile its rounds were scored with (SDIN, every value);
        nothing else changes. Session files are written before the index, each atomically with
        the version replaced kept as its ``.bak``, so a crash midway leaves a book that opens and
        finishes its migration next time. A book that can't be written is read as it is.
        """
        from .rules import SDIN

        try:
            with self.locked():
                index = self._index()
                for row in index.table("sessions").all():
                    files.sweep_temps(self.session_path(row["id"]))  # left by a migration killed midway
                    db = self._db(self.session_path(row["id"]), self.check_session)
                    if db.storage.read() is None:  # type: ignore[attr-defined]
                        continue  # a missing file is doctor's to report
                    if db.table("meta").get(doc_id=1).get("schema") >= SCHEMA:
                        continue
                    db.table("meta").update({"schema": SCHEMA}, doc_ids=[1])
                    db.table("session").update({"profile": SDIN.to_dict()}, doc_ids=[1])
                    index.table("sessions").update({"rules": SDIN.name}, doc_ids=[row.doc_id])
                index.table("meta").update({"schema": SCHEMA}, doc_ids=[1])
        except (CantRead, CantWrite, Locked) as e:
            self.lock.notice(f"this book was written by an older hachi-score and can't be updated ({e}); "
                             "it is read as it is")

    # -- transactions ------------------------------------------------------------------------

    @contextlib.contextmanager
    def locked(self) -> Iterator[Book]:
        """Hold the lock; every file written inside is replaced once, at the end, if all went well.

        Session files are written before the index, so the index never names a missing file; if
        a later file can't be written, a file this operation created is taken away again, so that
        a failed new-session or import leaves the book as it was.
        Re-entrant: an inner ``locked()`` joins the outer one.
        """
        if self._tx is not None:
            yield self
            return
        with self.lock:
            self._tx = {}
            self._tx_after = []
            try:
                yield self
                dbs = sorted(self._tx.items(), key=lambda kv: kv[0] == self.path)
                created: list[Path] = []
                for path, db in dbs:  # before any file lands: a killed save's leftovers go first
                    if db.storage._dirty or (path == self.path and self._tx_after):  # type: ignore[attr-defined]
                        files.sweep_temps(path)
                try:
                    for path, db in dbs:
                        if path == self.path:
                            self._stamp_rows(db)  # the session files are written: name their bytes
                        new = db.storage._dirty and not path.exists()  # type: ignore[attr-defined]
                        db.storage.flush()  # type: ignore[attr-defined]
                        if new:
                            created.append(path)
                except BaseException:
                    for path in created:  # only ever a file no one has seen confirmed
                        with contextlib.suppress(OSError):
                            path.unlink()
                    raise
            finally:
                self._tx = None
            for sid, verified in self._tx_after:  # still under the lock: the bytes just written
                try:
                    self._rebuild_digest(sid, read_digest(self.digest_path(sid)), verified)
                except Exception:  # derived data: `stats` rebuilds it when it needs it
                    pass
            self._tx_after = []

    def _db(self, path: Path, check: Callable[[Path, dict[str, Any]], None]) -> TinyDB:
        """The file as a TinyDB, checked with ``check`` once each time it is read from disk.

        Inside ``locked()`` it is read afresh once and held for the writes; outside, read-only,
        it is parsed again only if the file was replaced since it was last read.
        """

        def load(p: Path) -> dict[str, Any] | None:
            data = read_book_file(p)
            if data is not None:
                check(p, data)
            return data

        if self._tx is not None:
            if path not in self._tx:
                self._tx[path] = TinyDB(storage=AtomicLockedStorage, path=path, lock=self.lock, batch=True, read=load)
            return self._tx[path]
        read = lambda p: self._read_seen(p, load)
        return TinyDB(storage=AtomicLockedStorage, path=path, lock=self.lock, batch=True, read=read)

    def _read_seen(self, path: Path, load: Callable[[Path], dict[str, Any] | None]) -> dict[str, Any] | None:
        try:
            st = path.stat()
            key = (st.st_ino, st.st_mtime_ns, st.st_size)  # atomic writes give a new inode
        except OSError:
            return load(path)
        seen = self._seen.get(path)
        if seen is not None and seen[0] == key:
            return seen[1]
        data = load(path)
        self._seen[path] = (key, data)
        return data

    # -- the index ---------------------------------------------------------------------------

    def _index(self) -> TinyDB:
        db = self._db(self.path, self.check_index)
        db.storage.read()  # a damaged index fails here, before anything else
        return db

    def check_index(self, path: Path, data: dict[str, Any]) -> None:
        """The schema and the current session's row, each time the index is read; any other row
        is checked when it is used, so that reading the index stays cheap as the book grows."""
        _check_schema(path, data, lambda what: files.damaged(path, f"it is not a hachi-score book ({what})"))
        current = meta_of(data).get("current")
        if current is not None:
            by_id = _SESSION_ID.match(current) if isinstance(current, str) else None
            row = data.get("sessions", {}).get(by_id.group(1)) if by_id else None
            if row is None:
                raise files.damaged(path, f"it is not a hachi-score book (the current session {current!r} is not in it)")
            check_row(path, int(by_id.group(1)), row)

    def sessions(self, with_rounds: bool = False, latest: int | None = None) -> list[dict[str, Any]]:
        """The index rows, oldest first (``latest``: only the last so many).

        ``with_rounds`` makes sure of each row's round count and months count (every round but a
        misdeal): the index keeps both (written with every write of the session); a row from an
        older release that lacks them has its session file read, one at a time and not kept
        (a night of three, where no round is a misdeal, needs no read for its months). A damaged
        session gets ``rounds: None``, ``months: None`` and its ``error``.
        """
        table = sorted(self._index().table("sessions").all(), key=lambda d: d.doc_id)
        if latest is not None:
            table = table[-latest:] if latest > 0 else []
        rows = [_copy(check_row(self.path, r.doc_id, r)) for r in table]
        if not with_rounds:
            for row in rows:
                row.pop("file_key", None)
        if with_rounds:
            for row in rows:
                months = row_months(row)
                if months is not None and row.pop("file_key", None) == row_key(self.session_path(row["id"])):
                    row["months"] = months
                    continue
                try:
                    row["rounds"], row["months"] = self.counts(row)
                except BookError as e:
                    row["rounds"], row["months"], row["error"] = None, None, str(e)
        return rows

    def session_count(self) -> int:
        return len(self._index().table("sessions"))

    def counts(self, row: Mapping[str, Any]) -> tuple[int, int]:
        """The session file's round count and months count (:func:`scorekeeper.night.months_of_records`),
        read and checked afresh and not kept."""
        path = self.session_path(row["id"])
        data = read_book_file(path)
        if data is None:
            raise Damaged(
                f"{path}: session {row['id']} ({row['name']}) is missing its file; "
                f"the index {self.path} names it: restore the file or its .bak", path
            )
        self.check_session(path, data)
        return counts_of(data)

    def current_id(self) -> str | None:
        meta = self._index().table("meta").get(doc_id=1)
        return meta.get("current") if meta else None

    def resolve(self, key: str | None = None) -> str:
        """A session's id from its id, its name or its number; None means the current session."""
        index = self._index()
        table = index.table("sessions")
        if key is None:
            meta = index.table("meta").get(doc_id=1)
            current = meta.get("current") if meta else None
            if current is None:
                if len(table):
                    raise SessionError(f"no current session in {self.path}: pick one with `use SESSION` (see `sessions`)")
                raise SessionError(f"no session yet in {self.path}: start one with `new-session NAME NAME NAME`")
            return current
        key = str(key).strip()
        by_id = _SESSION_ID.match(key)
        if by_id and table.get(doc_id=int(by_id.group(1))) is not None:
            return key
        named = [f"s{row.doc_id}" for row in table.all() if row.get("name") == key]
        if len(named) == 1:
            return named[0]
        if len(named) > 1:
            raise SessionError(f"{len(named)} sessions are named {key!r} ({', '.join(named)}): give the id")
        if key.isdigit() and int(key) > 0 and table.get(doc_id=int(key)) is not None:
            return f"s{int(key)}"
        raise SessionError(f"no session {key!r} in {self.path} (see `sessions`)")

    def use(self, session_id_or_name: str) -> str:
        """Make a session current; returns its id."""
        with self.locked():
            sid = self.resolve(session_id_or_name)
            self._set_current(self._index(), sid)
        return sid

    def _set_current(self, index: TinyDB, sid: str) -> None:  # noqa: D102
        meta = index.table("meta")
        if meta.get(doc_id=1) is None:
            meta.insert(Document({"schema": SCHEMA, "current": sid}, doc_id=1))
        else:
            meta.update({"current": sid}, doc_ids=[1])

    # -- sessions ----------------------------------------------------------------------------

    def session_path(self, sid: str) -> Path:
        if not _SESSION_ID.match(sid):
            raise SessionError(f"{sid!r} is not a session id")
        return self.dir / f"{sid}.json"

    def session(self, sid: str) -> dict[str, Any]:
        """The session's header and its stored rounds, oldest first, plus ``file`` (its path)."""
        db = self._session_file(self.row(sid))
        out = _copy(db.table("session").get(doc_id=1))  # copies the caller may change freely
        out["rounds"] = [_copy(r) for r in sorted(db.table("rounds").all(), key=lambda d: d.doc_id)]
        out["file"] = str(db.storage.path)  # type: ignore[attr-defined]
        return out

    def _session_file(self, row: Mapping[str, Any]) -> TinyDB:
        """The session's file, read and checked; a missing one is the book's damage."""
        path = self.session_path(row["id"])
        db = self._db(path, self.check_session)
        if db.storage.read() is None:
            raise Damaged(
                f"{path}: session {row['id']} ({row['name']}) is missing its file; "
                f"the index {self.path} names it: restore the file or its .bak", path
            )
        return db

    def row(self, sid: str) -> dict[str, Any]:
        """The session's index row (id, name, players, dealer, planned_rounds, rate, created)."""
        by_id = _SESSION_ID.match(sid)
        row = self._index().table("sessions").get(doc_id=int(by_id.group(1))) if by_id else None
        if row is None:
            raise SessionError(f"no session {sid!r} in {self.path} (see `sessions`)")
        return _copy(check_row(self.path, row.doc_id, row))

    def check_session(self, path: Path, data: dict[str, Any]) -> None:
        sid = path.stem
        wrong = lambda what: files.damaged(path, f"it is not a hachi-score session ({what})")
        _check_schema(path, data, wrong)
        header = data.get("session", {}).get("1")
        if not isinstance(header, dict) or header.get("id") != sid:
            raise wrong(f"its header is not session {sid}'s")
        players = header.get("players")
        if not (isinstance(players, list) and 3 <= len(players) <= 6 and all(isinstance(p, str) for p in players)):
            raise wrong("its players are not three to six names")
        profile_name = "sdin"  # schema 1: every round was scored under SDIN
        if "profile" in header:
            from .rules import Rules

            try:
                profile_name = Rules.from_dict(header["profile"]).name
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                raise wrong(f"its rule profile can't be read: {e}") from None
        if header.get("dealer") not in players:
            raise wrong("its first 親 is not one of its players")
        rounds = data.get("rounds", {})
        if sorted(int(k) for k in rounds) != list(range(1, len(rounds) + 1)):
            raise wrong("its rounds are not numbered 1, 2, 3 …")
        for n, record in rounds.items():
            if not isinstance(record.get("round"), dict) or not isinstance(record.get("rules"), str):
                raise wrong(f"round {n} is not a stored round")
            if record["rules"] != profile_name:
                raise wrong(f"round {n} names the rule profile {record['rules']!r}, not the session's {profile_name!r}")

    def new_session(
        self,
        players: Sequence[str],
        *,
        name: str | None = None,
        dealer: str | None = None,
        rounds: int = 12,
        rate: float | None = None,
        rules: Rules | None = None,
    ) -> str:
        """Create a session under a rule profile (default SDIN), make it current, return its id."""
        return self._create(players, name=name, dealer=dealer, planned=rounds, rate=rate, records=[], rules=rules)

    def import_session(self, data: Mapping[str, Any], *, name: str | None = None) -> str:
        """Create a session from checked export data (:func:`scorekeeper.night.read_export`):
        its profile, its rounds and its date."""
        rules = data["rules"]
        records = [{"round": dict(r), "rules": rules.name} for r in data["rounds"]]
        return self._create(
            data["players"],
            name=name or data.get("name"),
            dealer=data.get("dealer"),
            planned=data.get("planned_rounds", 12),
            rate=data.get("rate"),
            records=records,
            dedupe_name=name is None,  # the export's own name is made unique; a --name given is checked
            rules=rules,
            created=data.get("created"),
        )

    def _create(
        self,
        players: Sequence[str],
        *,
        name: str | None,
        dealer: str | None,
        planned: int,
        rate: float | None,
        records: list[dict[str, Any]],
        dedupe_name: bool = False,
        rules: Rules | None = None,
        created: str | None = None,
    ) -> str:
        from .names import PlayerError, resolve_player
        from .rules import SDIN
        from .scoring import RoundError, check_table

        rules = rules or SDIN
        players = list(players)
        try:
            check_table(players, rules)
        except RoundError as e:
            raise SessionError(str(e)) from None
        try:
            dealer = players[0] if dealer is None else resolve_player(dealer, players)
        except PlayerError as e:
            raise SessionError(f"--dealer: {e}: one of {', '.join(players)} (a name, its start, or its number)") from None
        if planned not in PLANNED_ROUNDS:
            raise SessionError(f"--rounds: a night is 12 rounds or 6 (a half game), not {planned}")
        if rate is not None and (isinstance(rate, bool) or not rate > 0 or rate == float("inf")):
            raise SessionError(f"--rate: must be a positive amount of money per 文, not {rate}")
        if isinstance(rate, float) and rate.is_integer():
            rate = int(rate)
        if name is not None:
            name = " ".join(str(name).split())
            bad = not name or len(name) > MAX_SESSION_NAME or any(ord(ch) < 32 or 0xD800 <= ord(ch) <= 0xDFFF for ch in name)
            if bad or _SESSION_ID.match(name):
                raise SessionError(f"--name: {name!r} is not a session name (1–{MAX_SESSION_NAME} characters, not like s1)")
        with self.locked():
            index = self._index()
            rows = index.table("sessions").all()
            names = {r.get("name") for r in rows}
            if name is None or dedupe_name:
                name = _unique(name or datetime.now().strftime("%Y-%m-%d"), names)
            elif name in names:
                raise SessionError(f"--name: a session named {name!r} already exists; pick another name")
            number = max((d.doc_id for d in rows), default=0) + 1
            while self.session_path(f"s{number}").exists():  # a file left by an interrupted create
                number += 1
            sid = f"s{number}"
            header = {
                "id": sid,
                "name": name,
                "players": players,
                "dealer": dealer,
                "planned_rounds": planned,
                "rate": rate,
                "created": created or _now(),
                "profile": rules.to_dict(),
            }
            sdb = self._db(self.session_path(sid), self.check_session)
            sdb.table("meta").insert(Document({"schema": SCHEMA}, doc_id=1))
            sdb.table("session").insert(Document(header, doc_id=1))
            rounds = sdb.table("rounds")
            for n, record in enumerate(records, 1):
                rounds.insert(Document(record, doc_id=n))
            if index.storage.read() is None:
                index.table("meta").insert(Document({"schema": SCHEMA, "current": None}, doc_id=1))
            row = {k: v for k, v in header.items() if k != "profile"}
            index.table("sessions").insert(Document({**row, "rules": rules.name, "file": f"{sid}.json",
                                                     **_record_counts(records)}, doc_id=number))
            self._set_current(index, sid)
            self._digest_after_write(sid)
        return sid

    def _stamp_rows(self, index: TinyDB) -> None:
        """Each session written in this operation gets its file's size and mtime in its index row
        (``file_key``: both survive a copy of the book, unlike the inode), beside the round count: a row whose key no longer names the
        file (a save killed before the index was written, a file edited behind the book's back)
        is not believed, and the file is read instead."""
        table = index.table("sessions")
        for sid, _ in self._tx_after:
            key = row_key(self.session_path(sid))
            doc_id = int(sid[1:])
            if key is not None and table.get(doc_id=doc_id) is not None:
                table.update({"file_key": key}, doc_ids=[doc_id])

    def _note_rounds(self, sid: str, records: Sequence[Mapping[str, Any]]) -> None:
        """Keep the session's round count and months count in its index row (inside ``locked()``,
        written after the session file)."""
        table = self._index().table("sessions")
        doc_id = int(sid[1:])
        row = table.get(doc_id=doc_id)
        counts = _record_counts(records)
        if row is not None and any(row.get(k) != v for k, v in counts.items()):
            table.update(counts, doc_ids=[doc_id])

    # -- rounds ------------------------------------------------------------------------------

    def _session_db(self, sid: str) -> tuple[dict[str, Any], TinyDB]:
        session = self.session(sid)
        return session, self._db(Path(session["file"]), self.check_session)

    def write_rounds(self, sid: str, before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                     *, clean: bool = True) -> None:
        """Replace the session's stored rounds ``before`` with ``after``: a compare-and-swap under
        the lock, so a round saved meanwhile by another terminal is never overwritten (the
        :class:`BookError` says so, and nothing is written). Only the rounds that differ are
        rewritten, in one atomic replace of the session's file; the index keeps its round count
        and the digest is rebuilt. ``clean``: the bytes replaced replayed cleanly (the caller
        replayed them under this lock), so the digest may vouch for the ``.bak`` they become."""
        with self.locked():
            session, db = self._session_db(sid)
            if session["rounds"] != list(before):
                now = len(session["rounds"])
                raise ChangedMeanwhile(f"{session['file']}: the session changed meanwhile (now {now} round"
                                       f"{'' if now == 1 else 's'}); nothing was saved", Path(session["file"]))
            verified = files.file_hash(Path(session["file"])) if clean else None  # these bytes replayed cleanly
            table = db.table("rounds")
            for i, record in enumerate(after, 1):
                if i > len(before) or before[i - 1] != record:
                    table.upsert(Document(dict(record), doc_id=i))
            if len(after) < len(before):
                table.remove(doc_ids=list(range(len(after) + 1, len(before) + 1)))
            self._note_rounds(sid, after)
            self._digest_after_write(sid, verified)

    # -- digests -----------------------------------------------------------------------------

    def digest_path(self, sid: str) -> Path:
        return self.dir / f"{self.session_path(sid).stem}{DIGEST_SUFFIX}"

    def _digest_after_write(self, sid: str, verified: str | None = None) -> None:
        """Once the operation's files are written (still under the lock, so no other writer can
        come between), rebuild the session's digest from its new bytes; ``verified`` is the hash
        of the bytes replaced, which replayed cleanly (now the .bak's)."""
        if self._tx is None:
            return
        self._tx_after.append((sid, verified))

    def digest(self, sid: str) -> dict[str, Any]:
        """What `stats` needs of the session (:func:`scorekeeper.stats.night_digest`), from its
        digest file if that still names the session file's bytes, else rebuilt by replaying the
        session (and written back when it can be: a digest that can't be written is no error).

        The check is cheap first (size, inode, mtime, ctime), then the SHA-256 of the bytes when those
        differ; a digest of another release or format is rebuilt. A damaged session file is a
        :class:`BookError`, as everywhere.
        """
        path = self.session_path(sid)
        key = _stat_key(path)
        old = read_digest(self.digest_path(sid))
        if old is not None and key is not None and old["source"]["key"] == key:
            return old["night"]
        return self._rebuild_digest(sid, old)["night"]

    def _rebuild_digest(self, sid: str, old: dict[str, Any] | None, verified: str | None = None) -> dict[str, Any]:
        from .night import StoredRoundError, replay
        from .stats import night_digest

        path = self.session_path(sid)
        try:
            with open(path, "rb") as f:
                st = os.fstat(f.fileno())
                raw = f.read()
        except FileNotFoundError:
            raise Damaged(f"{path}: session {sid} is missing its file; the index {self.path} names it: "
                          "restore the file or its .bak", path) from None
        except OSError as e:
            raise files.cant_read(path, e) from None
        key = _key_of(st)
        import hashlib  # only where a digest is made: it costs start-up ~2 ms

        sha = hashlib.sha256(raw).hexdigest()
        ok = [h for h in (old or {}).get("source", {}).get("ok", []) if isinstance(h, str)]
        if old is not None and old["source"]["sha256"] == sha:
            digest = {**old, "source": {**old["source"], "key": key}}  # same bytes, touched or copied
        else:
            data = parse_book_bytes(path, raw)
            self.check_session(path, data)
            session = {**data["session"]["1"], "rounds": [data["rounds"][k] for k in sorted(data.get("rounds", {}), key=int)]}
            try:
                results = replay(session)
            except StoredRoundError as e:
                raise files.damaged(path, str(e)) from None
            night = night_digest(session, results)
            digest = {"digest": DIGEST_VERSION, "app": __version__, "source": {"key": key, "sha256": sha, "ok": ok},
                      "night": night}
        if verified:
            ok = [verified, *ok]
        digest["source"]["ok"] = list(dict.fromkeys([sha, *ok]))[:DIGEST_KEEP]
        write_digest(self.digest_path(sid), digest)
        return digest


#: the digest's format; a digest of another format, or written by another release, is rebuilt
DIGEST_VERSION = 2  # 2: the profile's key beside its name
DIGEST_SUFFIX = ".digest.json"
#: hashes of session bytes known to replay cleanly kept in a digest (the file's, its .bak's, …)
DIGEST_KEEP = 3


def _stat_key(path: Path) -> list[int] | None:
    """What says cheaply that a file is still the one seen: its size, mtime, inode and ctime (an
    edit in place that puts the mtime back still moves the ctime)."""
    try:
        return _key_of(os.stat(path))
    except OSError:
        return None


def row_key(path: Path) -> list[int] | None:
    """What an index row keeps to say its round count is of the file as it is: size and mtime."""
    key = _stat_key(path)
    return key[:2] if key else None


def _key_of(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]


def read_digest(path: Path) -> dict[str, Any] | None:
    """A digest file as this release writes it, or None (missing, broken, another format)."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if not (isinstance(data, dict) and data.get("digest") == DIGEST_VERSION and data.get("app") == __version__):
        return None
    source = data.get("source")
    if not (isinstance(source, dict) and isinstance(source.get("key"), list) and isinstance(source.get("sha256"), str)
            and isinstance(source.get("ok", []), list) and isinstance(data.get("night"), dict)):
        return None
    return data


def write_digest(path: Path, digest: Mapping[str, Any]) -> bool:
    """Write a digest atomically, if it can be: a digest is derived data, and a full disk or a
    read-only folder never stops a command. Returns whether it was written."""
    try:
        files.sweep_temps(path)
        files.atomic_write(path, json.dumps(digest, ensure_ascii=False, separators=(",", ":")).encode("utf-8"),
                           backup=False)
    except (BookError, OSError):
        return False
    return True


def count_of(n: Any) -> int | None:
    """A count as an index row keeps it, a whole number ≥ 0; else None."""
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else None


def row_rounds(row: Mapping[str, Any]) -> int | None:
    """The round count an index row keeps, or None (a row from an older release)."""
    return count_of(row.get("rounds"))


def row_months(row: Mapping[str, Any]) -> int | None:
    """The months count an index row keeps, or None. A row from a release before it keeps only
    the round count: with three seated no round is a misdeal, so that is the months count too."""
    months, rounds = count_of(row.get("months")), row_rounds(row)
    if rounds is None:
        return None
    if months is None and len(row.get("players") or ()) <= 3:
        return rounds
    return months


def _record_counts(records: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """What an index row keeps of a session's stored rounds: how many, and the months they use up."""
    from .night import months_of_records

    return {"rounds": len(records), "months": months_of_records(records)}


def counts_of(data: Mapping[str, Any]) -> tuple[int, int]:
    """A session file's round count and months count, from its parsed data."""
    rounds = data.get("rounds", {})
    counts = _record_counts([rounds[k] for k in sorted(rounds, key=int)])
    return counts["rounds"], counts["months"]


def _copy(doc: Any) -> Any:
    """A deep copy of JSON data (a document read from a file, perhaps shared with a cache)."""
    return json.loads(json.dumps(doc, ensure_ascii=False))


def check_row(path: Path, doc_id: int, row: Mapping[str, Any]) -> Mapping[str, Any]:
    """An index row as the book writes it, or the index is damaged."""
    for key, kind in _INDEX_ROW_KEYS.items():
        if not isinstance(row.get(key), kind):
            raise files.damaged(path, f"it is not a hachi-score book (session row {doc_id} has no valid {key!r})")
    if row["id"] != f"s{doc_id}" or row["file"] != f"{row['id']}.json":
        raise files.damaged(path, f"it is not a hachi-score book (session row {doc_id} names {row['id']!r})")
    return row


def meta_of(data: Mapping[str, Any]) -> dict[str, Any]:
    meta = data.get("meta", {}).get("1")
    return meta if isinstance(meta, dict) else {}


def _check_schema(path: Path, data: Mapping[str, Any], wrong: Callable[[str], Damaged]) -> None:
    schema = meta_of(data).get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise wrong("no schema version in its meta table")
    if schema > SCHEMA:
        raise NewerBook(
            f"{path}: written by a newer hachi-score (book schema {schema}; this one reads up to "
            f"{SCHEMA}). It was left as it is: upgrade hachi-score to use it",
            path,
            f"written by a newer hachi-score (book schema {schema})",
        )


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name} #{n}" in taken:
        n += 1
    return f"{name} #{n}"
