"""The book: an index of sessions and one file per session, each a TinyDB database.

Layout, for the book path ``DIR/book.json`` (CONTRACT.md §5: the path names the main JSON file)::

    DIR/book.json               the index: meta {schema, current}, sessions (one row each)
    DIR/book.json.bak           the previous good version of the index
    DIR/book.json.lock          the lock file (fcntl.flock; never removed)
    DIR/book.sessions/s1.json   session s1: meta {schema}, session (its header), rounds
    DIR/book.sessions/s1.json.bak
    DIR/book.sessions/s1.digest.json  what `stats` needs of s1, derived, rebuilt when s1.json changes
    DIR/book.sessions/all.digest.json every night's, at once for `stats`, derived (each names its file)
    DIR/book.json.head          the index's head: current session, count, latest rows (derived)

Adding a round rewrites only its session's file and the row that keeps what the listing and
`import` need of the session (:func:`scorekeeper.digests.row_facts`): in the index's head where
that holds the row (tonight's night), else in the index. Old nights are never read or written
again, and a decade's index is not rewritten, so a round costs the same in the first night and
in the ten-thousandth.

The parts: :mod:`scorekeeper.files` writes each file atomically with its ``.bak`` under the lock,
:mod:`scorekeeper.schema` checks what each file holds, :mod:`scorekeeper.digests` keeps what is
derived from each session. Here, :class:`Book` holds one operation's reads and writes together
(:meth:`Book.locked`): every file it changes is replaced once, at its end, or not at all.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tinydb.table import Document

from . import digests, files, schema
from .errors import (AlreadyHeld, BookError, CantLock, CantRead, CantWrite, ChangedMeanwhile, Damaged, DamagedRound,
                     Locked, SessionError)
from .files import cant_write, damaged
from .index import Index, copy
from .lang import L_, message_of, n_
from .tables import Tables

if TYPE_CHECKING:  # annotations only: the book imports no rule at start-up
    from .rules import Rules

#: what the flows and the phones have always imported from the book; the errors live in
#: scorekeeper.errors, and cant_write and damaged in scorekeeper.files
__all__ = ["Book", "BookError", "CantLock", "ChangedMeanwhile", "DamagedRound", "SessionError", "book_path",
           "cant_write", "damaged", "sessions_dir"]

BOOK_FILE = "book.json"
ENV_DB = "HACHI_SCORE_DB"


def book_path(db: str | os.PathLike[str] | None = None) -> Path:
    """The book's main file: ``--db``, else ``$HACHI_SCORE_DB``, else the user data directory."""
    if db and "\0" in os.fspath(db):
        raise SessionError(L_("--db: {db!r} is not a file name (it holds a NUL byte)", db=os.fspath(db)))
    if db:
        return Path(db).expanduser()
    env = os.environ.get(ENV_DB)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(files.APP_DIR)) / BOOK_FILE


def no_book_at(path: Path) -> bool:
    """Nothing of a book is at ``path``: no main file, no ``.bak`` of it, no sessions folder (a
    lost index beside its sessions is a damaged book, not a missing one). A path that can't be
    looked at (a file on the way, no permission) is not said to be empty: opening it says why."""

    def missing(p: Path) -> bool:
        try:
            p.stat()
        except FileNotFoundError:
            return True
        except (OSError, ValueError):
            return False
        return False

    if path.name in ("", ".", ".."):  # a folder's name: opening it says so
        return False
    return all(missing(p) for p in (path, files.backup_path(path), sessions_dir(path)))


def sessions_dir(path: Path) -> Path:
    """The folder beside the book that holds one file per session: ``book.json`` -> ``book.sessions``."""
    return path.with_suffix(".sessions") if path.suffix else path.with_name(path.name + ".sessions")


