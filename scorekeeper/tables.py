"""The book's files as TinyDB databases, each read once and written once per operation.

TinyDB's own JSONStorage rewrites a file in place and has no lock. Here a file is opened through
:class:`AtomicLockedStorage`, which implements TinyDB's three storage calls and nothing else:
``read`` parses and checks the file once (damage is :class:`~scorekeeper.errors.Damaged`, and the
file is then never written), ``write`` hands the new data on, ``close`` holds nothing.

:class:`Tables` gives the book its databases. Outside an operation they are read-only, and a file
is parsed again only when it was replaced since. Inside one (:meth:`Tables.operation`, under the
book's lock) each file is read afresh once and held; what TinyDB writes is kept, and written at
the end, each file once, atomically with its ``.bak`` (:func:`scorekeeper.files.atomic_write`):
the session files first, then the index, so that the index never names a missing file. If a file
can't be written, the files the operation created are taken away again; an operation that fails
writes nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

from . import files, schema

Load = Callable[[Path], "dict[str, Any] | None"]


def _checked(check: Callable[[Path, dict[str, Any]], None]) -> Load:
    """A book file read, and checked with ``check`` when it is there."""

    def load(p: Path) -> dict[str, Any] | None:
        data = schema.read_book_file(p)
        if data is not None:
            check(p, data)
        return data

    return load


class AtomicLockedStorage(Storage):
    """A TinyDB storage for one book file. ``write`` hands the data to ``keep``; without ``keep``
    each write replaces the file at once, atomically, under its lock, the previous version kept as
    ``.bak`` (TinyDB used on its own)."""

    def __init__(self, path: str | Path, load: Load | None = None,
                 keep: Callable[[Path, dict[str, Any]], None] | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self._load = load or schema.read_book_file
        self._keep = keep
        self._data: dict[str, Any] | None = None
        self._loaded = False

    def read(self) -> dict[str, dict[str, Any]] | None:
        if not self._loaded:
            self._data, self._loaded = self._load(self.path), True
        return self._data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        self.read()  # never replace a file that can't be read
        self._data = data
        if self._keep is not None:
            self._keep(self.path, data)
            return
        with files.BookLock(files.lock_path(self.path)):
            files.sweep_temps(self.path)  # left by a writer that was killed mid-save
            files.atomic_write(self.path, files.json_bytes(data))

    def close(self) -> None:
        pass  # nothing is held open


class Tables:
    """The databases of the book whose index is ``index``."""

    def __init__(self, index: Path) -> None:
        self.index = index
        self._held: dict[Path, TinyDB] | None = None  # in an operation: the files it read
        self._pending: dict[Path, dict[str, Any]] = {}  # in an operation: what it writes at its end
        self._seen: dict[Path, tuple[tuple[int, int, int], dict[str, Any] | None]] = {}
        #: after an operation that replaced the index: what it wrote (its head is made from it)
        self.index_written: dict[str, Any] | None = None

    @property
    def in_operation(self) -> bool:
        return self._held is not None

    def holds(self, path: Path) -> bool:
        """In an operation: whether it has read ``path``."""
        return self._held is not None and path in self._held

    def db(self, path: Path, check: Callable[[Path, dict[str, Any]], None]) -> TinyDB:
        """The file as a TinyDB, checked with ``check`` once each time it is read from disk."""

        load = _checked(check)
        if self._held is None:
            return TinyDB(path, storage=AtomicLockedStorage, load=lambda p: self._read_seen(p, load))
        if path not in self._held:
            self._held[path] = TinyDB(path, storage=AtomicLockedStorage, load=load, keep=self._pending.__setitem__)
        return self._held[path]

    def data(self, path: Path, check: Callable[[Path, dict[str, Any]], None]) -> dict[str, Any] | None:
        """The file's data, as :meth:`db` holds it (not to be changed): what a look-up of one row
        needs, without a TinyDB made around it (a decade's export looks up 10,000)."""
        if self._held is None:
            return self._read_seen(path, _checked(check))
        return self.db(path, check).storage.read()

    def _read_seen(self, path: Path, load: Load) -> dict[str, Any] | None:
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

    @contextlib.contextmanager
    def operation(self, before_index: Callable[[], None]) -> Iterator[None]:
        """Hold every file read and written inside, and write them at the end if all went well
        (the caller holds the lock). ``before_index`` runs once the session files are written,
        before the index is."""
        self._held, self._pending, self.index_written = {}, {}, None
        try:
            yield
            self._write(before_index)
        finally:
            self._held, self._pending = None, {}

    def _write(self, before_index: Callable[[], None]) -> None:
        sessions = [p for p in self._pending if p != self.index]
        for path in [*sessions, self.index] if self._pending else []:
            files.refuse_read_only(path)  # before any file lands: one read-only file, and none is written
            files.sweep_temps(path)  # before any file lands: a killed save's leftovers go first
        created: list[Path] = [path for path in sessions if not path.exists()]
        try:
            files.atomic_write_many([(path, files.json_bytes(self._pending[path])) for path in sessions])
            before_index()
            if self.index in self._pending:
                files.atomic_write(self.index, files.json_bytes(self._pending[self.index]))
                self.index_written = self._pending[self.index]
        except BaseException:
            for path in created:  # only ever a file no one has seen confirmed
                with contextlib.suppress(OSError):
                    path.unlink()
            raise
