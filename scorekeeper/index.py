"""The book's index (``book.json``): a row per session, and which session is current.

A row is the session's header without its profile (id, name, players, dealer, planned_rounds,
rate, created; ``rules``: the profile's name; ``file``), plus what the book derives from the
session's rounds (:func:`scorekeeper.digests.row_facts`: the round count, the months count, the
night key) and the size and mtime of the file those facts are of (``file_key``). The facts are
rewritten with every write of the session, so that `sessions` lists a year of nights and `import`
finds a night held already without opening them; a row whose ``file_key`` no longer names its file
(an older release's row, a save killed before the index was written, a file edited by hand) is not
believed, and the file is read instead.

A round changes nothing of the index but its session's facts. Where that session's row is in the
index's head (the current session, the latest nights), the round's write keeps the new facts in the
head alone and leaves the index file as it is: a decade's index is not rewritten for each round.
The head names the index file it is of, and each fact names its session file (``file_key``), so a
head lost or torn by a crash only sends the listing back to the session file; the index takes the
head's facts into its rows whenever it is read (:func:`fresh_facts`), and so the next write of the
index keeps them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TYPE_CHECKING

from tinydb.table import Document, Table

from . import digests, files, schema
from .errors import BookError, Damaged, SessionError
from .lang import message_of
from .lang import L_, quote
from .names import tidy

if TYPE_CHECKING:
    from .tables import Tables
    from tinydb import TinyDB

_MISSING = object()
#: the latest rows the head keeps besides the current one: what `sessions` lists without --all
HEAD_ROWS = 20
#: the head's format; a head of another format is rebuilt. 2: its rows may hold facts newer than
#: the index's (a round's write); a release that reads 1 would take those for a wrong head
HEAD_VERSION = 2
#: what a row keeps of its session's file (:func:`scorekeeper.digests.row_facts` and ``file_key``):
#: all a round changes in it, and all the head may hold newer than the index
FACTS = ("rounds", "months", "night_key", "file_key")


def head_path(path: Path) -> Path:
    """``book.json.head`` beside ``book.json``: the index's head (:meth:`Index.head`)."""
    return path.with_name(path.name + ".head")


def head_of(data: Mapping[str, Any], key: list[int]) -> dict[str, Any]:
    """The head of the index ``data`` (read and checked) whose file's :func:`~scorekeeper.digests.stat_key`
    is ``key``: its meta, its row count, its latest rows and the current one's, as they are in it."""
    sessions = data.get("sessions", {})
    numbers = sorted(sessions, key=int)
    keep = set(numbers[-HEAD_ROWS:])
    meta = schema.meta_of(data)
    current = meta.get("current")
    by_id = schema.SESSION_ID.match(current) if isinstance(current, str) else None
    if by_id and by_id.group(1) in sessions:
        keep.add(by_id.group(1))
    return {"head": HEAD_VERSION, "index": key, "meta": meta, "count": len(sessions),
            "latest": numbers[-HEAD_ROWS:], "rows": {n: sessions[n] for n in sorted(keep, key=int)}}


def head_believed(path: Path, key: list[int] | None) -> dict[str, Any] | None:
    """The head kept at ``path`` if it is one, of the index file whose stat key is ``key``."""
    try:
        head = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return head if key is not None and _head_shape(head) and head["index"] == key else None


def fresh_facts(path: Path, data: dict[str, Any], newer: Mapping[str, Mapping[str, Any]] | None = None) -> None:
    """Put into the rows of ``data`` (the index at ``path``, just read) the facts its head keeps
    newer than it (a round's write keeps them in the head only), and ``newer`` (by row number: the
    facts an operation has noted so far). A head that does not name the index file as it is now
    gives nothing."""
    sessions = data.get("sessions")
    if not isinstance(sessions, dict):
        return
    head = head_believed(head_path(path), digests.stat_key(path))
    for rows in (head["rows"] if head is not None else {}, newer or {}):
        for n, row in rows.items():
            mine = sessions.get(n)
            if isinstance(mine, dict) and isinstance(row, Mapping):
                mine.update({k: row[k] for k in FACTS if k in row})