class Book:
    """The book at ``path``: open with :meth:`open`; every write takes the lock for its whole
    read-modify-write (:meth:`locked`)."""

    def __init__(self, path: Path, notice: Callable[[str], None] = files.say, *,
                 lock_timeout: float | None = None, lock_notice_after: float | None = None) -> None:
        self.path = Path(path)
        if self.path.name in ("", ".", ".."):
            raise CantRead(files.not_a_book_file(path), self.path)
        self.dir = sessions_dir(self.path)
        self.lock = files.BookLock(files.lock_path(self.path), notice, timeout=lock_timeout,
                                   notice_after=lock_notice_after)
        self.tables = Tables(self.path)
        self.index = Index(self.path, self.tables, self.session_path)
        #: in an operation: the sessions it wrote, each with the hash of the bytes it replaced if
        #: those replayed cleanly
        #: hash of the bytes it replaced if those replayed cleanly, the rounds as their writer
        #: scored them, and the night key where it is known
        self._written: list[tuple[str, str | None, Any, str | None]] = []

    @classmethod
    def open(cls, path: str | Path, notice: Callable[[str], None] = files.say, *,
             lock_timeout: float | None = None, lock_notice_after: float | None = None) -> Book:
        """The book at ``path``; a damaged index is :class:`~scorekeeper.errors.Damaged`. Creates nothing.

        ``lock_timeout`` and ``lock_notice_after`` (seconds) are the lock's waits, by default
        LOCK_TIMEOUT and LOCK_NOTICE_AFTER (CONTRACT §5: 10 s and 1 s)."""
        book = cls(Path(path), notice, lock_timeout=lock_timeout, lock_notice_after=lock_notice_after)
        meta = book.index.meta()  # a damaged index fails here, before anything else
        if meta.get("schema", schema.SCHEMA) < schema.SCHEMA:
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
                index = self.index.db()
                for row in index.table("sessions").all():
                    files.sweep_temps(self.session_path(row["id"]))  # left by a migration killed midway
                    db = self.tables.db(self.session_path(row["id"]), schema.check_session)
                    if db.storage.read() is None:
                        continue  # a missing file is doctor's to report
                    if db.table("meta").get(doc_id=1).get("schema") >= schema.SCHEMA:  # type: ignore[union-attr, operator]
                        continue
                    db.table("meta").update({"schema": schema.SCHEMA}, doc_ids=[1])
                    db.table("session").update({"profile": SDIN.to_dict()}, doc_ids=[1])
                    index.table("sessions").update({"rules": SDIN.name}, doc_ids=[row.doc_id])
                index.table("meta").update({"schema": schema.SCHEMA}, doc_ids=[1])
        except (CantRead, CantWrite, Locked) as e:
            self.lock.notice(L_("this book was written by an older hachi-score and can't be updated ({why}); "
                                "it is read as it is", why=str(e)))

    # -- one operation -------------------------------------------------------------------------

    @contextlib.contextmanager
    def locked(self) -> Iterator[Book]:
        """Hold the lock for one operation: every file written inside is replaced once, at the end,
        if all went well (:meth:`~scorekeeper.tables.Tables.operation`), and then, still under the
        lock, each session written gets its digest rebuilt. Re-entrant: an inner ``locked()``
        joins the outer one."""
        if self.tables.in_operation:
            yield self
            return
        with self.lock, files.listed_once():
            self._written, self.index.noted = [], {}
            with self.tables.operation(before_index=lambda: self.index.stamp([sid for sid, *_ in self._written])):
                yield self
            self.index.written(self.tables.index_written)  # still under the lock: the head follows
            for sid, verified, results, key in self._written:  # the bytes just written
                with contextlib.suppress(Exception):  # derived data: `stats` rebuilds it when it needs it
                    path = self.session_path(sid)
                    # a night an import made (its key known) has no digest yet to start from
                    old = digests.read_digest(digests.digest_path(path)) if key is None else None
                    digests.rebuild(path, old, verified, results, key)
            self._written = []

    def _wrote(self, sid: str, header: Mapping[str, Any], records: Sequence[Mapping[str, Any]],
               verified: str | None = None, results: Sequence[Any] | None = None) -> None:
        """The session's rounds are now ``records``: its row keeps their facts, and its digest is
        rebuilt once the operation is written (``verified``: the hash of the bytes replaced, which
        replayed cleanly; ``results``: ``records`` replayed by the writer, not replayed again)."""
        self.index.note(sid, digests.row_facts(header, records))
        self._written.append((sid, verified, results, None))

    # -- the index -----------------------------------------------------------------------------

    def sessions(self, with_rounds: bool = False, latest: int | None = None) -> list[dict[str, Any]]:
        """The index rows, oldest first (:meth:`~scorekeeper.index.Index.rows`)."""
        return self.index.rows(with_rounds, latest)

    def session_count(self) -> int:
        return self.index.count()

    def current_id(self) -> str | None:
        return self.index.current()

    def resolve(self, key: str | None = None) -> str:
        """A session's id from its id, its name or its number; None means the current session."""
        return self.index.resolve(key)

    def row(self, sid: str) -> dict[str, Any]:
        """The session's index row (id, name, players, dealer, planned_rounds, rate, created)."""
        return self.index.row(sid)

    def use(self, session_id_or_name: str) -> str:
        """Make a session current; returns its id."""
        with self.locked():
            sid = self.resolve(session_id_or_name)
            self.index.set_current(sid)
        return sid

    # -- sessions ------------------------------------------------------------------------------

    def session_path(self, sid: str) -> Path:
        if not schema.SESSION_ID.match(sid):
            raise SessionError(L_("{sid!r} is not a session id", sid=sid))
        return self.dir / f"{sid}.json"

    def session(self, sid: str, *, kept: bool = True) -> dict[str, Any]:
        """The session's header and its stored rounds, oldest first, plus ``file`` (its path).
        ``kept=False``, outside an operation: read afresh and not kept by the book, for a caller
        that reads each session once (`export --all` of a decade)."""
        row = self.row(sid)
        path = self.session_path(sid)
        if kept or self.tables.in_operation:
            data = self.tables.db(path, schema.check_session).storage.read()
        else:
            data = schema.read_book_file(path)
            if data is not None:
                schema.check_session(path, data)
        if data is None:
            raise self.index.missing(row)
        if kept or self.tables.in_operation:  # the book's own copy: copies the caller may change freely
            out = copy(data["session"]["1"])
            out["rounds"] = [copy(r) for r in schema.rounds_of(data)]
        else:  # the caller's alone
            out = dict(data["session"]["1"])
            out["rounds"] = schema.rounds_of(data)
        out["file"] = str(path)
        return out

    def new_session(self, players: Sequence[str], *, name: str | None = None, dealer: str | None = None,
                    rounds: int = 12, rate: float | None = None, rules: Rules | None = None) -> str:
        """Create a session under a rule profile (default SDIN), make it current, return its id."""
        return self._create(players, name=name, dealer=dealer, planned=rounds, rate=rate, records=[], rules=rules)

    def import_session(self, data: Mapping[str, Any], *, name: str | None = None) -> str:
        """Create a session from checked export data (:func:`scorekeeper.night.read_export`): its
        profile, its rounds and its date. A night the book holds already, whole or in part, is
        refused: :class:`~scorekeeper.errors.AlreadyHeld`."""
        outcome = self.import_sessions([data], name=name)[0]
        if isinstance(outcome, AlreadyHeld):
            raise outcome
        return outcome

    def import_sessions(self, nights: Sequence[Mapping[str, Any]], *, name: str | None = None) -> list[str | AlreadyHeld]:
        """Create a session from each night of checked export data, in one operation: all of them
        or, if one can't be, none. A night the book holds already (the same, or one of which one
        holds all the other's rounds: CONTRACT §5), or one taken by this import already, is skipped:
        its place in the list says why (:class:`~scorekeeper.errors.AlreadyHeld`); every other one
        gets its session's id. The last one imported becomes current."""
        from .rules import stored_values

        out: list[str | AlreadyHeld] = []
        with self.locked():
            held = self.index.nights(self.session)
            rows = self.index.table.all()
            taken = _Taken({n for r in rows if isinstance(n := r.get("name"), str)},
                           max((d.doc_id for d in rows), default=0), [], {})
            for i, data in enumerate(nights, 1):
                rules = data["rules"]
                records = [{"round": dict(r), "rules": rules.name} for r in data["rounds"]]
                header = {"players": data["players"], "profile": stored_values(rules)}
                key = digests.night_key(header, records)
                scored = data.get("scored")  # the rounds read_export scored: not scored again
                results = scored[1] if isinstance(scored, tuple) and scored[0] is data["rounds"] else None
                refused = self._held(held.get(key, []), header, records, taken.made)
                if refused is not None:
                    out.append(refused)
                    continue
                try:
                    sid = self._create(data["players"], name=name or data.get("name"), dealer=data.get("dealer"),
                                       planned=data.get("planned_rounds", 12), rate=data.get("rate"), records=records,
                                       rules=rules, created=data.get("created"), taken=taken,
                                       dedupe_name=name is None,  # the export's own name made unique; --name is checked
                                       scored=(results, key))
                except SessionError as e:
                    if len(nights) == 1:
                        raise
                    raise SessionError(L_("sessions[{i}]: {problem}", i=i, problem=message_of(e))) from None
                held.setdefault(key, []).append(sid)
                out.append(sid)
            if taken.rows:  # every night's row at once: a decade's import is not a decade of index rewrites
                self.index.add_rows(taken.rows)
                self.index.set_current(taken.rows[-1]["id"])
        return out

    def _held(self, candidates: Sequence[str], header: Mapping[str, Any],
              records: Sequence[Mapping[str, Any]], made: Mapping[str, Mapping[str, Any]]) -> AlreadyHeld | None:
        """The first of ``candidates`` (sessions sharing a night key) that holds the night of
        ``header`` and ``records``, or that it holds, as the refusal that names it (``made``: the
        sessions this import made, whose rows are not in the index yet)."""
        new = digests.round_keys(header, records) if candidates else []
        for sid in candidates:
            session = made.get(sid) or self.session(sid)
            how = digests.overlap(digests.round_keys(session, session["rounds"]), new)
            if how is not None:
                what = digests.overlap_words(how, L_("session {sid} {name!r}", sid=sid, name=session["name"]),
                                             L_("this night"), len(session["rounds"]), len(records))
                return AlreadyHeld(what, sid, how)
        return None

    def _create(self, players: Sequence[str], *, name: str | None, dealer: str | None, planned: int,
                rate: float | None, records: list[dict[str, Any]], dedupe_name: bool = False,
                rules: Rules | None = None, created: str | None = None, taken: _Taken | None = None,
                scored: tuple[Any, str | None] = (None, None)) -> str:
        """A new session; ``taken``: an import's names and numbers so far, whose index rows it
        keeps to be added at once (else the row is added here, and the session made current);
        ``scored``: ``records`` as their reader scored them, and their night key."""
        from .rules import SDIN, stored_values

        rules = rules or SDIN
        players, dealer, name, rate = schema.check_new_session(players, name=name, dealer=dealer, planned=planned,
                                                               rate=rate, rules=rules, tidy=not records)
        with self.locked():
            if taken is None:
                rows = self.index.table.all()
                names = {n for r in rows if isinstance(n := r.get("name"), str)}
                last = max((d.doc_id for d in rows), default=0)
            else:
                names, last = taken.names, taken.last
            if name is None or dedupe_name:
                name = _unique(name or datetime.now().strftime("%Y-%m-%d"), names)
            elif name in names:
                raise SessionError(L_("--name: a session named {name!r} already exists; pick another name", name=name))
            number = last + 1
            while self.session_path(f"s{number}").exists():  # a file left by an interrupted create
                number += 1
            sid = f"s{number}"
            header = {"id": sid, "name": name, "players": players, "dealer": dealer, "planned_rounds": planned,
                      "rate": rate, "created": created or _now(),
                      "profile": stored_values(rules) if taken is not None else rules.to_dict()}
            sdb = self.tables.db(self.session_path(sid), schema.check_session)
            sdb.table("meta").insert(Document({"schema": schema.SCHEMA}, doc_id=1))
            sdb.table("session").insert(Document(header, doc_id=1))
            for n, record in enumerate(records, 1):
                sdb.table("rounds").insert(Document(record, doc_id=n))
            if taken is not None:
                taken.names.add(name)
                taken.last = number
                results, key = scored
                facts = digests.row_facts(header, records, key)
                taken.rows.append({**self.index.row_of(header, rules.name), **facts})
                taken.made[sid] = {**header, "rounds": records}
                self._written.append((sid, None, results, facts["night_key"]))
                return sid
            self.index.add(header, rules.name)
            self._wrote(sid, header, records)
            self.index.set_current(sid)
        return sid

    # -- rounds ----------------------------------------------------------------------------------

    def write_rounds(self, sid: str, before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                     *, clean: bool = True, results: Sequence[Any] | None = None) -> None:
        """Replace the session's stored rounds ``before`` with ``after``: a compare-and-swap under
        the lock, so a round saved meanwhile by another terminal is never overwritten
        (:class:`~scorekeeper.errors.ChangedMeanwhile`, and nothing is written). Only the rounds
        that differ are rewritten, in one atomic replace of the session's file; the index keeps its
        facts and the digest is rebuilt. ``clean``: the bytes replaced replayed cleanly (the caller
        replayed them under this lock), so the digest may vouch for the ``.bak`` they become.
        ``results``: ``after`` as the writer replayed it (the digest is made from them)."""
        with self.locked():
            session = self.session(sid)
            if session["rounds"] != list(before):
                now = len(session["rounds"])
                raise ChangedMeanwhile(L_("{file}: the session changed meanwhile (now {rounds}); nothing was saved",
                                          file=session["file"], rounds=n_("{n} round", "{n} rounds", now).format(n=now)),
                                       Path(session["file"]))
            verified = files.file_hash(self.session_path(sid)) if clean else None  # these bytes replayed cleanly
            table = self.tables.db(self.session_path(sid), schema.check_session).table("rounds")
            for i, record in enumerate(after, 1):
                if i > len(before) or before[i - 1] != record:
                    table.upsert(Document(dict(record), doc_id=i))
            if len(after) < len(before):
                table.remove(doc_ids=list(range(len(after) + 1, len(before) + 1)))
            self._wrote(sid, session, after, verified, results)

    # -- digests ---------------------------------------------------------------------------------

    def digest_path(self, sid: str) -> Path:
        return digests.digest_path(self.session_path(sid))

    def digest(self, sid: str) -> dict[str, Any]:
        """What `stats` needs of the session (:func:`scorekeeper.stats.night_digest`), from its
        digest file if that still names the session file's bytes, else rebuilt by replaying the
        session (:func:`scorekeeper.digests.night_of`). A damaged session file is
        :class:`~scorekeeper.errors.Damaged`, as everywhere."""
        try:
            return digests.night_of(self.session_path(sid))
        except FileNotFoundError:
            raise self.index.missing(self.row(sid)) from None

    def digests(self, sids: Sequence[str], damaged: dict[str, Damaged] | None = None) -> list[dict[str, Any]]:
        """:meth:`digest` of each session, in order: a decade's nights read at once
        (:func:`scorekeeper.digests.nights_of`). ``damaged``: where a damaged session's error is
        put, and its night left out (else the error is raised)."""
        for sid in sids:
            self.session_path(sid)  # a session id, or SessionError
        try:
            nights = digests.nights_of(self.dir, sids, damaged)
        except FileNotFoundError as e:
            raise self.index.missing(self.row(str(e.filename))) from None
        return [nights[sid] for sid in sids if sid in nights]


class _Taken:
    """An import's session names and last session number so far, and the index rows it adds. A
    plain class: a dataclass costs every command ~0.7 ms of start-up to make, and this is only
    `import`'s."""

    __slots__ = ("names", "last", "rows", "made")

    def __init__(self, names: set[str], last: int, rows: list[dict[str, Any]],
                 made: dict[str, dict[str, Any]]) -> None:
        self.names = names
        self.last = last
        self.rows = rows
        #: the sessions made so far, by id: header and rounds, as :meth:`Book.session` gives them
        self.made = made


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name} #{n}" in taken:
        n += 1
    return f"{name} #{n}"