def _head_shape(head: Any) -> bool:
    return (isinstance(head, dict) and head.get("head") == HEAD_VERSION and isinstance(head.get("meta"), dict)
            and isinstance(head.get("count"), int) and isinstance(head.get("rows"), dict)
            and all(isinstance(n, str) and n.isdecimal() and isinstance(r, dict) for n, r in head["rows"].items())
            and isinstance(head.get("latest"), list) and all(n in head["rows"] for n in head["latest"]))


class Index:
    """The index at ``path``, read through ``tables``; ``session_path`` names a session's file."""

    def __init__(self, path: Path, tables: Tables, session_path: Callable[[str], Path]) -> None:
        self.path, self.tables, self.session_path = path, tables, session_path
        #: in an operation that has not read the index: the facts noted for rows of the head, by
        #: row number, written into the head at its end (:meth:`facts_written`)
        self.noted: dict[str, dict[str, Any]] = {}

    def db(self) -> TinyDB:
        """The index, read and checked: a damaged index fails here, before anything else. Its rows
        hold the newest facts (:func:`fresh_facts`)."""
        db = self.tables.db(self.path, self._check)
        db.storage.read()
        return db

    def _check(self, path: Path, data: dict[str, Any]) -> None:
        schema.check_index(path, data)
        fresh_facts(path, data, self.noted if self.tables.in_operation else None)

    def _index_read(self) -> bool:
        """In an operation: whether it has read the index (then every change goes to the index)."""
        return self.tables.holds(self.path)

    # -- the head: what most commands need, without reading every row ---------------------------

    def head(self) -> dict[str, Any] | None:
        """The index's head (:func:`head_of`), outside an operation or in one that has not read
        the index (under the lock, no one else changes it): from ``book.json.head`` when that names
        the index file as it is now (size, mtime, inode, ctime), else made from the index, read and
        checked as always, and written for the next command. None with no index.

        The head is derived data, as a digest is: a head that is missing, torn or of another
        version of the index is never believed, and one that can't be written stops nothing.
        """
        if self.tables.in_operation and self._index_read():
            return None
        key = digests.stat_key(self.path)  # before the index is read: a head is never newer than its key
        if key is None:
            self.db()  # no index here: said as always (a missing book, a folder in the way)
            return None
        seen = self.__dict__.get("_head")
        if seen is not None and seen[0] == [key, digests.stat_key(head_path(self.path))]:
            return seen[1]  # type: ignore[no-any-return]
        head = head_believed(head_path(self.path), key)
        if head is None:
            data = schema.read_book_file(self.path)  # afresh, not a copy kept by this process
            if data is None:
                return None
            schema.check_index(self.path, data)
            head = head_of(data, key)
            self.write_head(head)
        self.__dict__["_head"] = [[key, digests.stat_key(head_path(self.path))], head]
        return head  # type: ignore[no-any-return]

    def write_head(self, head: Mapping[str, Any]) -> None:
        """Keep ``head`` as ``book.json.head``, if it can be (derived: never a command's failure); a
        book whose index is made read-only is written nothing, its head included."""
        try:
            files.refuse_read_only(self.path)
            files.atomic_write(head_path(self.path), json.dumps(head, ensure_ascii=False, separators=(",", ":"))
                               .encode("utf-8"), backup=False, durable=False)  # derived: it names its index
        except (BookError, OSError):
            pass

    def written(self, data: Mapping[str, Any] | None) -> None:
        """The operation is written (still under the lock): the index file was just replaced with
        ``data``, and its head follows; or the index was left as it is (None), and the head keeps
        the facts the operation noted for its rows."""
        noted, self.noted = self.noted, {}
        key = digests.stat_key(self.path)
        if data is not None and key is not None:
            self.write_head(head_of(data, key))
        elif noted:
            head = self.head()
            if head is not None:
                rows = {n: {**row, **noted.get(n, {})} for n, row in head["rows"].items()}
                self.write_head({**head, "rows": rows})

    def meta(self) -> dict[str, Any]:
        """The index's meta document (schema, current), {} in a book with none."""
        head = self.head()
        if head is not None:
            return dict(head["meta"])
        meta = self.db().table("meta").get(doc_id=1)
        return dict(meta) if meta else {}

    def count(self) -> int:
        """How many sessions the index lists."""
        head = self.head()
        return int(head["count"]) if head is not None else len(self.table)

    @property
    def table(self) -> Table:
        return self.db().table("sessions")

    def rows(self, with_rounds: bool = False, latest: int | None = None) -> list[dict[str, Any]]:
        """The rows as the listing shows them, oldest first (``latest``: only the last so many).

        ``with_rounds`` makes sure of each row's round count and months count (every round but a
        misdeal): a row that does not keep them of its file as it is has its file read, one at a
        time and not kept (a night of three, where no round is a misdeal, needs no read for its
        months). A damaged session gets ``rounds: None``, ``months: None`` and its ``error``.
        """
        head = self.head() if latest is not None and latest <= HEAD_ROWS else None
        if head is not None:
            table = [(int(n), head["rows"][n]) for n in head["latest"]]
        else:
            table = [(d.doc_id, d) for d in sorted(self.table.all(), key=lambda d: d.doc_id)]
        if latest is not None:
            table = table[-latest:] if latest > 0 else []
        rows = [row_copy(schema.check_row(self.path, n, r)) for n, r in table]
        for row in rows:
            file_key = row.pop("file_key", None)
            row.pop("night_key", None)
            if not with_rounds:
                continue
            months = digests.row_months(row)
            if months is not None and file_key == digests.row_key(self.session_path(row["id"])):
                row["months"] = months
                continue
            try:
                row["rounds"], row["months"] = self.counts(row)
            except BookError as e:
                row["rounds"], row["months"], row["error"] = None, None, message_of(e)
        return rows

    def counts(self, row: Mapping[str, Any]) -> tuple[int, int]:
        """The session file's round count and months count, read and checked afresh and not kept."""
        path = self.session_path(row["id"])
        data = schema.read_book_file(path)
        if data is None:
            raise self.missing(row)
        schema.check_session(path, data)
        return digests.counts_of(schema.rounds_of(data))

    def missing(self, row: Mapping[str, Any]) -> Damaged:
        """The error for a session the index lists whose file is gone."""
        path = self.session_path(row["id"])
        return Damaged(L_("{path}: session {sid} ({name}) is missing its file; the index {index} names it: "
                          "restore the file or its .bak", path=str(path), sid=row["id"], name=row["name"],
                          index=str(self.path)),
                       path)

    def row(self, sid: str) -> dict[str, Any]:
        """The session's row (id, name, players, dealer, planned_rounds, rate, created)."""
        by_id = schema.SESSION_ID.match(sid)
        head = self.head() if by_id else None
        if head is not None and by_id and by_id.group(1) in head["rows"]:
            return row_copy(schema.check_row(self.path, int(by_id.group(1)), head["rows"][by_id.group(1)]))
        data = self.tables.data(self.path, self._check) if by_id else None
        row = (data or {}).get("sessions", {}).get(by_id.group(1)) if by_id else None
        if row is None or by_id is None:
            raise SessionError(no_session(sid, self.path))
        return row_copy(schema.check_row(self.path, int(by_id.group(1)), row))

    def current(self) -> str | None:
        return self.meta().get("current")

    def set_current(self, sid: str) -> None:
        meta = self.db().table("meta")
        if meta.get(doc_id=1) is None:
            meta.insert(Document({"schema": schema.SCHEMA, "current": sid}, doc_id=1))
        else:
            meta.update({"current": sid}, doc_ids=[1])

    def resolve(self, key: str | None = None) -> str:
        """A session's id from its id, its name or its number; None means the current session."""
        if key is None:
            current = self.current()
            if current is None:
                if self.count():
                    raise SessionError(L_("no current session in {path}: pick one with `use SESSION` (see `sessions`)",
                                          path=str(self.path)))
                raise SessionError(L_("no session yet in {path}: start one with `new-session NAME NAME NAME`",
                                      path=str(self.path)))
            return current
        key = tidy(str(key))  # as a session's name is kept
        by_id = schema.SESSION_ID.match(key)
        head = self.head() if by_id else None
        if head is not None and by_id and by_id.group(1) in head["rows"]:
            return key
        table = self.table
        if by_id and table.get(doc_id=int(by_id.group(1))) is not None:
            return key
        named = [f"s{row.doc_id}" for row in table.all() if row.get("name") == key]
        if len(named) == 1:
            return named[0]
        if len(named) > 1:
            raise SessionError(L_("{n} sessions are named {key} ({ids}): give the id", n=len(named), key=quote(key),
                                  ids=named))
        if key.isdecimal() and int(key) > 0 and table.get(doc_id=int(key)) is not None:
            return f"s{int(key)}"
        raise SessionError(no_session(key, self.path))

    def add(self, header: Mapping[str, Any], rules: str) -> None:
        """A row for a new session (its facts follow with :meth:`note`)."""
        self.add_rows([self.row_of(header, rules)])

    @staticmethod
    def row_of(header: Mapping[str, Any], rules: str) -> dict[str, Any]:
        """A new session's row: its header without its profile, the profile's name, its file."""
        row = {k: v for k, v in header.items() if k != "profile"}
        return {**row, "rules": rules, "file": f"{header['id']}.json"}

    def add_rows(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Rows for new sessions, in one write of the table (an import adds a decade's at once)."""
        db = self.db()
        if db.storage.read() is None:
            db.table("meta").insert(Document({"schema": schema.SCHEMA, "current": None}, doc_id=1))
        db.table("sessions").insert_multiple([Document(dict(row), doc_id=int(row["id"][1:])) for row in rows])

    def note(self, sid: str, facts: Mapping[str, Any]) -> None:
        """Keep the session's facts in its row, where they changed: in the head alone where the
        operation has not read the index and the head holds the row (:meth:`written`)."""
        head = self._head_holding(sid)
        if head is not None:
            kept = {**head["rows"][sid[1:]], **self.noted.get(sid[1:], {})}
            if any(kept.get(k, _MISSING) != v for k, v in facts.items()):
                self.noted.setdefault(sid[1:], {}).update(facts)
            return
        table = self.table
        row = table.get(doc_id=int(sid[1:]))
        if row is not None and any(row.get(k, _MISSING) != v for k, v in facts.items()):
            table.update(dict(facts), doc_ids=[int(sid[1:])])

    def _head_holding(self, sid: str) -> dict[str, Any] | None:
        """In an operation that has not read the index: the head, if it holds the session's row."""
        if not self.tables.in_operation or self._index_read():
            return None
        head = self.head()
        return head if head is not None and sid[1:] in head["rows"] else None

    def stamp(self, sids: Sequence[str]) -> None:
        """Each session's row names its file's bytes as they are now (``file_key``): the files are written."""
        keys = {sid: key for sid in sids if (key := digests.row_key(self.session_path(sid))) is not None}
        for sid in [sid for sid in keys if self._head_holding(sid) is not None]:
            self.noted.setdefault(sid[1:], {})["file_key"] = keys.pop(sid)
        if not keys:
            return
        table = self.table
        numbers = [int(sid[1:]) for sid in keys if table.contains(doc_id=int(sid[1:]))]
        if numbers:  # one write of the table, however many sessions the operation wrote
            table.update(lambda row: row.__setitem__("file_key", keys[row["id"]]), doc_ids=numbers)

    def nights(self, session: Callable[[str], Mapping[str, Any]]) -> dict[str | None, list[str]]:
        """The sessions by night key; a row that keeps no key of its file as it is has its session
        read (``session``) and its row put right."""
        held: dict[str | None, list[str]] = {}
        table = self.table
        for row in table.all():
            key = row.get("night_key", _MISSING)
            file_key = digests.row_key(self.session_path(row["id"]))
            if key is _MISSING or row.get("file_key") != file_key:
                stored = session(row["id"])
                facts = digests.row_facts(stored, stored["rounds"])
                table.update({**facts, "file_key": file_key}, doc_ids=[row.doc_id])
                key = facts["night_key"]
            held.setdefault(key, []).append(row["id"])
        return held


def no_session(key: str, path: Path) -> str:
    """The line for a session the index does not hold."""
    return L_("no session {key} in {path} (see `sessions`)", key=quote(key), path=str(path))


def row_copy(row: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy of an index row, made quicker than :func:`copy` for a row of names, numbers and
    lists of them, as the book writes one (a decade's listing copies 10,000 of them)."""
    out: dict[str, Any] = {}
    for k, v in row.items():
        if isinstance(v, (list, tuple)) and all(x is None or isinstance(x, (str, int, float)) for x in v):
            out[k] = list(v)
        elif v is None or isinstance(v, (str, int, float)):
            out[k] = v
        else:
            out[k] = copy(v)
    return out


def copy(doc: Any) -> Any:
    """A deep copy of JSON data (a document read from a file, perhaps shared with a cache)."""
    return json.loads(json.dumps(doc, ensure_ascii=False))
